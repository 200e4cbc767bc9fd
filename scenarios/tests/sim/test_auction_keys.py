"""The closed form of the auctions Q5's bids name, against the generator's rules drawn event by event
(nexmark/core NexmarkGenerator.bid: 46 bids of every 50 events, half to the hot auction, the rest
uniform over the newest 100 auctions and 10 ahead, ids modulo the keys)."""
import numpy as np
import pytest

from fournines.targets.sim.auction_keys import distinct_auctions


def drawn(keys: int, events: int, tasklets: int, first_event: int, rng) -> int:
    """Distinct auction keys among the bids of source tasklet 0 of `tasklets` in events
    [first_event, first_event + events)."""
    ids = np.arange(first_event, first_event + events, tasklets)
    offset = ids % 50
    bids = ids[offset >= 4]
    newest = bids // 50 * 3 + 2  # the auctions of a 50-event epoch come before its bids
    hot = rng.random(len(bids)) < 0.5
    oldest = np.maximum(newest - 100, 0)
    cold = oldest + rng.integers(0, newest - oldest + 1 + 10)
    chosen = np.where(hot, newest // 100 * 100, cold)
    return len(np.unique(chosen % keys if keys else chosen))


@pytest.mark.parametrize("keys, events, tasklets", [
    (10_000, 10_000, 2),   # Q5 at 1 M events/s, a 10 ms frame, two source tasklets
    (10_000, 70_000, 2),   # 7 M events/s
    (1_000, 20_000, 2),    # more auctions than keys: the ids wrap
    (100_000, 10_000, 16),  # many tasklets: each sees few picks of an auction
    (0, 1_000, 1),         # a frame shorter than an auction's time in the cold range
    (1_000, 1_000_000, 1),  # a whole window at its owner: every key
])
def test_the_closed_form_matches_the_generators_draws_within_3_percent(keys, events, tasklets):
    rng = np.random.default_rng(7)
    draws = [drawn(keys, events, tasklets, first, rng) for first in (1_000_000, 5_000_123, 9_999_977)]
    assert distinct_auctions(keys, events, tasklets) == pytest.approx(np.mean(draws), rel=0.03)


def test_the_count_does_not_follow_the_keys_once_they_outnumber_a_frames_auctions():
    assert distinct_auctions(100_000, 10_000, 2) == pytest.approx(distinct_auctions(10_000, 10_000, 2))
    assert distinct_auctions(100_000, 10_000, 2) < 1_000


def test_no_events_name_no_auction():
    assert distinct_auctions(1_000, 0, 2) == 0.0
