package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MembershipTest {

    @Test
    void aMemberIsLostOnceWithItsFirstCause() {
        Membership m = new Membership(3);
        assertThat(m.lose(2, "connection closed")).isTrue();
        assertThat(m.lose(2, "no heartbeat")).isFalse();
        assertThat(m.lostCause(2)).isEqualTo("connection closed");
        assertThat(m.lostCause(1)).isNull();
    }

    @Test
    void afterItsOwnPauseAMemberCountsTheOthersLostButTheirReturnIsNoJoin() {
        Membership m = new Membership(3);
        m.lose(2, "killed before the pause");
        assertThat(m.droppedAfterPause("paused", member -> member != 1)).containsExactly(0);
        assertThat(m.lostCause(0)).isEqualTo("paused");
        assertThat(m.back(0)).isEqualTo(Membership.Admission.JOINED);
        assertThat(m.lostCause(0)).isNull();
        assertThat(m.back(2)).isEqualTo(Membership.Admission.JOINED_AGAIN);
    }
}
