package io.fournines.engine.cluster;

import io.fournines.engine.snapshot.SnapshotStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
}
