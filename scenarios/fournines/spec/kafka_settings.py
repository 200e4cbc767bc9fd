"""The `load.kafka` fields: how the load generator produces into Kafka, and the topic's fsync policy
(scenarios/docs/kafka-load.md). Only with `load.source: kafka`; filled with these defaults then.
"""
from fournines.spec.schema import OPTIONAL, Choice, Field, Integer, Problems, Record

DEFAULTS = {"producers": 1, "acks": "1", "linger_ms": 5, "batch_size": 262_144}


class Acks(Choice):
    """`acks: 1` in YAML is the integer 1; Kafka's setting is the string "1"."""

    def __init__(self):
        super().__init__("0", "1", "all")

    def check(self, value, path, problems: Problems):
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        return super().check(value, path, problems)


KAFKA = Record({
    "producers": Field(Integer(1, 256), DEFAULTS["producers"]),  # loadgen sender threads; must divide load.partitions
    "acks": Field(Acks(), DEFAULTS["acks"]),
    "linger_ms": Field(Integer(0, 60_000), DEFAULTS["linger_ms"]),
    "batch_size": Field(Integer(0, 64 * 1024 * 1024), DEFAULTS["batch_size"]),
    "flush_messages": Field(Integer(1, 2**63 - 1), OPTIONAL),  # topic flush.messages; default: Kafka's (no forced fsync)
    "flush_ms": Field(Integer(0, 2**63 - 1), OPTIONAL),  # topic flush.ms; default: Kafka's (no forced fsync)
    # replicas of the run's topic; default: 1 on the local target (one broker), 3 on a remote one (fewer brokers: that many)
    "replication_factor": Field(Integer(1, 100), OPTIONAL),
})


def check_rules(scenario: dict, problems: Problems) -> None:
    """The rules between the Kafka fields and the rest of the scenario."""
    load = scenario["load"]
    if load["source"] != "kafka":
        if "kafka" in load:
            problems.add("load.kafka", f"only with load.source kafka; load.source is {load['source']}")
        return
    kafka = load.setdefault("kafka", KAFKA.check({}, "load.kafka", problems))
    partitions = load.get("partitions", scenario["cluster"]["members"] * scenario["cluster"]["threads"])
    if partitions % kafka["producers"]:
        problems.add("load.kafka.producers", f"must divide load.partitions ({partitions}), so each partition is written "
                     f"by one thread in schedule order; is {kafka['producers']}")
