"""How many distinct keys Q5's bids name: the NEXMark generator's choice of auction
(nexmark/core NexmarkGenerator), in closed form, so the model counts the partials and the (key, slide)
pairs the real job has.

Of every 50 events 46 are bids and 3 create an auction. A bid names the hot auction (the first of the
newest hundred) with probability 1/2, else an auction uniform over the newest 100 plus 10 not yet
created: 111 ids about the newest. That range moves on by an id every 50/3 events, so an id is
within it for 111 × 50/3 = 1 850 events, and in a frame of E events the bids name about 3/50 × E + 111
ids, not a uniform draw over the scenario's keys: at 1 M events/s a 10 ms frame of one of two source
tasklets names ~650 auctions whether there are 1 000 or 100 000 keys (the engine's vertices.csv:
~129 000 partials a second from both). Ids are taken modulo the keys (GeneratorConfig.keys), so no more
than `keys` are distinct; 0 keys is the generator's unbounded id space.

Source tasklet k of T takes events k, k + T, k + 2T, ... (GeneratorSourceP), so a tasklet sees 1/T of
the picks of each id.
"""
import math

IDS_PER_EVENT = 3 / 50  # auctions created per event
COLD_PICK_PER_EVENT = 46 / 50 * (1 - 1 / 2) / 111  # a given id in range, picked by a cold bid, per event
SPAN_EVENTS = 111 / IDS_PER_EVENT  # events an id stays within the cold range
HOT_PICKS_PER_EVENT = 46 / 50 * (1 - 1 / 2)
HOT_SPAN_EVENTS = 100 / IDS_PER_EVENT  # events between two hot auctions


def distinct_auctions(keys: int, events: float, tasklets: int = 1) -> float:
    """Expected distinct auction keys among the bids one of `tasklets` source tasklets makes of
    `events` consecutive events (each taking every `tasklets`-th)."""
    if events <= 0:
        return 0.0
    per_pick = COLD_PICK_PER_EVENT / tasklets
    # An id's picks by this tasklet are Poisson with a mean per_pick × (its span's overlap with the
    # frame): the overlap rises over `shortest` events of id positions, stays, and falls again.
    shortest = min(SPAN_EVENTS, events)
    unseen_at_most = math.exp(-per_pick * shortest)
    ramps = 2 * (shortest + math.expm1(-per_pick * shortest) / per_pick)
    cold = IDS_PER_EVENT * (ramps + abs(SPAN_EVENTS - events) * (1 - unseen_at_most))
    hot_ids = events / HOT_SPAN_EVENTS + 1
    hot = hot_ids * -math.expm1(-HOT_PICKS_PER_EVENT * min(events, HOT_SPAN_EVENTS) / tasklets) * unseen_at_most
    found = cold + hot
    return min(found, keys) if keys else found
