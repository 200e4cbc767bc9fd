"""The chaos checker (fournines/chaos/checker.py): recorded results against expected ones as
multisets of canonical JSON, with exactly-once's and at-least-once's notions of a violation."""
import json

from fournines.chaos.checker import EXAMPLES, check


def hot(start, auction, count):
    return json.dumps({"start": start, "end": start + 10, "auction": auction, "count": count})


EXPECTED = [hot(0, 1, 3), hot(0, 2, 3), hot(10, 1, 4), hot(20, 5, 2)]


def test_the_same_results_in_another_order_and_layout_pass():
    spaced = [json.dumps(json.loads(line), indent=1).replace("\n", "") for line in reversed(EXPECTED)]
    reordered = '{"count": 3, "auction": 1, "end": 10, "start": 0}'  # EXPECTED[0], its fields in another order
    result = check(EXPECTED, [reordered, *spaced[:-1]], "q5", "exactly-once")
    assert (result.expected, result.recorded, result.lost, result.duplicated, result.wrong) == (4, 4, 0, 0, 0)
    assert result.violations() == []


def test_exactly_once_counts_every_missing_extra_and_unexpected_copy():
    expected = [*EXPECTED, hot(30, 7, 1), hot(30, 7, 1)]  # one result twice: both copies are due
    recorded = [hot(0, 1, 3), hot(0, 1, 3), hot(0, 1, 3),  # two copies too many
                hot(10, 1, 4), hot(20, 5, 2), hot(30, 7, 1),  # hot(0, 2, 3) and one hot(30, 7, 1) lost
                hot(10, 1, 5), "not json"]  # wrong: a count no one expected, and a torn line
    result = check(expected, recorded, "q5", "exactly-once")
    assert (result.lost, result.duplicated, result.wrong) == (2, 2, 2)
    assert result.violations() == ["2 lost", "2 duplicated", "2 wrong"]
    assert result.examples["lost"] == [{"result": json.loads(hot(0, 2, 3)), "missing": 1},
                                       {"result": json.loads(hot(30, 7, 1)), "missing": 1}]
    assert result.examples["duplicated"] == [{"result": json.loads(hot(0, 1, 3)), "expected": 1, "recorded": 3}]
    assert result.examples["wrong"] == [{"result": json.loads(hot(10, 1, 5)), "recorded": 1},
                                        {"line": "not json", "recorded": 1}]


def test_at_least_once_takes_replays_and_grown_counts_but_not_a_window_without_results():
    # Window 0 replayed: its counts grew and another auction won; window 10 twice; window 20 missing.
    recorded = [hot(0, 3, 5), hot(10, 1, 4), hot(10, 1, 4)]
    result = check(EXPECTED, recorded, "q5", "at-least-once")
    assert result.identity == ("start", "end")
    assert (result.lost, result.duplicated, result.wrong) == (1, 1, 1)
    assert result.violations() == ["1 lost"]  # duplicated and wrong are reported, not violations
    assert result.examples["lost"] == [{"result": json.loads(hot(20, 5, 2)), "missing": 1}]


def test_at_least_once_of_a_per_event_query_looks_for_the_whole_result():
    bids = [json.dumps({"auction": a, "price": 100}) for a in (1, 2, 2)]
    result = check(bids, [bids[0], bids[0]], "q2", "at-least-once")
    assert result.identity is None
    assert (result.lost, result.duplicated) == (2, 1)  # both copies of auction 2's result: nothing like them


def test_examples_are_few_and_the_same_every_time():
    expected = [hot(10 * i, 1, 1) for i in range(20)]
    first, again = check(expected, [], "q5", "exactly-once"), check(list(reversed(expected)), [], "q5", "exactly-once")
    assert first.lost == 20 and len(first.examples["lost"]) == EXAMPLES
    assert first.examples == again.examples
