package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ControlAheadOfViewTest {

    private static View view(long term, int coordinator) {
        BitSet members = new BitSet();
        members.set(0, 3);
        return new View(term, coordinator, members);
    }

    private static ControlAheadOfView.Command command(int from, long term, long jobId) {
        return new ControlAheadOfView.Command(from, term, ControlKind.START, jobId, "job " + jobId);
    }

    @Test
    void theViewReleasesItsCoordinatorsCommandsInOrderDropsStaleOnesAndKeepsNewerOnes() {
        ControlAheadOfView held = new ControlAheadOfView(1);
        held.hold(command(1, 5, 1));
        held.hold(command(2, 5, 2));   // term 5 is member 1's: member 2 cannot command in it
        held.hold(command(2, 4, 3));   // older than the view, and member 2 does not coordinate it
        held.hold(command(1, 6, 4));   // a newer term: waits on
        held.hold(command(1, 5, 5));
        held.hold(command(1, 4, 6));   // older, from the coordinator of the view: it still coordinates

        List<ControlAheadOfView.Command> stale = new ArrayList<>();
        assertThat(held.release(view(5, 1), stale)).extracting(ControlAheadOfView.Command::jobId).containsExactly(1L, 5L, 6L);
        assertThat(stale).extracting(ControlAheadOfView.Command::jobId).containsExactlyInAnyOrder(2L, 3L);

        stale.clear();
        assertThat(held.release(view(6, 1), stale)).extracting(ControlAheadOfView.Command::jobId).containsExactly(4L);
        assertThat(stale).isEmpty();
    }

    /**
     * A command its coordinator sent in an earlier view reaches a member that installed a newer view
     * of the same coordinator (views and commands race on two connections): it counts. One from a
     * member that does not coordinate the view, or sent in a newer view, does not.
     */
    @Test
    void aCommandFromTheCoordinatorOfThisViewCountsThoughSentInAnEarlierOne() {
        assertThat(ControlAheadOfView.fromThisCoordinator(1, 3, view(5, 1))).isTrue();
        assertThat(ControlAheadOfView.fromThisCoordinator(1, 5, view(5, 1))).isTrue();
        assertThat(ControlAheadOfView.fromThisCoordinator(2, 3, view(5, 1))).isFalse();
        assertThat(ControlAheadOfView.fromThisCoordinator(1, 6, view(5, 1))).isFalse();
    }

    /**
     * A member reports to the coordinator of the view it acts on as soon as it does; the report can
     * come before the coordinator's own data thread acts on that view. It waits, and counts only if
     * the view names this member (1) coordinator. Found by ./fournines chaos: such a report was
     * dropped, the handover waited the failure timeout for it, and a coordinator back from a stop
     * was then counted among the attempt's members though it had left its part.
     */
    @Test
    void aReportToTheCoordinatorOfANewerViewWaitsForItAndCountsIfThisMemberCoordinatesIt() {
        ControlAheadOfView held = new ControlAheadOfView(1);
        held.hold(new ControlAheadOfView.Command(2, 5, ControlKind.RUNNING, 1, "report"));
        held.hold(new ControlAheadOfView.Command(2, 6, ControlKind.RUNNING, 2, "report"));

        List<ControlAheadOfView.Command> stale = new ArrayList<>();
        assertThat(held.release(view(5, 1), stale)).extracting(ControlAheadOfView.Command::jobId).containsExactly(1L);
        assertThat(stale).isEmpty();
        assertThat(held.release(view(6, 0), stale)).isEmpty();  // member 0 coordinates term 6: not a report for this member
        assertThat(stale).extracting(ControlAheadOfView.Command::jobId).containsExactly(2L);
    }

    @Test
    void atMostMaxHeldWaitTheOldestDroppedFirst() {
        ControlAheadOfView held = new ControlAheadOfView(1);
        for (int i = 0; i < ControlAheadOfView.MAX_HELD; i++) {
            assertThat(held.hold(command(1, 9, i))).isNull();
        }
        assertThat(held.hold(command(1, 9, ControlAheadOfView.MAX_HELD))).extracting(ControlAheadOfView.Command::jobId).isEqualTo(0L);
        assertThat(held.release(view(9, 1), new ArrayList<>())).hasSize(ControlAheadOfView.MAX_HELD);
    }
}
