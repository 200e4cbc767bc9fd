"""The calibration file: what is written reads back equal, and a bad field is named with the file,
the field and the value."""
from dataclasses import replace

import pytest
import yaml

from fournines.targets.sim.calibration import DEFAULTS, CalibrationError, read_calibration, write_calibration


def test_a_written_calibration_reads_back_equal(tmp_path):
    path = tmp_path / "calibration.yaml"
    parameters = {**DEFAULTS, "source_ns_per_event": replace(DEFAULTS["source_ns_per_event"], value=912.5,
                                                             source="results/x: cpu.csv / throughput.csv")}
    write_calibration(path, parameters)
    assert read_calibration(path) == parameters


@pytest.mark.parametrize("edit, message", [
    (lambda p: p["key_slide_ns"].update(value="fast"), "field parameters.key_slide_ns.value must be a number ≥ 0; is 'fast'"),
    (lambda p: p["key_slide_ns"].update(value=-3), "field parameters.key_slide_ns.value must be a number ≥ 0; is -3"),
    (lambda p: p["network_hop_us"].update(unit="ms"), "field parameters.network_hop_us.unit must be 'us'; is 'ms'"),
    (lambda p: p["gc_cycle_speed"].update(value=0), "field parameters.gc_cycle_speed.value must be a share in (0, 1]; is 0"),
    (lambda p: p["gc_cycle_speed"].update(value=1.5), "field parameters.gc_cycle_speed.value must be a share in (0, 1]; is 1.5"),
    (lambda p: p["gc_pauses_per_s"].update(source=""), "field parameters.gc_pauses_per_s.source must be a non-empty string"),
    (lambda p: p.pop("result_ns"), "field parameters.result_ns: missing"),
    (lambda p: p.update(warp_factor={}), "field parameters.warp_factor: not a parameter of the model"),
])
def test_a_bad_field_is_named_with_the_file_the_field_and_the_value(tmp_path, edit, message):
    path = tmp_path / "calibration.yaml"
    write_calibration(path, DEFAULTS)
    document = yaml.safe_load(path.read_text())
    edit(document["parameters"])
    path.write_text(yaml.safe_dump(document))
    with pytest.raises(CalibrationError) as e:
        read_calibration(path)
    assert str(e.value).startswith(f"{path}: {message}")
