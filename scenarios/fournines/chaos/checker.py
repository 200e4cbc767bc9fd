"""A trial's check: the results the members recorded against the expected ones, as multisets of
canonical JSON (keys sorted, no spacing), so field order and layout do not matter but every copy does.

- exactly-once: lost = expected results not recorded (each missing copy counts); duplicated = copies
  of expected results beyond the expected number; wrong = recorded results not expected at all (a
  line that is not JSON too). Any of them is a violation.
- at-least-once: a replay may process an event twice, so a result may appear twice and a windowed
  count may grow; only a loss is a violation, and a result is lost when nothing with its identity
  (IDENTITY) was recorded at all. Duplicated and wrong are counted as for exactly-once, and reported.
"""
import json
from collections import Counter
from dataclasses import asdict, dataclass

EXAMPLES = 5  # of each kind, in check.json

# Under at-least-once, the fields of a result a replay cannot change; None: the whole result.
# q0, q1, q2: one result per event, a replayed event gives it again unchanged. q7: the bids at their
# window's highest price (a replayed bid repeats its price: the highest stays, and so do its bids).
# q8: a (person, auction) pair of a window (a replay repeats pairs, never alters one). q5: the window
# only: a replayed bid counts twice, which can change which auctions are tied for the most, so a
# window must have hot items, not necessarily the ones expected.
IDENTITY: dict[str, tuple[str, ...] | None] = {
    "q0": None, "q1": None, "q2": None, "q5": ("start", "end"), "q7": None, "q8": None}


@dataclass(frozen=True)
class Check:
    guarantee: str
    identity: tuple[str, ...] | None  # at-least-once: what `lost` looks for; None: the whole result
    expected: int
    recorded: int
    lost: int
    duplicated: int
    wrong: int
    examples: dict[str, list[dict]]  # "lost", "duplicated", "wrong": up to EXAMPLES each

    def violations(self) -> list[str]:
        counted = ("lost", "duplicated", "wrong") if self.guarantee == "exactly-once" else ("lost",)
        return [f"{getattr(self, name):,} {name}" for name in counted if getattr(self, name)]

    def to_json(self) -> dict:
        return {**asdict(self), "violations": self.violations()}


def canonical(line: str) -> str:
    """ValueError if `line` is not JSON."""
    return json.dumps(json.loads(line), sort_keys=True, separators=(",", ":"))


def check(expected_lines, recorded_lines, query: str, guarantee: str) -> Check:
    expected = Counter(canonical(line) for line in expected_lines)
    recorded, unreadable = Counter(), Counter()
    for line in recorded_lines:
        try:
            recorded[canonical(line)] += 1
        except ValueError:
            unreadable[line] += 1
    extra = recorded - expected
    duplicated = Counter({r: n for r, n in extra.items() if r in expected})
    wrong = Counter({r: n for r, n in extra.items() if r not in expected})
    identity = IDENTITY[query] if guarantee == "at-least-once" else None
    if guarantee == "exactly-once":
        lost = expected - recorded
    else:
        seen = {_identity(r, identity) for r in recorded}
        lost = Counter({r: n for r, n in expected.items() if _identity(r, identity) not in seen})
    examples = {
        "lost": [{"result": json.loads(r), "missing": n} for r, n in _first(lost)],
        "duplicated": [{"result": json.loads(r), "expected": expected[r], "recorded": recorded[r]}
                       for r, n in _first(duplicated)],
        "wrong": [*({"result": json.loads(r), "recorded": n} for r, n in _first(wrong)),
                  *({"line": line, "recorded": n} for line, n in _first(unreadable))][:EXAMPLES],
    }
    return Check(guarantee, identity, expected.total(), recorded.total() + unreadable.total(), lost.total(),
                 duplicated.total(), wrong.total() + unreadable.total(), examples)


def _identity(result: str, fields: tuple[str, ...] | None) -> str:
    if fields is None:
        return result
    parsed = json.loads(result)
    return json.dumps([parsed.get(f) if isinstance(parsed, dict) else None for f in fields])


def _first(counts: Counter) -> list[tuple[str, int]]:
    """A few, the same ones every time: the first in canonical order."""
    return sorted(counts.items())[:EXAMPLES]
