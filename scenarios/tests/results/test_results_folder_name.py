import re
from datetime import datetime, timedelta, timezone

from fournines.results.folder import folder_name, new_results_folder

WHEN = datetime(2026, 11, 22, 21, 55, 0, tzinfo=timezone.utc)


def test_the_name_is_utc_time_then_scenario():
    assert folder_name("q5", WHEN) == "20261122T215500Z-q5"
    assert folder_name("q5", WHEN.astimezone(timezone(timedelta(hours=2)))) == "20261122T215500Z-q5"


def test_names_sort_by_time():
    names = [folder_name("q5", WHEN + timedelta(seconds=s)) for s in (0, 9, 61, 3600 * 30)]
    assert sorted(names) == names


def test_a_second_run_in_the_same_second_gets_its_own_folder(tmp_path):
    first = new_results_folder("q5", tmp_path, WHEN)
    second = new_results_folder("q5", tmp_path, WHEN)
    assert (first.name, second.name) == ("20261122T215500Z-q5", "20261122T215500Z-q5-2")
    assert first.is_dir() and second.is_dir()


def test_a_new_folder_is_stamped_now(tmp_path):
    path = new_results_folder("q1", tmp_path)
    assert re.fullmatch(r"\d{8}T\d{6}Z-q1", path.name)
