package io.fournines.engine.execution;

import io.fournines.engine.core.BatchMarker;
import io.fournines.engine.core.Counter;
import io.fournines.engine.core.DoneItem;
import io.fournines.engine.core.Processor;
import io.fournines.engine.core.SnapshotBarrier;
import io.fournines.engine.core.Watermark;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Runs one processor instance: fills its inbox from its input queues, calls it, coalesces
 * watermarks across its inputs, completes it when its inputs are done, and finally sends the done
 * item downstream. In a job with snapshots it first restores the processor's state, and saves it
 * whenever a snapshot's barrier has arrived on every input (a source: when the snapshot starts),
 * then passes the barrier on. In micro-batch and group execution it passes each batch's marker on
 * once the marker has arrived on every input and what came before is processed, and tells the
 * scheduler (a source: once its processor has sent the marker). Each call does a bounded amount of
 * work and never blocks.
 */
final class ProcessorTasklet implements Tasklet {

    private enum State {
        RESTORE, FINISH_RESTORE, PROCESS_INPUT, PROCESS_WATERMARK, PROCESS_IDLE, EMIT_IDLE, COMPLETE_EDGE, COMPLETE,
        SAVE_SNAPSHOT, PREPARE_COMMIT, EMIT_BARRIER, EMIT_MARKER, SAVE_FINAL_STATE, WRITE_FINAL_STATE, PREPARE_FINAL_COMMIT, EMIT_DONE, AWAIT_FINAL_COMMIT, END
    }

    /** Snapshot entries handed to the processor per restore call. */
    private static final int RESTORE_BATCH = 1024;

    private final Processor processor;
    private final Processor.Context context;
    private final OutboxImpl outbox;
    private final InboxImpl inbox = new InboxImpl();
    /** Sorted by priority, so the streams to drain first come first. */
    private final InboundStream[] streams;
    private final boolean[] streamCompletionReported;
    private final WatermarkCoalescer inputCoalescer;
    private final JobExecution execution;
    /** Workers that may be parked waiting for what this tasklet writes (data) or frees (queue space). */
    private final WorkerParker[] downstreamWorkers;
    private final WorkerParker[] upstreamWorkers;
    private final TaskletSnapshots snapshots;
    private final TaskletBatches batches;

    private final Counter itemsIn;
    private final Counter itemsOut;
    /** The last watermark this instance handled (a gauge, one name per instance): its event-time progress. */
    private final Counter watermark;
    /** Written by the sampler alone ({@link #sampled}): see {@link VertexSamples}. */
    private final VertexSamples samples;
    /** Whether the last call ended with output refused by a full queue; the worker writes it, the sampler reads it racily. */
    private boolean backpressured;
    /** How many items the input queues hold when full: fixed with the queues. */
    private final int inputCapacity;
    private State state;
    /** A snapshot's state written after its barrier takes at most this share (1/n) of the worker's time while it lasts. */
    private static final int WRITE_SHARE = 4;
    /** When the next piece of that write may start. */
    private long nextPieceNanos;
    /** Where to go back to once a snapshot is saved and its barrier sent. */
    private State stateBeforeSnapshot;
    private SnapshotBarrier savingSnapshot;
    /** The batch marker being passed on; one instance for all retries, like the barrier. */
    private BatchMarker sendingMarker;
    private int inboxOrdinal;
    private int nextStream;
    private int liveStreams;
    private int completedOrdinal = -1;
    /** The processor's last transaction is prepared: no earlier snapshot's commit may finish it. */
    private boolean finalTransactionPrepared;
    /** The first snapshot that holds this tasklet's final state: its last transaction commits with it. */
    private long finalStateSnapshot;
    private long pendingWatermark = WatermarkCoalescer.NONE;
    /**
     * The watermark being offered, one object per value: the outbox recognises a retried broadcast
     * by identity, so a new object on retry would send it again to the queues that already took it.
     */
    private Watermark offeredWatermark;
    private boolean progress;
    private boolean drainedInput;

