"""A small typed-tree validator for scenario files: each field has a spec that checks a YAML value,
says in words what it allows, and converts an override's text (from `KEY=VALUE`) to a value.

Every problem is collected with its field path (`load.rate`, `faults[0].action`), so one run of the
validator reports all mistakes in a file, each naming the field, the value found and what is allowed.
"""
import json
import re
import shlex
from dataclasses import dataclass, field

from fournines.spec.durations import EXAMPLES as DURATION_EXAMPLES, parse_duration


@dataclass(frozen=True)
class Problem:
    path: str
    message: str


class Problems:
    """The problems found so far; specs add to it instead of raising, so all of them get reported."""

    def __init__(self):
        self.found: list[Problem] = []

    def add(self, path: str, message: str) -> None:
        self.found.append(Problem(path, message))

    def wrong(self, path: str, value, allowed: str) -> None:
        self.add(path, f"must be {allowed}; is {shown(value)}")


def shown(value) -> str:
    """A value as the user wrote it, quoted the way JSON would, so "10" and 10 look different."""
    return json.dumps(value, default=str)


def join(path: str, name) -> str:
    return f"{path}[{name}]" if isinstance(name, int) else (f"{path}.{name}" if path else name)


class Spec:
    """Checks one value. `check` returns the value to keep (or None after adding a problem)."""

    allowed: str

    def check(self, value, path: str, problems: Problems):
        raise NotImplementedError

    def from_text(self, text: str):
        """The value an override's text stands for; text that does not convert is returned as is, so
        `check` reports it with the same message a file would get."""
        return text


class Integer(Spec):
    def __init__(self, minimum: int, maximum: int | None = None):
        self.minimum, self.maximum = minimum, maximum
        self.allowed = (f"an integer from {minimum:,} to {maximum:,}" if maximum is not None
                        else f"an integer ≥ {minimum:,}").replace(",", "_")

    def check(self, value, path, problems):
        if (not isinstance(value, int) or isinstance(value, bool) or value < self.minimum
                or (self.maximum is not None and value > self.maximum)):
            problems.wrong(path, value, self.allowed)
            return None
        return value

    def from_text(self, text):
        return _integer_or_text(text)


class Size(Spec):
    """A size in bytes: an integer, or a whole number with a unit, `B` or `KB` (1 024 bytes): `16B`,
    `1KB`. The checked value is the integer of bytes, so the Java side never parses a unit."""

    UNITS = {"B": 1, "KB": 1024}

    def __init__(self, maximum_bytes: int):
        self.maximum = maximum_bytes
        self.allowed = (f"a size from 0 to {maximum_bytes // 1024}KB: bytes as an integer, or with a unit "
                        "(16B, 1KB; 1KB = 1024 bytes)")

    def check(self, value, path, problems):
        size = self._bytes(value)
        if size is None or size > self.maximum:
            problems.wrong(path, value, self.allowed)
            return None
        return size

    def from_text(self, text):
        return _integer_or_text(text)

    def _bytes(self, value) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool):
            return value if value >= 0 else None
        match = re.fullmatch(r"(\d+)\s*(B|KB)", value.strip()) if isinstance(value, str) else None
        return int(match.group(1)) * self.UNITS[match.group(2)] if match else None


class Number(Spec):
    """A number (an integer or a decimal) at least `minimum`."""

    def __init__(self, minimum: float = 0.0):
        self.minimum = minimum
        self.allowed = f"a number ≥ {minimum:g}"

    def check(self, value, path, problems):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < self.minimum:
            problems.wrong(path, value, self.allowed)
            return None
        return value


class IntegerOr(Integer):
    """An integer in range, or one word that stands for something else (`group_size: auto`)."""

    def __init__(self, word: str, minimum: int, maximum: int | None = None):
        super().__init__(minimum, maximum)
        self.word = word
        self.allowed = f"{self.allowed}, or {word}"

    def check(self, value, path, problems):
        return value if value == self.word else super().check(value, path, problems)


