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
        ControlAheadOfView held = new ControlAheadOfView();
        held.hold(command(1, 5, 1));
        held.hold(command(2, 5, 2));   // term 5 is member 1's: member 2 cannot command in it
        held.hold(command(2, 4, 3));   // older than the view
        held.hold(command(1, 6, 4));   // a newer term: waits on
        held.hold(command(1, 5, 5));

        List<ControlAheadOfView.Command> stale = new ArrayList<>();
        assertThat(held.release(view(5, 1), stale)).extracting(ControlAheadOfView.Command::jobId).containsExactly(1L, 5L);
        assertThat(stale).extracting(ControlAheadOfView.Command::jobId).containsExactlyInAnyOrder(2L, 3L);

        stale.clear();
        assertThat(held.release(view(6, 1), stale)).extracting(ControlAheadOfView.Command::jobId).containsExactly(4L);
        assertThat(stale).isEmpty();
    }

    @Test
    void atMostMaxHeldWaitTheOldestDroppedFirst() {
        ControlAheadOfView held = new ControlAheadOfView();
        for (int i = 0; i < ControlAheadOfView.MAX_HELD; i++) {
            assertThat(held.hold(command(1, 9, i))).isNull();
        }
        assertThat(held.hold(command(1, 9, ControlAheadOfView.MAX_HELD))).extracting(ControlAheadOfView.Command::jobId).isEqualTo(0L);
        assertThat(held.release(view(9, 1), new ArrayList<>())).hasSize(ControlAheadOfView.MAX_HELD);
    }
}