    ProcessorTasklet(Processor processor, Processor.Context context, OutboxImpl outbox, InboundStream[] streams,
                     JobExecution execution, WorkerParker[] downstreamWorkers, WorkerParker[] upstreamWorkers,
                     TaskletSnapshots snapshots, TaskletBatches batches) {
        this.processor = processor;
        this.context = context;
        this.outbox = outbox;
        this.streams = streams.clone();
        Arrays.sort(this.streams, Comparator.comparingInt(InboundStream::priority).thenComparingInt(InboundStream::ordinal));
        this.streamCompletionReported = new boolean[streams.length];
        this.inputCoalescer = new WatermarkCoalescer(streams.length);
        this.execution = execution;
        this.downstreamWorkers = downstreamWorkers;
        this.upstreamWorkers = upstreamWorkers;
        this.snapshots = snapshots;
        this.batches = batches;
        this.liveStreams = streams.length;
        this.state = snapshots.restoring() ? State.RESTORE : runningState();
        this.itemsIn = context.counter(JobMetrics.ITEMS_IN);
        this.itemsOut = context.counter(JobMetrics.ITEMS_OUT);
        this.watermark = context.counter("watermark#" + context.processorIndex());
        this.samples = new VertexSamples(context::counter);
        this.inputCapacity = Arrays.stream(streams).mapToInt(InboundStream::capacity).sum();
    }

    void init() throws Exception {
        processor.init(outbox, context);
    }

    @Override
    public ProgressState call() {
        if (execution.isTerminating()) {
            return ProgressState.DONE;
        }
        progress = false;
        drainedInput = false;
        if (!finalTransactionPrepared && snapshots.commitToFinish()) {
            // Before anything else, so a processor hears of a commit before it saves the next snapshot.
            if (!processor.snapshotCommitFinish(true)) {
                return ProgressState.NO_PROGRESS;
            }
            snapshots.commitFinished();
            progress = true;
        }
        if (snapshots.writing() && state != State.EMIT_BARRIER && System.nanoTime() - nextPieceNanos >= 0
                && snapshots.storeAcceptsWrites()) {
            continueSave();
        }
        if (batches.enabled()) {
            batches.notice();
        }
        step();
        if (streams.length == 0 && batches.enabled()) {
            batches.finished(outbox.lastBatchMarker());
        }
        int emitted = outbox.dataItemsThisCall();
        if (emitted > 0) {
            itemsOut.add(emitted);
        }
        backpressured = outbox.refusedThisCall();
        boolean wroteOutput = outbox.resetForNextCall();
        progress |= wroteOutput;
        if (wroteOutput || drainedInput) {
            wakeNeighbours(wroteOutput, drainedInput);
        }
        return ProgressState.of(progress, state == State.END);
    }

    private void step() {
        switch (state) {
            case RESTORE -> restore();
            case FINISH_RESTORE -> finishRestore();
            case PROCESS_INPUT -> processInput();
            case PROCESS_WATERMARK -> processWatermark();
            case PROCESS_IDLE -> processIdle();
            case EMIT_IDLE -> emitIdle();
            case COMPLETE_EDGE -> completeEdge();
            case COMPLETE -> complete();
            case SAVE_SNAPSHOT -> saveSnapshot();
            case PREPARE_COMMIT -> prepareCommit();
            case EMIT_BARRIER -> emitBarrier();
            case EMIT_MARKER -> emitMarker();
            case SAVE_FINAL_STATE -> saveFinalState();
            case WRITE_FINAL_STATE -> writeFinalState();
            case PREPARE_FINAL_COMMIT -> prepareFinalCommit();
            case EMIT_DONE -> emitDone();
            case AWAIT_FINAL_COMMIT -> awaitFinalCommit();
            case END -> throw new IllegalStateException("tasklet of '" + context.vertexName() + "' called after it ended");
        }
    }

