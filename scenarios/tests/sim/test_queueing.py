"""The model's queueing core against closed-form results: an M/M/1 station's mean wait, and Little's
law (and Jackson's sojourn) on a tandem of three stations. Fixed seeds; tolerances from the run's own
standard error, by batch means, which must itself be small for the test to mean anything."""
import numpy as np
import pytest

from fournines.targets.sim.pauses import Pauses
from fournines.targets.sim.station import Station
from sim_loops import LOOPS

CUSTOMERS = 200_000
BATCHES = 50


def poisson_through(loop, stations, rate, rng, customers, on_departure):
    """Customers arriving at `rate` pass the stations in order, each service exponential at the
    station's rate; `on_departure(arrived, waited_in_queues, left)` is called as each leaves."""
    gaps = rng.exponential(1 / rate, customers)
    services = [rng.exponential(1 / mu, customers) for _, mu in stations]

    def visit(i, k, arrived, queued, entered):
        if k == len(stations):
            on_departure(arrived, queued, loop.now)
            return
        station, _ = stations[k]
        work = services[k][i]
        station.submit(work, lambda: visit(i, k + 1, arrived, queued + loop.now - entered - work, loop.now))

    for i, t in enumerate(np.cumsum(gaps)):
        loop.at(t, lambda i=i, t=t: visit(i, 0, t, 0.0, t))
    loop.run(float("inf"))


def batch_mean_and_error(values):
    batches = np.array_split(np.asarray(values), BATCHES)
    means = np.array([b.mean() for b in batches])
    return means.mean(), means.std(ddof=1) / np.sqrt(BATCHES)


@pytest.mark.parametrize("make_loop", LOOPS)
def test_an_mm1_station_waits_as_the_closed_form_says(make_loop):
    loop = make_loop()
    lam, mu = 0.5, 1.0
    waits = []
    poisson_through(loop, [(Station(loop, 1, Pauses.none()), mu)], lam, np.random.default_rng(7), CUSTOMERS,
                    lambda arrived, queued, left: waits.append(queued))
    expected = lam / (mu * (mu - lam))  # Wq = ρ / (μ - λ)
    mean, error = batch_mean_and_error(waits[CUSTOMERS // 10:])  # the first tenth: the queue filling from empty
    assert error < 0.05 * expected  # enough customers that the check below is tight
    assert abs(mean - expected) < 4 * error


@pytest.mark.parametrize("make_loop", LOOPS)
def test_littles_law_holds_on_a_three_stage_pipeline(make_loop):
    loop = make_loop()
    lam, mus = 0.5, (1.0, 1.5, 2.0)
    stations = [(Station(loop, 1, Pauses.none()), mu) for mu in mus]
    customers, step = 50_000, 0.05
    sojourns, counts = [], []

    def count():  # the number in the system, sampled at fixed instants: a time average independent of W
        counts.append(sum(s.in_system for s, _ in stations))
        if loop.now < horizon:
            loop.at(loop.now + step, count)

    horizon = customers / lam
    loop.at(0.0, count)
    poisson_through(loop, stations, lam, np.random.default_rng(11), customers,
                    lambda arrived, queued, left: sojourns.append(left - arrived))
    mean_in_system = np.mean(counts[len(counts) // 10:])
    sojourn, error = batch_mean_and_error(sojourns[customers // 10:])
    jackson = sum(1 / (mu - lam) for mu in mus)  # a tandem of M/M/1 stations: their mean sojourns add
    assert error < 0.05 * jackson
    assert abs(sojourn - jackson) < 4 * error
    assert mean_in_system == pytest.approx(lam * sojourn, rel=0.05)
