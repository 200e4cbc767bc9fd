"""The member's progress messages: one JSON object per stdout line
(scenarios/docs/member-contract.md).

    {"type":"progress","elapsed_s":12.0,"phase":"measure","target_rate":1000000,
     "achieved_rate":998000.0,"p99_us":850,"p9999_us":4100,"behind_ms":0.3}
    {"type":"done"}

Any other line is ordinary output. A line that says it is a progress message but breaks the
contract is a ProtocolError, not output: the member and the runner disagree, and a run shown with
wrong numbers would be worse than a stopped one.
"""
import json
from dataclasses import dataclass
from numbers import Real

PHASES = ("warmup", "measure")


class ProtocolError(ValueError):
    pass


@dataclass(frozen=True)
class Progress:
    elapsed_s: float
    phase: str
    target_rate: float
    achieved_rate: float
    p99_us: float | None  # None until the first latency is recorded
    p9999_us: float | None
    behind_ms: float


@dataclass(frozen=True)
class Done:
    pass


# field -> may it be null?
_FIELDS = {"elapsed_s": False, "target_rate": False, "achieved_rate": False, "p99_us": True,
           "p9999_us": True, "behind_ms": False}


def parse_line(line: str) -> Progress | Done | None:
    """The message on `line`, or None if the line is ordinary output."""
    if not line.startswith("{"):
        return None
    try:
        message = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(message, dict) or message.get("type") not in ("progress", "done"):
        return None
    if message["type"] == "done":
        return Done()
    return Progress(phase=_phase(message), **{name: _number(message, name, nullable)
                                              for name, nullable in _FIELDS.items()})


def _phase(message: dict) -> str:
    phase = message.get("phase")
    if phase not in PHASES:
        raise ProtocolError(f"progress field phase must be one of {', '.join(PHASES)}; is {json.dumps(phase)}")
    return phase


def _number(message: dict, name: str, nullable: bool) -> float | None:
    if name not in message:
        raise ProtocolError(f"progress field {name} is missing")
    value = message[name]
    if value is None and nullable:
        return None
    if not isinstance(value, Real) or isinstance(value, bool) or value < 0:
        allowed = "a number ≥ 0" + (" or null" if nullable else "")
        raise ProtocolError(f"progress field {name} must be {allowed}; is {json.dumps(value)}")
    return float(value)