    private State runningState() {
        return liveStreams == 0 ? State.COMPLETE : State.PROCESS_INPUT;
    }

    private void restore() {
        if (inbox.isEmpty() && !snapshots.fillRestoreInbox(inbox, RESTORE_BATCH)) {
            state = State.FINISH_RESTORE;
            finishRestore();
            return;
        }
        int before = inbox.size();
        processor.restoreFromSnapshot(inbox);
        progress |= inbox.size() < before;
    }

    private void finishRestore() {
        if (processor.finishSnapshotRestore()) {
            progress = true;
            state = runningState();
        }
    }

    private void processInput() {
        if (inbox.isEmpty() && pendingWatermark == WatermarkCoalescer.NONE && completedOrdinal < 0 && (startSnapshotIfDue() || finishBatchIfDue())) {
            return;
        }
        if (inbox.isEmpty()) {
            fillInbox();
        }
        if (!inbox.isEmpty()) {
            int before = inbox.size();
            processor.process(inboxOrdinal, inbox);
            int taken = before - inbox.size();
            if (taken > 0) {
                progress = true;
                itemsIn.add(taken);
            }
            return;
        }
        if (pendingWatermark == WatermarkCoalescer.IDLE) {
            state = State.PROCESS_IDLE;
            processIdle();
        } else if (pendingWatermark != WatermarkCoalescer.NONE) {
            state = State.PROCESS_WATERMARK;
            processWatermark();
        } else if (completedOrdinal >= 0) {
            state = State.COMPLETE_EDGE;
            completeEdge();
        } else if (liveStreams == 0) {
            state = State.COMPLETE;
            complete();
        } else {
            processor.tryProcess();
        }
    }

    /**
     * Drains the first stream, in priority order and round-robin within a priority, that yields
     * something. Streams of a later priority are not read until all earlier ones are done.
     */
    private void fillInbox() {
        int firstLive = firstLiveStream();
        if (firstLive < 0 || pendingWatermark != WatermarkCoalescer.NONE || completedOrdinal >= 0) {
            return;
        }
        int priority = streams[firstLive].priority();
        int groupEnd = firstLive;
        while (groupEnd < streams.length && streams[groupEnd].priority() == priority) {
            groupEnd++;
        }
        int groupSize = groupEnd - firstLive;
        for (int visited = 0; visited < groupSize; visited++) {
            int s = firstLive + Math.floorMod(nextStream + visited, groupSize);
            InboundStream stream = streams[s];
            if (streamCompletionReported[s]) {
                continue;
            }
            // A stream with no queues at all (e.g. a non-target of an all-to-one edge) is done from the start.
            if (!stream.drainTo(inbox, snapshots.blockInputsFromBarrier(), batches.readableThrough()) && !stream.isDone()) {
                continue;
            }
            progress = true;
            drainedInput = true;
            nextStream = s - firstLive + 1;
            inboxOrdinal = stream.ordinal();
            observeStreamState(s);
            return;
        }
    }

    private int firstLiveStream() {
        for (int s = 0; s < streams.length; s++) {
            if (!streamCompletionReported[s]) {
                return s;
            }
        }
        return -1;
    }

    private void observeStreamState(int s) {
        InboundStream stream = streams[s];
        for (long wm; (wm = stream.nextWatermark()) != WatermarkCoalescer.NONE; ) {
            inputCoalescer.observe(s, wm);
        }
        if (stream.isDone()) {
            streamCompletionReported[s] = true;
            inputCoalescer.inputDone(s);
            liveStreams--;
            completedOrdinal = stream.ordinal();
        }
        pendingWatermark = inputCoalescer.next();
    }

    private void processWatermark() {
        if (offeredWatermark == null || offeredWatermark.timestamp() != pendingWatermark) {
            offeredWatermark = new Watermark(pendingWatermark);
        }
        if (!processor.tryProcessWatermark(offeredWatermark)) {
            return;
        }
        watermark.add(pendingWatermark - watermark.get());
        progress = true;
        pendingWatermark = inputCoalescer.next();
        state = State.PROCESS_INPUT;
    }

