"""The progress line of a run, whatever its plan: the lone member's, a cluster's, or the consumer's."""
from fournines.members.progress import Progress
from fournines.targets.local.play import run_progress

FIRST = Progress(5.0, "measure", 30_000, 10_000, 800, 900, 0.5)
OTHERS = [Progress(5.0, "measure", 30_000, 9_000, None, None, 2.0), Progress(4.9, "measure", 30_000, 11_000, 1_200, 1_300, 0.1)]


def test_a_lone_members_line_is_its_own():
    assert run_progress(FIRST, [[FIRST]], latency_from_leader=False) == FIRST


def test_the_progress_line_speaks_for_the_whole_cluster():
    assert run_progress(FIRST, [[FIRST, *OTHERS]], latency_from_leader=False) == Progress(
        5.0, "measure", 30_000, 30_000, 1_200, 1_300, 2.0)


def test_active_active_shows_the_outputs_latency_and_the_events_of_the_fastest_copy():
    consumer = Progress(5.0, "measure", 30_000, 42.0, 700, 750, 0.2)
    assert run_progress(consumer, [[FIRST, OTHERS[0]], [OTHERS[1]]], latency_from_leader=True) == Progress(
        5.0, "measure", 30_000, 19_000, 700, 750, 0.2)
    assert run_progress(consumer, [], latency_from_leader=True).achieved_rate == 0.0  # every copy lost


def test_a_cluster_whose_job_a_fault_ended_shows_the_leaders_line_at_no_events():
    # The kill ended a job without a guarantee; the leader's last progress line may still come.
    assert run_progress(FIRST, [], latency_from_leader=False) == Progress(5.0, "measure", 30_000, 0.0, 800, 900, 0.5)
