package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.BitSet;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The view agreement's invariants over many seeded schedules of a simulated network
 * ({@link SimulatedViewCluster}): lost, delayed, reordered and duplicated messages, one-way and
 * two-way partitions, crashes and restarts. Whatever happens, a term has at most one view, every
 * view is a majority holding its coordinator, and a member's views only move forward in term; once
 * the network heals, every member installs the same view of all members; a side without a majority
 * has no view. A failing seed replays exactly: its trace is in the message.
 */
class ViewAgreementSimulationTest {

    private static final int SCHEDULES = 2_000;

    @Test
    void randomFaultSchedulesKeepTheInvariantsAndEndInOneViewOfEveryone() {
        for (long seed = 1; seed <= SCHEDULES; seed++) {
            int size = 3 + (int) (seed % 3);
            SimulatedViewCluster cluster = new SimulatedViewCluster(size, seed);
            for (int phase = 0; phase < 15; phase++) {
                disturb(cluster);
                cluster.run(500 + cluster.random.nextInt(3_000));
                assertThat(cluster.violations()).as("seed %d, %d members:\n%s", seed, size, cluster.trace()).isEmpty();
            }
            cluster.heal();
            cluster.conditions(0, 0, 20);
            for (int m = 0; m < size; m++) {
                if (!cluster.isUp(m)) {
                    cluster.restart(m);
                }
            }
            cluster.run(15_000);
            assertThat(cluster.violations()).as("seed %d:\n%s", seed, cluster.trace()).isEmpty();
            assertOneViewOfAll(cluster, "seed " + seed);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 5})
    void aSideWithoutAMajorityPausesAndTheMajorityCarriesOnAlone(int size) {
        for (long seed = 1; seed <= 20; seed++) {
            SimulatedViewCluster cluster = new SimulatedViewCluster(size, seed);
            cluster.run(5_000);
            assertOneViewOfAll(cluster, "seed " + seed + " before the partition");
            BitSet minority = new BitSet();
            minority.set(0, (size - 1) / 2);  // the lowest indices, the first coordinator among them
            cluster.partition(minority);
            cluster.run(5_000);
            long majorityTerm = -1;
            for (int m = 0; m < size; m++) {
                View view = cluster.viewOf(m);
                if (minority.get(m)) {
                    assertThat(view).as("seed %d: member %d, in the minority %s:\n%s", seed, m, minority, cluster.trace()).isNull();
                } else {
                    BitSet majority = new BitSet();
                    majority.set(0, size);
                    majority.andNot(minority);
                    assertThat(view).as("seed %d: member %d:\n%s", seed, m, cluster.trace()).isNotNull();
                    assertThat(view.members()).isEqualTo(majority);
                    assertThat(majorityTerm == -1 || view.term() == majorityTerm).isTrue();
                    majorityTerm = view.term();
                }
            }
            cluster.heal();
            cluster.run(5_000);
            assertOneViewOfAll(cluster, "seed " + seed + " after the partition healed");
            assertThat(cluster.violations()).isEmpty();
        }
    }

    @Test
    void twoMembersCutOffFromEachOtherBothPauseRatherThanEachCarryingOnAlone() {
        SimulatedViewCluster cluster = new SimulatedViewCluster(2, 7);
        cluster.run(3_000);
        assertOneViewOfAll(cluster, "before");
        BitSet first = new BitSet();
        first.set(0);
        cluster.partition(first);
        cluster.run(3_000);
        assertThat(cluster.viewOf(0)).isNull();
        assertThat(cluster.viewOf(1)).isNull();
        cluster.heal();
        cluster.run(3_000);
        assertOneViewOfAll(cluster, "after");
    }

    @Test
    void aConnectionLostAndRegainedBetweenTwoLiveMembersLeavesOneCoordinatorEverywhere() {
        for (long seed = 1; seed <= 50; seed++) {
            SimulatedViewCluster cluster = new SimulatedViewCluster(3, seed);
            cluster.run(3_000);
            int coordinator = cluster.viewOf(0).coordinator();
            int other = coordinator == 0 ? 1 : 0;
            BitSet a = new BitSet();
            a.set(coordinator);
            BitSet b = new BitSet();
            b.set(other);
            cluster.cut(a, b, true);
            cluster.cut(b, a, true);
            cluster.run(200 + cluster.random.nextInt(1_500));
            cluster.heal();
            cluster.run(5_000);
            assertThat(cluster.violations()).as("seed %d:\n%s", seed, cluster.trace()).isEmpty();
            assertOneViewOfAll(cluster, "seed " + seed);
        }
    }

    private static void assertOneViewOfAll(SimulatedViewCluster cluster, String when) {
        View first = cluster.viewOf(0);
        BitSet all = new BitSet();
        all.set(0, cluster.size);
        assertThat(first).as("%s: member 0 has no view:\n%s", when, cluster.trace()).isNotNull();
        assertThat(first.members()).as("%s:\n%s", when, cluster.trace()).isEqualTo(all);
        assertThat(IntStream.range(0, cluster.size).mapToObj(cluster::viewOf)).as("%s:\n%s", when, cluster.trace())
                .allSatisfy(view -> assertThat(view).isEqualTo(first));
    }

    /** One random disturbance: network conditions, a partition, a cut link, a crash or a restart. */
    private static void disturb(SimulatedViewCluster cluster) {
        java.util.Random r = cluster.random;
        switch (r.nextInt(6)) {
            case 0 -> cluster.heal();
            case 1 -> {
                BitSet side = new BitSet();
                for (int m = 0; m < cluster.size; m++) {
                    side.set(m, r.nextBoolean());
                }
                cluster.partition(side);
            }
            case 2 -> {
                BitSet from = new BitSet();
                BitSet to = new BitSet();
                from.set(r.nextInt(cluster.size));
                to.set(r.nextInt(cluster.size));
                cluster.cut(from, to, true);
            }
            case 3 -> cluster.conditions(r.nextDouble() * 0.3, r.nextDouble() * 0.1, 1 + r.nextInt(300));
            case 4 -> {
                int m = r.nextInt(cluster.size);
                if (cluster.isUp(m)) {
                    cluster.crash(m);
                }
            }
            default -> {
                int m = r.nextInt(cluster.size);
                if (!cluster.isUp(m)) {
                    cluster.restart(m);
                }
            }
        }
    }
}