    private void processIdle() {
        if (processor.tryProcessIdle()) {
            progress = true;
            state = State.EMIT_IDLE;
            emitIdle();
        }
    }

    private void emitIdle() {
        if (!outbox.offerControl(Watermark.IDLE)) {
            return;
        }
        progress = true;
        pendingWatermark = inputCoalescer.next();
        state = State.PROCESS_INPUT;
    }

    private void completeEdge() {
        if (!processor.completeEdge(completedOrdinal)) {
            return;
        }
        progress = true;
        completedOrdinal = -1;
        state = State.PROCESS_INPUT;
    }

    private void complete() {
        // The final state's save may not begin while a snapshot's state is still being written.
        if (startSnapshotIfDue() || snapshots.writing()) {
            return;
        }
        if (processor.complete()) {
            progress = true;
            state = snapshots.enabled() ? State.SAVE_FINAL_STATE : State.EMIT_DONE;
            if (snapshots.enabled()) {
                snapshots.beginFinalSave();
            }
        }
    }

    /**
     * Between items (inbox empty, no watermark or completion pending), with the barrier in from every
     * input: saves the state. Everything before the barrier is processed, and with exactly-once
     * nothing after it has been read.
     */
    private boolean startSnapshotIfDue() {
        long due = snapshots.dueSnapshot(streams);
        if (due < 0) {
            return false;
        }
        // One instance for all retries: a partly accepted offer resumes only for the outputs that refused it.
        savingSnapshot = new SnapshotBarrier(due);
        stateBeforeSnapshot = state;
        snapshots.beginSave(due);
        state = State.SAVE_SNAPSHOT;
        progress = true;
        saveSnapshot();
        return true;
    }

    /**
     * Between items, with the next batch's marker in from every input (or the input done): that batch
     * is finished here, so its marker goes on.
     */
    private boolean finishBatchIfDue() {
        if (!batches.enabled() || liveStreams == 0) {
            return false;  // a source's processor sends its markers; with every input done, the done item ends every batch
        }
        long next = batches.next();
        // Never past what is launched: an input with no queues (an all-to-one edge's non-target) has every marker.
        if (next > batches.launched()) {
            return false;
        }
        for (InboundStream stream : streams) {
            if (!stream.reachedBatch(next)) {
                return false;
            }
        }
        sendingMarker = new BatchMarker(next);
        state = State.EMIT_MARKER;
        progress = true;
        emitMarker();
        return true;
    }

    private void emitMarker() {
        if (outbox.offerControl(sendingMarker)) {
            progress = true;
            batches.finished(sendingMarker.batch());
            state = State.PROCESS_INPUT;
        }
    }

    private void saveSnapshot() {
        if (processor.saveToSnapshot()) {
            state = State.PREPARE_COMMIT;
            prepareCommit();
        }
        progress = true;
    }

    private void prepareCommit() {
        if (processor.snapshotCommitPrepare()) {
            snapshots.taken(savingSnapshot.snapshotId());
            state = State.EMIT_BARRIER;
            emitBarrier();
        }
    }

    /** The barrier goes on as soon as the state is taken; what the processor still has to write follows. */
    private void emitBarrier() {
        if (outbox.offerControl(savingSnapshot)) {
            progress = true;
            state = stateBeforeSnapshot;
            continueSave();
        }
    }

    private void continueSave() {
        progress = true;
        long start = System.nanoTime();
        if (processor.continueSnapshotSave()) {
            snapshots.finishSave();
        }
        long end = System.nanoTime();
        // Writing in every call took ~85 % of Q5's window worker for 60 ms: the windows due meanwhile
        // were processed a piece's worth of input per call and came out tens of ms late.
        nextPieceNanos = end + (WRITE_SHARE - 1) * (end - start);
    }

