"""Costs for tests where the seed must show: GC pauses (or, in STALLING, stalls alone) often and long
enough (20 a second of 5 ms on average) to land on windows' and batches' work, so another seed gives
other results; and QUIET, without GC pauses, for tests of what the pauses would blur."""
from dataclasses import replace

from fournines.targets.sim.calibration import DEFAULTS

# No wake-up span: its draws would make another seed differ even without pauses or stalls.
PAUSING = {**DEFAULTS, "wakeup_span_us": replace(DEFAULTS["wakeup_span_us"], value=0.0),
           "gc_pauses_per_s": replace(DEFAULTS["gc_pauses_per_s"], value=20.0),
           "gc_pause_mean_ms": replace(DEFAULTS["gc_pause_mean_ms"], value=5.0)}
# Stalls per busy core-second: some 20 a second on test_determinism's machines, busy ~0.07 cores.
STALLING = {**DEFAULTS, "wakeup_span_us": replace(DEFAULTS["wakeup_span_us"], value=0.0),
            "gc_pauses_per_s": replace(DEFAULTS["gc_pauses_per_s"], value=0.0),
            "stalls_per_busy_core_s": replace(DEFAULTS["stalls_per_busy_core_s"], value=300.0),
            "stall_mean_ms": replace(DEFAULTS["stall_mean_ms"], value=5.0)}
QUIET = {**DEFAULTS, "gc_pauses_per_s": replace(DEFAULTS["gc_pauses_per_s"], value=0.0)}
