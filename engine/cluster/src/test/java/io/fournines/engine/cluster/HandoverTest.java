package io.fournines.engine.cluster;

import io.fournines.engine.snapshot.SnapshotStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HandoverTest {

    private static Handover.Report committed(long snapshotId) {
        return new Handover.Report(2, new int[] {1, 2, 3}, snapshotId, new int[] {0, 1, 2, 3});
    }

    /** The old coordinator's commit of 8 reached member 3 only: the job restarts from 8, not from the 7 the new coordinator holds. */
    @Test
    void theLatestSnapshotAnyMemberCommittedWinsOnceAllReported() {
        Handover h = new Handover(new int[] {2, 3}, committed(7));
        assertThat(h.add(3, committed(8))).isFalse();
        assertThat(h.missing()).containsExactly(2);
        assertThat(h.add(2, committed(7))).isTrue();
        assertThat(h.latest().committedId()).isEqualTo(8);
    }

    @Test
    void aCoordinatorThatDoesNotRunTheJobTakesTheReportsAlone() {
        Handover h = new Handover(new int[] {1}, null);
        assertThat(h.latest()).isNull();
        assertThat(h.add(1, committed(SnapshotStore.NONE))).isTrue();
        assertThat(h.latest().committedId()).isEqualTo(SnapshotStore.NONE);
    }

    @Test
    void aReportTravelsAsTextAndBack() {
        Handover.Report none = new Handover.Report(0, new int[] {0, 1, 2}, SnapshotStore.NONE, new int[0]);
        assertThat(none.text()).isEqualTo("0 0,1,2 -1 -");
        Handover.Report back = Handover.Report.parse(none.text());
        assertThat(back.attempt()).isZero();
        assertThat(back.members()).containsExactly(0, 1, 2);
        assertThat(back.committedId()).isEqualTo(SnapshotStore.NONE);
        assertThat(back.writers()).isEmpty();
        assertThatThrownBy(() -> Handover.Report.parse("1 0,1")).hasMessageContaining("attempt members committed writers");
    }
}
