"""make gate-selftest with real runs, cut to one trial of one run a side: the injector reaches B and
only B, and the rates come out. The rates themselves are measurements (analysis/MEASURED.md)."""
import json

import pytest

from fournines.compare.ab_gate import GateStopped
from fournines.compare.gate_selftest import selftest

SHORT = ["RATE=50000", "WARMUP=1s", "DURATION=2s", "JVM_OPTS=-Xms256m -Xmx256m"]


def test_one_trial_runs_a_a2_and_b_and_prints_the_rates(tmp_path, capsys):
    code = selftest("q5-gate", trials=1, repeat=1, slowdown=0.5, threshold=0.05, assignments=SHORT,
                    results_root=tmp_path)
    (out,) = tmp_path.iterdir()
    report = (out / "selftest.txt").read_text()
    assert report == capsys.readouterr().out
    assert code == (0 if "goals (false alarms <= 5%, detections >= 95%): met" in report else 1)
    assert "false alarms (gate failed A/A): " in report and "detections (gate failed A/B):   " in report
    assert "took " in report and " min for 4 runs" in report
    nanos = json.loads((out / "selftest.json").read_text())["injected_nanos_per_event"]
    assert nanos > 0
    injected = {group: [json.loads(p.read_text())["engine_settings"].get("injected_nanos_per_event")
                        for p in (out / "trial-01" / group).glob("*/member.json")] for group in ("A", "A2", "B")}
    assert injected == {"A": [None], "A2": [None], "B": [nanos]}


@pytest.mark.parametrize("assignments, message", [
    (["ENGINE=jet"], "the slowdown is injected into the fournines engine only"),
    (["JVM_OPTS=-Dfournines.gate.injectedNanosPerEvent=5"], "already sets -Dfournines.gate.injectedNanosPerEvent"),
])
def test_what_it_cannot_inject_into_is_refused_before_any_run(tmp_path, assignments, message):
    with pytest.raises(GateStopped, match=message) as stopped:
        selftest("q5-gate", 1, 1, 0.1, 0.05, assignments, results_root=tmp_path)
    assert stopped.value.exit_code == 2 and not any(tmp_path.iterdir())
