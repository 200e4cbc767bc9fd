"""load.kafka and the rules around load.source kafka: defaults, types, and the rules between fields."""
import textwrap

import pytest

from fournines.spec.scenario import ScenarioError, load_scenario


def load(tmp_path, text: str) -> dict:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text))
    return load_scenario(str(path))


def errors(tmp_path, text: str) -> list[str]:
    with pytest.raises(ScenarioError) as e:
        load(tmp_path, text)
    return [line.split(": ", 1)[1] for line in e.value.lines]


def test_kafka_settings_get_their_defaults_with_a_kafka_source(tmp_path):
    s = load(tmp_path, "name: t\nquery: {name: q5}\nload: {rate: 1000, source: kafka}\n")
    assert s["load"]["kafka"] == {"producers": 1, "acks": "1", "linger_ms": 5, "batch_size": 262_144}
    assert "kafka" not in load(tmp_path, "name: t\nquery: {name: q5}\nload: {rate: 1000}\n")["load"]


def test_acks_may_be_written_as_a_number_and_the_fsync_policy_is_kept(tmp_path):
    s = load(tmp_path, """
        name: t
        query: {name: q5}
        load: {rate: 1000, source: kafka, kafka: {acks: 0, flush_messages: 1, flush_ms: 10}}
        """)
    assert s["load"]["kafka"]["acks"] == "0"
    assert (s["load"]["kafka"]["flush_messages"], s["load"]["kafka"]["flush_ms"]) == (1, 10)


@pytest.mark.parametrize("text, problems", [
    ("""
     name: t
     query: {name: q5}
     load: {rate: 1000, source: kafka, kafka: {acks: 2, linger_ms: -1, batch: 5}}
     """, ["load.kafka.batch: unknown field; allowed here: producers, acks, linger_ms, batch_size, flush_messages, flush_ms, replication_factor",
           'load.kafka.acks: must be one of 0, 1, all; is "2"',
           "load.kafka.linger_ms: must be an integer from 0 to 60_000; is -1"]),
    ("""
     name: t
     query: {name: q5}
     load: {rate: 1000, source: kafka, partitions: 3, kafka: {producers: 2}}
     """, ["load.kafka.producers: must divide load.partitions (3), so each partition is written by one thread "
           "in schedule order; is 2"]),
    ("name: t\nquery: {name: q5}\nload: {rate: 1000, kafka: {producers: 2}}\n",
     ["load.kafka: only with load.source kafka; load.source is in-process"]),
], ids=["bad fields", "producers not dividing the partitions", "without a Kafka source"])
def test_bad_kafka_settings_are_named(tmp_path, text, problems):
    assert errors(tmp_path, text) == problems
