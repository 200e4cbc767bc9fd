import pytest

from fournines.spec.durations import parse_duration


@pytest.mark.parametrize("text, seconds", [
    ("10s", 10), ("2m", 120), ("1h", 3600), ("500ms", 0.5), ("1m30s", 90), ("1h2m3s4ms", 3723.004), ("0s", 0),
])
def test_durations(text, seconds):
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["10", "", "s", "1.5s", "10 sec", "-1s", "1s1m", 10, None])
def test_not_durations(text):
    with pytest.raises(ValueError, match="write a whole number with a unit"):
        parse_duration(text)
