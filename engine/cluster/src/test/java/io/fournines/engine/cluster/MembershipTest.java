package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MembershipTest {

    @Test
    void theOldestLiveMemberCoordinates() {
        Membership m = new Membership(2, 3);
        assertThat(m.coordinator()).isZero();
        assertThat(m.lose(0, "gone")).isTrue();
        assertThat(m.lose(0, "gone again")).isFalse();
        assertThat(m.lostCause(0)).isEqualTo("gone");
        assertThat(m.coordinator()).isEqualTo(1);
    }

    @Test
    void aMemberThatJoinedAgainIsYoungerThanThoseThatStayed() {
        Membership m = new Membership(2, 3);
        m.lose(0, "killed");
        assertThat(m.back(0, 1_000)).isEqualTo(Membership.Admission.JOINED_AGAIN);
        assertThat(m.lostCause(0)).isNull();
        assertThat(m.coordinator()).isEqualTo(1);
    }

    @Test
    void aReturningProcessLearnsItIsYoungerOnce() {
        Membership m = new Membership(0, 3);
        assertThat(m.joinedAgainItself(1_000)).isTrue();
        assertThat(m.joinedAgainItself(2_000)).isFalse();
        assertThat(m.coordinator()).isEqualTo(1);
    }

    @Test
    void afterItsOwnPauseAMemberCountsTheOthersLostButTheirReturnIsNoJoin() {
        Membership m = new Membership(1, 3);
        m.lose(2, "killed before the pause");
        assertThat(m.droppedAfterPause("paused", 5_000, member -> true)).containsExactly(0);
        assertThat(m.coordinator()).isEqualTo(1);
        assertThat(m.back(0, 6_000)).isEqualTo(Membership.Admission.JOINED);
        assertThat(m.coordinator()).as("member 0 stayed; this one rejoined").isZero();
        assertThat(m.back(2, 6_000)).isEqualTo(Membership.Admission.JOINED_AGAIN);
    }
}
