"""`KEY=VALUE` overrides on the command line, named like the Make variables that pass them
(`make bench-q5 RATE=200000` runs `./fournines run q5 RATE=200000`).

Each key sets one scenario field; the value is checked by that field's own spec, so a bad override
gets the same message as a bad file, plus the override that caused it. PROFILE is not a scenario
field but a run option (record a JFR profile), taken here so Make can pass it the same way.
"""
from dataclasses import dataclass

# Make variable -> scenario field it sets. Documented in scenarios/README.md ("Overrides").
FIELDS: dict[str, str] = {
    "CLUSTER": "cluster.members",
    "THREADS": "cluster.threads",
    "JVM_OPTS": "cluster.jvm_opts",
    "GC": "cluster.gc",
    "JDK": "cluster.jdk",
    "RATE": "load.rate",
    "KEYS": "load.keys",
    "PADDING": "load.padding",
    "PRODUCERS": "load.kafka.producers",
    "ACKS": "load.kafka.acks",
    "LINGER_MS": "load.kafka.linger_ms",
    "BATCH_SIZE": "load.kafka.batch_size",
    "FLUSH_MESSAGES": "load.kafka.flush_messages",
    "FLUSH_MS": "load.kafka.flush_ms",
    "REPLICATION_FACTOR": "load.kafka.replication_factor",
    "SOURCE": "load.source",
    "PARTITIONS": "load.partitions",
    "WINDOW_MS": "query.window_ms",
    "SLIDE_MS": "query.slide_ms",
    "WARMUP": "warmup",
    "DURATION": "duration",
    "GUARANTEE": "guarantee",
    "SNAPSHOT_INTERVAL_MS": "snapshot_interval_ms",
    "MODE": "mode",
    "JOBS": "jobs",
    "IDLE": "idle",
    "EXECUTION": "execution",
    "BATCH_MS": "batch_ms",
    "GROUP_SIZE": "group_size",
    "LATENCY_TARGET_MS": "latency_target_ms",
    "ENGINE": "engine",
    "TARGET": "target",
}
RUN_OPTIONS = ("PROFILE",)
KEYS = (*FIELDS, *RUN_OPTIONS)


class OverrideError(ValueError):
    """A malformed or unknown `KEY=VALUE`; the message names it and what is allowed."""


@dataclass(frozen=True)
class Override:
    key: str
    text: str

    @property
    def path(self) -> str:
        return FIELDS[self.key]

    def __str__(self):
        return f"{self.key}={self.text}"


@dataclass(frozen=True)
class Overrides:
    fields: tuple[Override, ...] = ()
    profile: bool = False

    def replacing(self, values: dict[str, str]) -> "Overrides":
        """These overrides with `values` (key -> text) set, in place of any given for those keys."""
        kept = tuple(o for o in self.fields if o.key not in values)
        return Overrides(kept + tuple(Override(k, v) for k, v in values.items()), self.profile)


def parse_overrides(args) -> Overrides:
    fields, profile, seen = [], False, set()
    for arg in args:
        key, eq, text = arg.partition("=")
        if not eq:
            raise OverrideError(f"{arg!r}: expected KEY=VALUE with KEY one of {', '.join(KEYS)}")
        if key not in KEYS:
            raise OverrideError(f"override {arg}: unknown key {key!r}; allowed: {', '.join(KEYS)}")
        if key in seen:
            raise OverrideError(f"override {arg}: {key} is given twice")
        seen.add(key)
        if not text.strip():
            raise OverrideError(f"override {arg}: empty value; leave {key} out to keep the scenario's value")
        if key == "PROFILE":
            if text not in ("0", "1"):
                raise OverrideError(f"override {arg}: PROFILE must be 1 (record a JFR profile) or 0")
            profile = text == "1"
        else:
            fields.append(Override(key, text))
    return Overrides(tuple(fields), profile)


def split_settings(args, own: tuple[str, ...], fixed=()) -> tuple[dict[str, str], list[str]]:
    """A command's own KEY=VALUE settings (keys in `own`, each once), and the scenario overrides it
    passes on; a key that is neither is refused naming both lists, less the overrides in `fixed`
    (those the command sets itself)."""
    settings, rest = {}, []
    for arg in args:
        key, eq, text = arg.partition("=")
        if eq and key in own:
            if key in settings:
                raise OverrideError(f"override {arg}: {key} is given twice")
            settings[key] = text
        elif eq and key not in KEYS:
            allowed = [*own, *(k for k in KEYS if k not in own and k not in fixed)]
            raise OverrideError(f"override {arg}: unknown key {key!r}; allowed: {', '.join(allowed)}")
        else:
            rest.append(arg)
    return settings, rest