class Choice(Spec):
    def __init__(self, *values: str):
        self.values = values
        self.allowed = "one of " + ", ".join(values)

    def check(self, value, path, problems):
        if value not in self.values:
            problems.wrong(path, value, self.allowed)
            return None
        return value


class Text(Spec):
    def __init__(self, pattern: str = r".*", allowed: str = "a string"):
        self.pattern, self.allowed = re.compile(pattern, re.DOTALL), allowed

    def check(self, value, path, problems):
        if not isinstance(value, str) or not self.pattern.fullmatch(value):
            problems.wrong(path, value, self.allowed)
            return None
        return value


class JdkName(Spec):
    """A JDK by its feature version (`25`) or its folder; kept as text (members/jdks.py finds it)."""

    allowed = "a JDK's feature version (e.g. 25) or its folder"

    def check(self, value, path, problems):
        if isinstance(value, int) and not isinstance(value, bool) and value >= 8:
            return str(value)
        if isinstance(value, str) and value.strip():
            return value.strip()
        problems.wrong(path, value, self.allowed)
        return None


class Duration(Spec):
    """Kept as the text the user wrote; `seconds()` of the checked value gives the number."""

    def __init__(self, minimum_s: float = 0.0):
        self.minimum_s = minimum_s
        self.allowed = (f"a duration of at least {minimum_s:g}s" if minimum_s else "a duration") \
            + f", e.g. {DURATION_EXAMPLES}"

    def check(self, value, path, problems):
        try:
            seconds = parse_duration(value)
        except ValueError:
            seconds = None
        if seconds is None or seconds < self.minimum_s:
            problems.wrong(path, value, self.allowed)
            return None
        return value


class Strings(Spec):
    """A list of strings; an override's text is split like a shell would (JVM_OPTS="-Xmx2g -Xms2g")."""

    allowed = "a list of strings"

    def check(self, value, path, problems):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.wrong(path, value, self.allowed)
            return None
        return value

    def from_text(self, text):
        return shlex.split(text)


REQUIRED = object()  # a Field default: the field must be present
OPTIONAL = object()  # a Field default: left out unless given; the scenario's rules fill or check it


@dataclass(frozen=True)
class Field:
    spec: Spec
    default: object = REQUIRED


@dataclass
class Record(Spec):
    """A mapping with known fields; unknown ones are errors that list the allowed names."""

    fields: dict[str, Field]
    allowed: str = field(default="a mapping of fields")

    def check(self, value, path, problems):
        if not isinstance(value, dict):
            problems.wrong(path, value, f"a mapping with fields {', '.join(self.fields)}")
            return None
        for name in value:
            if name not in self.fields:
                problems.add(join(path, name), f"unknown field; allowed here: {', '.join(self.fields)}")
        checked = {}
        for name, f in self.fields.items():
            if name in value:
                checked[name] = f.spec.check(value[name], join(path, name), problems)
            elif f.default is REQUIRED:
                problems.add(join(path, name), f"missing; required, {f.spec.allowed}")
            elif f.default is not OPTIONAL:
                # Checking the default fills the defaults of a nested record left out entirely.
                checked[name] = f.spec.check(_copy(f.default), join(path, name), problems)
        return checked


@dataclass
class ListOf(Spec):
    item: Spec
    allowed: str = "a list"

    def check(self, value, path, problems):
        if not isinstance(value, list):
            problems.wrong(path, value, self.allowed)
            return None
        return [self.item.check(v, join(path, i), problems) for i, v in enumerate(value)]


def _integer_or_text(text: str):
    """An override's text as an integer if it is one; else as is, for `check` to accept or report."""
    try:
        return int(text)
    except ValueError:
        return text


def _copy(default):
    """Defaults are shared by every scenario, so mutable ones are copied before a scenario owns them."""
    return json.loads(json.dumps(default))
