package io.fournines.engine.execution;

import io.fournines.engine.core.BatchMarker;
import io.fournines.engine.core.Counter;
import io.fournines.engine.core.DoneItem;
import io.fournines.engine.core.SnapshotBarrier;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.network.FlowControl;
import io.fournines.engine.network.JobNetwork;
import io.fournines.engine.network.PacketReader;
import io.fournines.engine.network.ReceiveEndpoint;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Receives one distributed edge's items from one other member, like Jet's ReceiverTasklet: the I/O
 * thread queues packets, this tasklet decodes them and offers each entry to its consumer's queue
 * (the consumer keeps one queue per sending member, so watermarks from every member are coalesced
 * there). Every {@link FlowControl#PERIOD_NANOS} it grants the sender credit; see {@link FlowControl}.
 */
final class ReceiverTasklet extends NetworkTasklet implements ReceiveEndpoint {

    /** Entries handled per call at most, so one busy stream does not hog its worker. */
    private static final int ENTRIES_PER_CALL = 2_048;

    private final JobNetwork network;
    private final int edgeId;
    private final int fromMember;
    /** By consumer instance; null where this edge does not reach the instance. */
    private final OneToOneConcurrentArrayQueue<Object>[] consumers;
    private final boolean[] tookPending;
    /** Bounded by the credit granted: a sender that overruns it fails the job. */
    private final ConcurrentLinkedQueue<byte[]> packets = new ConcurrentLinkedQueue<>();
    private final PacketReader reader;
    private final WorkerParker ownWorker;
    private final WorkerParker[] consumerWorkers;
    private final Counter receivedEntries;
    private final Counter deliveredEntries;
    private final Counter receivedBytes;
    /** The most entries ever received but not yet delivered: the flow-control bound, observed. */
    private final Counter peakBufferedEntries;

    private volatile long grantedLimit;
    /** Written by the I/O thread only. */
    private long received;
    private long delivered;
    private long deliveredAtLastGrant;
    private long window = FlowControl.MIN_WINDOW;
    private long nextGrantNanos = Long.MIN_VALUE;
    private boolean inPacket;
    private Object pendingEntry;
    private int pendingTarget;
    private boolean done;

    ReceiverTasklet(String name, JobNetwork network, int edgeId, int fromMember, OneToOneConcurrentArrayQueue<Object>[] consumers,
                    JobExecution execution, WorkerParker ownWorker, WorkerParker[] consumerWorkers) {
        super(name, execution);
        this.network = network;
        this.edgeId = edgeId;
        this.fromMember = fromMember;
        this.consumers = consumers;
        this.tookPending = new boolean[consumers.length];
        this.reader = network.codec().newReader();
        this.ownWorker = ownWorker;
        this.consumerWorkers = consumerWorkers;
        this.receivedEntries = execution.metrics().register(name, "receivedEntries");
        this.deliveredEntries = execution.metrics().register(name, "deliveredEntries");
        this.receivedBytes = execution.metrics().register(name, "receivedBytes");
        this.peakBufferedEntries = execution.metrics().register(name, "peakBufferedEntries");
    }

    @Override
    public void onPacket(int entries, byte[] packet) {
        received += entries;
        receivedEntries.add(entries);
        receivedBytes.add(packet.length);
        // Control entries may go a little beyond credit; far beyond it is a broken sender, not load.
        if (received > grantedLimit + FlowControl.MAX_WINDOW) {
            execution.fail(new IllegalStateException(name + ": member " + fromMember + " sent " + received
                    + " entries, far beyond the credit granted (" + grantedLimit + ")"));
            return;
        }
        packets.add(packet);
        long buffered = receivedEntries.get() - deliveredEntries.get();
        if (buffered > peakBufferedEntries.get()) {
            peakBufferedEntries.add(buffered - peakBufferedEntries.get());
        }
        ownWorker.wakeIfArmed();
    }

    @Override
    public ProgressState call() {
        if (execution.isTerminating()) {
            return ProgressState.DONE;
        }
        long now = System.nanoTime();
        if (now >= nextGrantNanos) {
            grant(now);
        }
        int handled = 0;
        while (handled < ENTRIES_PER_CALL && !done) {
            if (pendingEntry == null && !readEntry()) {
                break;
            }
            if (!deliver()) {
                break;
            }
            handled++;
        }
        if (handled > 0) {
            delivered += handled;
            deliveredEntries.add(handled);
            VarHandle.fullFence();
            for (WorkerParker p : consumerWorkers) {
                p.wakeIfArmed();
            }
        }
        return ProgressState.of(handled > 0, done);
    }

    private void grant(long now) {
        long buffered = receivedEntries.get() - delivered;
        window = FlowControl.nextWindow(window, delivered - deliveredAtLastGrant, buffered > 0 || pendingEntry != null);
        deliveredAtLastGrant = delivered;
        grantedLimit = delivered + window;
        network.sendCredit(fromMember, edgeId, grantedLimit);
        nextGrantNanos = now + FlowControl.PERIOD_NANOS;
    }

    /** Decodes the next entry into {@link #pendingEntry}; false when no packet is waiting. */
    private boolean readEntry() {
        while (!inPacket || !reader.hasMore()) {
            byte[] packet = packets.poll();
            if (packet == null) {
                inPacket = false;
                return false;
            }
            reader.reset(packet);
            inPacket = true;
        }
        int target = reader.readInt();
        pendingTarget = target;
        pendingEntry = switch (target) {
            case NetworkEntry.WATERMARK -> new Watermark(reader.readLong());
            case NetworkEntry.DONE -> DoneItem.DONE;
            case NetworkEntry.BARRIER -> new SnapshotBarrier(reader.readLong());
            case NetworkEntry.BATCH -> new BatchMarker(reader.readLong());
            default -> reader.readObject();
        };
        Arrays.fill(tookPending, false);
        return true;
    }

    /** Offers the pending entry to its consumer, or to all; false while one refuses it. */
    private boolean deliver() {
        boolean all = true;
        if (pendingTarget >= 0) {
            all = consumers[pendingTarget].offer(pendingEntry);
        } else {
            for (int c = 0; c < consumers.length; c++) {
                if (consumers[c] != null && !tookPending[c]) {
                    tookPending[c] = consumers[c].offer(pendingEntry);
                    all &= tookPending[c];
                }
            }
        }
        if (all) {
            done = pendingEntry == DoneItem.DONE;
            pendingEntry = null;
        }
        return all;
    }

    @Override
    public long nextDeadlineNanos() {
        return nextGrantNanos;
    }
}
