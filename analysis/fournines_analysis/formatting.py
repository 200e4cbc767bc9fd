"""Numbers for people: latencies in whole microseconds with thousands separators (exact, one unit
everywhere so columns compare at a glance), CPU per event in nanoseconds, rates in events/s, and a
mark for what was not recorded."""
import math

MISSING = "—"


def _absent(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def micros(value) -> str:
    return MISSING if _absent(value) else f"{value:,.0f} µs"


def nanos(value) -> str:
    return MISSING if _absent(value) else f"{value:,.0f} ns"


def rate(value) -> str:
    return MISSING if _absent(value) else f"{value:,.0f} events/s"


def number(value, digits: int = 2) -> str:
    return MISSING if _absent(value) else f"{value:,.{digits}f}"


def number0(value) -> str:
    return number(value, 0)


def ratio(value) -> str:
    return MISSING if _absent(value) else f"×{value:.3f}"


def percentile_label(p: float) -> str:
    return f"p{p:g}"
