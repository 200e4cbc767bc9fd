"""Durations as scenarios write them: "500ms", "10s", "2m", "1h", or combined like "1m30s".

A bare number is refused: "10" could mean seconds or milliseconds, and a benchmark that silently
runs a thousand times too short (or too long) is worse than an error.
"""
import re

# Largest unit first, each at most once: "1h2m3s500ms". The (?!s) keeps "500ms" from reading as minutes.
_DURATION = re.compile(r"(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?")

EXAMPLES = '"500ms", "10s", "2m", "1h", "1m30s"'


def parse_duration(text) -> float:
    """Seconds in `text`; ValueError saying what is accepted if it is not a duration."""
    match = _DURATION.fullmatch(text.strip()) if isinstance(text, str) else None
    if not match or not any(match.groups()):
        raise ValueError(f"not a duration; write a whole number with a unit (ms, s, m, h), e.g. {EXAMPLES}")
    hours, minutes, seconds, millis = (int(g) if g else 0 for g in match.groups())
    return hours * 3600 + minutes * 60 + seconds + millis / 1000