    private void saveFinalState() {
        if (processor.saveToSnapshot()) {
            state = State.WRITE_FINAL_STATE;
            writeFinalState();
        }
        progress = true;
    }

    /** Nothing changes the final state any more: what the processor writes after saveToSnapshot() is written now. */
    private void writeFinalState() {
        if (processor.continueSnapshotSave()) {
            state = State.PREPARE_FINAL_COMMIT;
            prepareFinalCommit();
        }
        progress = true;
    }

    /**
     * A finished processor's last transaction is prepared with its final state, which every later
     * snapshot holds; it commits once the first of them has (awaitFinalCommit): a restore from an
     * earlier one would replay into it.
     */
    private void prepareFinalCommit() {
        if (processor.snapshotCommitPrepare()) {
            finalTransactionPrepared = true;
            snapshots.finishFinalSave();
            state = State.EMIT_DONE;
            emitDone();
        }
    }

    private void emitDone() {
        if (outbox.offerControl(DoneItem.DONE)) {
            progress = true;
            batches.ended();
            if (snapshots.enabled()) {
                finalStateSnapshot = snapshots.ended();
                state = State.AWAIT_FINAL_COMMIT;
                awaitFinalCommit();
            } else {
                state = State.END;
            }
        }
    }

    /** Downstream has its done item already; the processor hears of the commit before the tasklet ends. */
    private void awaitFinalCommit() {
        if (snapshots.committed() >= finalStateSnapshot && processor.snapshotCommitFinish(true)) {
            progress = true;
            snapshots.finalCommitFinished();
            state = State.END;
        }
    }

    /**
     * A worker parks for long stretches when idle, so whoever gives it work wakes it: downstream
     * workers when we wrote to their queues, upstream ones when we freed space in queues that may
     * have been full.
     */
    private void wakeNeighbours(boolean downstream, boolean upstream) {
        if (downstreamWorkers.length == 0 && upstreamWorkers.length == 0) {
            return;
        }
        // Pairs with the worker's arm-then-recheck: our queue writes are visible before we read its flag.
        VarHandle.fullFence();
        if (downstream) {
            for (WorkerParker parker : downstreamWorkers) {
                parker.wakeIfArmed();
            }
        }
        if (upstream) {
            for (WorkerParker parker : upstreamWorkers) {
                parker.wakeIfArmed();
            }
        }
    }

    @Override
    public boolean isCooperative() {
        return processor.isCooperative();
    }

    @Override
    public void sampled(boolean running, long micros) {
        int queued = 0;
        for (InboundStream stream : streams) {
            queued += stream.queued();
        }
        samples.add(micros, running, backpressured, queued, inputCapacity);
    }

    @Override
    public long nextDeadlineNanos() {
        long processorDeadline = state == State.COMPLETE || state == State.PROCESS_INPUT ? processor.nextDeadlineNanos() : Long.MAX_VALUE;
        // A worker with nothing else to do sleeps until the write's next piece, rather than spinning to it.
        return snapshots.writing() ? Math.min(processorDeadline, nextPieceNanos) : processorDeadline;
    }

    @Override
    public void fail(Throwable cause) {
        execution.fail(new JobFailedException("processor " + context.processorIndex() + " of vertex '" + context.vertexName() + "' failed: " + cause, cause));
    }

    /** Closes the processor of a job that failed to start; the job never counted this tasklet. */
    void closeUnstarted() {
        try {
            processor.close();
        } catch (Exception e) {
            // The start failure is what the caller reports; a close failure on top of it adds nothing.
        }
    }

    @Override
    public void close() {
        try {
            processor.close();
        } catch (Throwable t) {
            fail(t);
        } finally {
            execution.taskletFinished();
        }
    }

    @Override
    public String toString() {
        return context.vertexName() + "#" + context.processorIndex();
    }
}
