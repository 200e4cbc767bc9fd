package io.fournines.engine.execution;

import io.fournines.engine.core.Counter;
import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.network.FlowControl;
import io.fournines.engine.network.JobNetwork;
import io.fournines.engine.network.PacketWriter;
import io.fournines.engine.network.SendEndpoint;

import java.lang.invoke.VarHandle;
import java.util.function.ToIntFunction;

/**
 * Sends one distributed edge's items to one other member, like Jet's SenderTasklet: drains the
 * queues this member's producers fill for that member, coalesces their watermarks, and writes
 * items, watermarks and finally the done marker into packets of about {@link
 * FlowControl#PACKET_SIZE_LIMIT} bytes. A snapshot barrier goes once every producer queue delivered
 * it, after the items drained before it; with exactly-once a queue is not read past its barrier
 * until all queues have it (aligned like a processor's inputs), at-least-once never stops a queue.
 * A batch marker (micro-batch and group execution) goes the same way, once every producer queue
 * delivered it, no queue stopped for it: in micro-batch nothing of the next batch is sent before
 * the batch is done everywhere, and in group a stage's input is processed as it comes.
 * The tasklet itself saves no state. Data goes only while the receiver's credit lasts; out of
 * credit it stops draining, so the queues fill and backpressure reaches the producers.
 */
final class SenderTasklet extends NetworkTasklet implements SendEndpoint {

    private final InboundStream input;
    private final InboxImpl inbox = new InboxImpl();
    private final JobNetwork network;
    private final int edgeId;
    private final int toMember;
    /** The receiving member's consumer instance for an item, or {@link NetworkEntry#ALL_CONSUMERS}. */
    private final ToIntFunction<Object> target;
    private final PacketWriter writer;
    private final WorkerParker ownWorker;
    private final WorkerParker[] producerWorkers;
    private final Counter sentItems;
    private final Counter sentBytes;
    private final Counter creditStalls;
    private final boolean alignBarriers;

    private volatile long sendLimit;
    private long sentEntries;
    private byte[] unsentPacket;
    private int unsentEntries;
    private boolean doneWritten;
    private boolean stalled;
    /** The newest snapshot whose barrier this sender forwarded. */
    private long forwardedBarrier;
    /** The newest batch whose marker this sender forwarded; -1 before the first. */
    private long forwardedBatch = -1;

    SenderTasklet(String name, InboundStream input, JobNetwork network, int edgeId, int toMember, ToIntFunction<Object> target,
                  JobExecution execution, WorkerParker ownWorker, WorkerParker[] producerWorkers) {
        super(name, execution);
        this.input = input;
        this.network = network;
        this.edgeId = edgeId;
        this.toMember = toMember;
        this.target = target;
        this.writer = network.codec().newWriter();
        this.ownWorker = ownWorker;
        this.producerWorkers = producerWorkers;
        this.sentItems = execution.metrics().register(name, "sentItems");
        this.sentBytes = execution.metrics().register(name, "sentBytes");
        this.creditStalls = execution.metrics().register(name, "creditStalls");
        this.alignBarriers = execution.snapshots().guarantee() == ProcessingGuarantee.EXACTLY_ONCE;
        this.forwardedBarrier = execution.snapshots().committed();
    }

    @Override
    public void onCredit(long limit) {
        if (limit > sendLimit) {
            sendLimit = limit;
            ownWorker.wakeIfArmed();
        }
    }

    @Override
    public ProgressState call() {
        if (execution.isTerminating()) {
            return ProgressState.DONE;
        }
        if (unsentPacket != null) {
            if (!network.sendData(toMember, edgeId, unsentEntries, unsentPacket)) {
                return ProgressState.NO_PROGRESS;
            }
            unsentPacket = null;
            return ProgressState.of(true, doneWritten);
        }
        writer.reset();
        int entries = 0;
        int items = 0;
        boolean drained = false;
        long limit = sendLimit;
        while (writer.size() < FlowControl.PACKET_SIZE_LIMIT && !doneWritten) {
            if (!inbox.isEmpty()) {
                if (sentEntries >= limit) {
                    // Counted once per stall, not per call spent waiting in it.
                    if (!stalled) {
                        stalled = true;
                        creditStalls.increment();
                    }
                    break;
                }
                stalled = false;
                Object item = inbox.poll();
                writer.writeInt(target.applyAsInt(item));
                writer.writeObject(item);
                sentEntries++;
                entries++;
                items++;
                continue;
            }
            // Watermarks, barriers and the done marker follow the items drained before them. They are few (one
            // per drain at most), so they go even without credit and are counted against it.
            for (long wm; (wm = input.nextWatermark()) != WatermarkCoalescer.NONE; ) {
                writer.writeInt(NetworkEntry.WATERMARK);
                writer.writeLong(wm);
                sentEntries++;
                entries++;
            }
            // Done queues count as having every barrier: once all are done, only the done marker is left.
            while (!input.isDone() && input.reachedBarrier(forwardedBarrier + 1)) {
                forwardedBarrier++;
                writer.writeInt(NetworkEntry.BARRIER);
                writer.writeLong(forwardedBarrier);
                sentEntries++;
                entries++;
            }
            while (!input.isDone() && input.reachedBatch(forwardedBatch + 1)) {
                forwardedBatch++;
                writer.writeInt(NetworkEntry.BATCH);
                writer.writeLong(forwardedBatch);
                sentEntries++;
                entries++;
            }
            if (input.isDone()) {
                writer.writeInt(NetworkEntry.DONE);
                sentEntries++;
                entries++;
                doneWritten = true;
                break;
            }
            if (sentEntries >= limit || !input.drainTo(inbox, alignBarriers ? forwardedBarrier + 1 : Long.MAX_VALUE, Long.MAX_VALUE)) {
                break;
            }
            drained = true;
        }
        if (drained && producerWorkers.length > 0) {
            VarHandle.fullFence();
            for (WorkerParker p : producerWorkers) {
                p.wakeIfArmed();
            }
        }
        if (entries == 0) {
            return ProgressState.of(drained, false);
        }
        byte[] packet = writer.toBytes();
        sentItems.add(items);
        sentBytes.add(packet.length);
        if (!network.sendData(toMember, edgeId, entries, packet)) {
            unsentPacket = packet;
            unsentEntries = entries;
            return ProgressState.MADE_PROGRESS;
        }
        return ProgressState.of(true, doneWritten);
    }

    @Override
    public long nextDeadlineNanos() {
        return Long.MAX_VALUE;
    }
}
