"""Event padding (`load.padding`, `PADDING=`): a size in bytes on the wire of a Kafka NEXMark load,
checked before anything starts, refused naming file, field and value where there is no wire to pad."""
import pytest

from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.targets.loadgen_commands import loadgen_run

ALLOWED = "a size from 0 to 100KB: bytes as an integer, or with a unit (16B, 1KB; 1KB = 1024 bytes)"


def scenario(tmp_path, load: str, query: str = "q5") -> str:
    path = tmp_path / "p.yaml"
    path.write_text(f"name: p\nquery: {{name: {query}}}\nload: {{rate: 1000, source: kafka{load}}}\n")
    return str(path)


@pytest.mark.parametrize("text, size", [("", 0), (", padding: 0", 0), (", padding: 16", 16), (", padding: 16B", 16),
                                        (", padding: 1KB", 1024), (", padding: 100KB", 102_400)])
def test_a_size_is_bytes_in_the_resolved_scenario(tmp_path, text, size):
    assert load_scenario(scenario(tmp_path, text))["load"]["padding"] == size


def test_the_override_sets_it_and_the_load_generator_pads_its_records(tmp_path):
    resolved = load_scenario(scenario(tmp_path, ", padding: 16B"), parse_overrides(["PADDING=10KB"]))
    assert resolved["load"]["padding"] == 10_240
    command = loadgen_run(resolved, "loadgen.jar", "localhost:9092", "topic")
    assert command[command.index("--padding") + 1] == "10240"


@pytest.mark.parametrize("text, overrides, message", [
    (", padding: 1MB", [], f'load.padding: must be {ALLOWED}; is "1MB"'),
    (", padding: 1.5KB", [], f'load.padding: must be {ALLOWED}; is "1.5KB"'),
    (", padding: -1", [], f"load.padding: must be {ALLOWED}; is -1"),
    (", padding: 101KB", [], f'load.padding: must be {ALLOWED}; is "101KB"'),
    (", padding: 102401", [], f"load.padding: must be {ALLOWED}; is 102401"),
    ("", ["PADDING=lots"], f'load.padding: must be {ALLOWED}; is "lots" (set by override PADDING=lots)'),
])
def test_a_bad_size_is_refused_naming_file_field_and_value(tmp_path, text, overrides, message):
    path = scenario(tmp_path, text)
    with pytest.raises(ScenarioError) as e:
        load_scenario(path, parse_overrides(overrides))
    assert e.value.lines == [f"{path}: {message}"]


def test_padding_without_a_wire_is_refused(tmp_path):
    path = scenario(tmp_path, "")
    with pytest.raises(ScenarioError) as e:
        load_scenario(path, parse_overrides(["SOURCE=in-process", "PADDING=1KB"]))
    assert e.value.lines == [f"{path}: load.padding: only with load.source kafka: the in-process generator hands its "
                             "events over in memory, with no wire to pad; is 1024 bytes (set by override PADDING=1KB)"]


def test_padding_is_for_nexmark_records_only(tmp_path):
    path = scenario(tmp_path, ", padding: 1KB", query="trades")
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert e.value.lines == [f"{path}: load.padding: only for NEXMark events; query trades reads trades events; is 1024 bytes"]
