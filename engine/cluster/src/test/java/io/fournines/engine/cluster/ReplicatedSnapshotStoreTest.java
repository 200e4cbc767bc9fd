package io.fournines.engine.cluster;

import io.fournines.engine.snapshot.SnapshotStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Three members on loopback, real connections: snapshot chunks reach the backups and outlive their writer. */
class ReplicatedSnapshotStoreTest {

    private static final long JOB = 7;
    private final LoopbackClusters clusters = new LoopbackClusters();

    @AfterEach
    void closeAll() {
        clusters.close();
    }

    private List<Cluster> join(int n) throws Exception {
        return clusters.join(n, i -> LoopbackClusters.DEAF);
    }

    private static byte[] chunk(int seed, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    @Test
    void aCommittedSnapshotSurvivesLosingTheMemberThatWroteIt() throws Exception {
        List<Cluster> members = join(3);
        List<ReplicatedSnapshotStore> stores = members.stream().map(c -> c.snapshotStore(JOB, 1)).toList();
        ReplicatedSnapshotStore writer = stores.get(2);
        for (ReplicatedSnapshotStore s : stores) {
            s.begin(1);
        }
        // Big enough for several TCP writes each: the copy must be whole, not just begun.
        byte[] first = chunk(1, 300_000);
        byte[] second = chunk(2, 1_000);
        writer.write(1, "window", 5, first);
        writer.write(1, "window", 5, second);
        writer.write(1, "source", SnapshotStore.BROADCAST_PARTITION, chunk(3, 10));
        CountDownLatch replicated = new CountDownLatch(1);
        writer.whenReplicated(1, replicated::countDown);
        assertThat(replicated.await(10, TimeUnit.SECONDS)).as("the backup acknowledged every chunk").isTrue();
        stores.forEach(s -> s.commit(1));

        members.get(2).close();
        await().atMost(5, TimeUnit.SECONDS).until(() -> members.get(0).lostCause(2) != null);

        // Member 2's backup is the next member after it, wrapping around: member 0.
        SnapshotStore copy = stores.get(0).copyOf(2);
        assertThat(copy.latestCommitted()).isEqualTo(1);
        assertThat(copy.read(1, "window", 5)).containsExactly(first, second);
        assertThat(copy.read(1, "source", SnapshotStore.BROADCAST_PARTITION)).containsExactly(chunk(3, 10));
        // One backup: member 1 keeps no copy of member 2's state.
        assertThat(stores.get(1).copyOf(2).latestCommitted()).isEqualTo(SnapshotStore.NONE);
    }

    /**
     * The coordinator (member 0) died between its commit messages for snapshot 2, which members 1
     * and 2 wrote: member 1 committed it, member 2 only saved it, and member 2's backup was member 0. A restart from snapshot 2 (the
     * latest any survivor committed) still gets member 2's state: from member 2, which commits the
     * copy it saved when asked for it.
     */
    @Test
    void aSnapshotWhoseCommitDidNotReachTheHolderIsServedFromItsSavedCopy() throws Exception {
        List<Cluster> members = join(3);
        List<ReplicatedSnapshotStore> stores = members.stream().map(c -> c.snapshotStore(JOB, 1)).toList();
        for (ReplicatedSnapshotStore s : stores) {
            s.begin(2);
        }
        stores.get(2).write(2, "window", 5, chunk(5, 1_000));
        CountDownLatch replicated = new CountDownLatch(1);
        stores.get(2).whenReplicated(2, replicated::countDown);
        assertThat(replicated.await(10, TimeUnit.SECONDS)).isTrue();
        stores.get(0).commit(2);
        stores.get(1).commit(2);

        members.get(0).close();
        await().atMost(5, TimeUnit.SECONDS).until(() -> members.get(1).lostCause(0) != null && members.get(2).lostCause(0) != null);
        int[] survivors = {1, 2};
        stores.get(1).startAttempt(1, survivors);
        stores.get(2).startAttempt(1, survivors);

        assertThat(stores.get(1).gather(2, survivors, survivors, new int[] {5}).get(10, TimeUnit.SECONDS))
                .as("bytes gathered: member 1's own (none), member 2's").isEqualTo(1_000);
        assertThat(stores.get(1).read(2, "window", 5)).containsExactly(chunk(5, 1_000));
        assertThat(stores.get(2).latestCommitted()).isEqualTo(2);
    }

    /**
     * The chaos checker's case: a member cut off while members 1 and 2 went on alone, then taken back
     * in. Snapshot 7, written by members 1 and 2 as positions 0 and 1 of two (two instances each, so
     * partition p belongs to position (p mod 4) / 2), is restored onto members 0, 1 and 2 (p belongs
     * to position (p mod 6) / 2): each must gather every chunk of the partitions it will own, from
     * both writers, and the broadcast ones.
     */
    @Test
    void aRestoreOntoMoreMembersThanWroteTheSnapshotGivesEachItsPartitionsFromEveryWriter() throws Exception {
        List<Cluster> members = join(3);
        List<ReplicatedSnapshotStore> stores = members.stream().map(c -> c.snapshotStore(JOB, 1)).toList();
        int[] writers = {1, 2};
        int partitions = 271;
        for (int m : writers) {
            stores.get(m).startAttempt(1, writers);
            stores.get(m).begin(7);
        }
        for (int p = 0; p < partitions; p++) {
            stores.get(writers[(p % 4) / 2]).write(7, "window", p, chunk(p, 100));
        }
        for (int m : writers) {
            stores.get(m).write(7, "source", SnapshotStore.BROADCAST_PARTITION, chunk(1_000 + m, 10));
            CountDownLatch replicated = new CountDownLatch(1);
            stores.get(m).whenReplicated(7, replicated::countDown);
            assertThat(replicated.await(10, TimeUnit.SECONDS)).isTrue();
            stores.get(m).commit(7);
        }

        int[] all = {0, 1, 2};
        stores.forEach(s -> s.startAttempt(2, all));
        for (int position = 0; position < all.length; position++) {
            int owner = position;
            int[] owned = IntStream.range(0, partitions).filter(p -> (p % 6) / 2 == owner).toArray();
            long bytes = stores.get(position).gather(7, writers, all, owned).get(10, TimeUnit.SECONDS);
            assertThat(bytes).as("bytes member %d gathered", position).isEqualTo(owned.length * 100L + 2 * 10);
            for (int p : owned) {
                assertThat(stores.get(position).read(7, "window", p)).as("member %d, partition %d", position, p).containsExactly(chunk(p, 100));
            }
            assertThat(stores.get(position).read(7, "source", SnapshotStore.BROADCAST_PARTITION))
                    .containsExactlyInAnyOrder(chunk(1_001, 10), chunk(1_002, 10));
        }
    }

    @Test
    void withNoLiveBackupASnapshotCountsAsReplicatedAtOnce() throws Exception {
        List<Cluster> members = join(2);
        ReplicatedSnapshotStore writer = members.get(0).snapshotStore(JOB, 1);
        members.get(1).close();
        await().atMost(5, TimeUnit.SECONDS).until(() -> members.get(0).lostCause(1) != null);
        // Its only possible backup is gone before the snapshot begins: no copy, so nothing waits for one.
        writer.begin(1);
        writer.write(1, "window", 0, chunk(4, 100));
        CountDownLatch replicated = new CountDownLatch(1);
        writer.whenReplicated(1, replicated::countDown);
        assertThat(replicated.getCount()).isZero();
    }

    /**
     * Chunks queue on the same connection as the job's data: a writer that can wait is told to while
     * the connection to its backup holds more than the high water mark, and again once it drained.
     */
    @Test
    void aStoreRefusesWritesThatCanWaitWhileItsBackupsConnectionIsFull() throws Exception {
        List<Cluster> members = join(2);
        List<ReplicatedSnapshotStore> stores = members.stream().map(c -> c.snapshotStore(JOB, 1)).toList();
        stores.forEach(s -> s.begin(1));
        ReplicatedSnapshotStore writer = stores.get(0);
        assertThat(writer.acceptsWrites()).isTrue();

        // 64 MB at once: far past the 4 MB high water mark, and tens of ms of loopback to drain.
        for (int i = 0; i < 64; i++) {
            writer.write(1, "window", i, chunk(i, 1 << 20));
        }
        assertThat(writer.acceptsWrites()).isFalse();

        CountDownLatch replicated = new CountDownLatch(1);
        writer.whenReplicated(1, replicated::countDown);
        assertThat(replicated.await(30, TimeUnit.SECONDS)).as("the backup acknowledged every chunk").isTrue();
        assertThat(writer.acceptsWrites()).isTrue();
    }
}
