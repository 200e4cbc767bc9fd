"""An SLO is bounds on percentiles of the measured latency: read strictly, checked against the
intervals after the warm-up."""
import pytest

from fournines_analysis.results import load_run
from fournines_analysis.slo import BadSlo, check_slo, parse_slo
from synthetic import write_run


def test_bounds_are_read_with_their_units():
    bounds = parse_slo("p99.99<=10ms, p50<=800us,p99.9<=1.5s")
    assert [(b.percentile, b.limit_us) for b in bounds] == [(99.99, 10_000), (50, 800), (99.9, 1_500_000)]


@pytest.mark.parametrize("text, message", [
    ("p99.99<10ms", "cannot read 'p99.99<10ms'"),
    ("p99<=10", "cannot read 'p99<=10'"),
    ("99<=10ms", "cannot read '99<=10ms'"),
    ("p0<=1ms", "must be above 0 and below 100"),
    ("p99<=0ms", "must be above 0"),
    ("p99<=1ms,", "cannot read ''"),
])
def test_a_bad_slo_is_refused_naming_the_part(text, message):
    with pytest.raises(BadSlo, match=message):
        parse_slo(text)


def test_the_bounds_are_checked_against_the_measured_percentiles(tmp_path):
    # write_run's latency: lognormal around 400 µs, with pauses of up to 20 ms now and then
    run = load_run(write_run(tmp_path / "run", seed=3))
    median, tail = check_slo(parse_slo("p50<=1ms,p99.99<=1ms"), run)
    assert median.met and 300 < median.measured_us < 500
    assert not tail.met and tail.measured_us > 1_000
    assert str(tail).startswith("p99.99 ") and str(tail).endswith("> 1,000 µs")
    assert check_slo((), run) == []  # a sweep without an SLO
