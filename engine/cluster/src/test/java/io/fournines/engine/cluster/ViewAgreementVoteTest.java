package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whom a member without a view votes for. Seen in a fresh-clone run of the runner's fault test
 * (member 0 stopped past the failure timeout, then continued): member 1 coordinated members 1 and
 * 2 and stood again to take member 0 back in; member 2, between hearing of member 1's newer view
 * and receiving it, had no view, and granted member 0, which did not reach member 1 yet, a later
 * term: the returning member unseated the coordinator and member 1 was left out.
 */
class ViewAgreementVoteTest {

    private static final long VOTE_TIMEOUT_MS = 1_000;

    private final List<String> votes = new ArrayList<>();
    private final ViewAgreement member2 = new ViewAgreement(2, 3, VOTE_TIMEOUT_MS, new Random(1), new ViewAgreement.Effects() {
        @Override
        public void persist(long term, int votedFor) {
        }

        @Override
        public void send(int member, ViewMessage message) {
            if (message instanceof ViewMessage.Vote vote) {
                votes.add("to " + member + ": " + vote.granted());
            }
        }

        @Override
        public void viewChanged(View view, String why) {
        }
    });

    /** Member 2 hears members 0 and 1, has no view, and member 1's heartbeat names its view of term 3. */
    private void hearsOfMember1sViewOfTerm3At(long nowMillis) {
        member2.tick(nowMillis);
        member2.reachable(0, true);
        member2.reachable(1, true);
        member2.receive(1, new ViewMessage.Heartbeat(3, 1));
    }

    @Test
    void aMemberWaitingToBeLetInByACoordinatorItHearsVotesForNoOtherCandidate() {
        hearsOfMember1sViewOfTerm3At(10_000);
        member2.receive(0, new ViewMessage.VoteRequest(4));
        assertThat(votes).containsExactly("to 0: false");
    }

    @Test
    void onceThatCoordinatorIsNoLongerNamedItVotesAgain() {
        hearsOfMember1sViewOfTerm3At(10_000);
        member2.tick(10_000 + VOTE_TIMEOUT_MS + 1);
        member2.receive(0, new ViewMessage.VoteRequest(4));
        assertThat(votes).containsExactly("to 0: true");
    }

    @Test
    void theCoordinatorItHearsOfGetsItsVote() {
        hearsOfMember1sViewOfTerm3At(10_000);
        member2.receive(1, new ViewMessage.VoteRequest(4));
        assertThat(votes).containsExactly("to 1: true");
    }
}
