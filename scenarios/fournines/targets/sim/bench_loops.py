"""`make bench-sim`: our scheduling loop against SimPy's on the same model, interleaved (heap, simpy,
heap, simpy, ...) so a machine that slows down part-way slows both alike; prints each loop's median
wall time and the ratio. DESIGN.md §6 asks for SimPy unless our own loop is measured faster."""
import argparse
import statistics
import time

from fournines.targets.sim.calibration import DEFAULTS
from fournines.targets.sim.event_loop import HeapLoop
from fournines.targets.sim.simpy_loop import SimpyLoop
from fournines.targets.sim.simulation import simulate

# Q5's shape on 10 machines of 4 cores at 1 M events/s: about 50 000 events of the loop a simulated second.
SCENARIO = {"query": {"name": "q5", "window_ms": 10_000, "slide_ms": 10}, "cluster": {"members": 10, "threads": 4},
            "load": {"rate": 1_000_000, "keys": 10_000}, "warmup_s": 0, "duration_s": 5, "execution": "continuous"}
LOOPS = {"heap (ours)": HeapLoop, "simpy": SimpyLoop}


def timed(make_loop) -> float:
    started = time.perf_counter()
    simulate(SCENARIO, DEFAULTS, SCENARIO["cluster"]["threads"], seed=1, loop=make_loop())
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    times = {name: [] for name in LOOPS}
    for _ in range(rounds):
        for name, make_loop in LOOPS.items():
            times[name].append(timed(make_loop))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        print(f"{name:12} median {median:.3f} s over {rounds} rounds ({', '.join(f'{t:.3f}' for t in times[name])})")
    print(f"simpy / heap: {medians['simpy'] / medians['heap (ours)']:.2f}")


if __name__ == "__main__":
    main()
