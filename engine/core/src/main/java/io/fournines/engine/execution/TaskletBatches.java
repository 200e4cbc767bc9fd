package io.fournines.engine.execution;

/**
 * One tasklet's part in its job's batches (micro-batch and group execution): the batches launched
 * on its stage, how far its inputs may be read, and which batches it has finished. Continuous
 * execution has none ({@link #NONE}).
 */
final class TaskletBatches {

    static final TaskletBatches NONE = new TaskletBatches(null, 0, 0);

    private final MemberBatches scheduler;
    private final int stage;
    private final int index;
    /** The highest batch launched on the stage that this tasklet has seen. */
    private long noticed = -1;
    /** The highest batch this tasklet finished. */
    private long finished = -1;

    /** Tasklet {@code index} of {@code stage}. */
    TaskletBatches(MemberBatches scheduler, int stage, int index) {
        this.scheduler = scheduler;
        this.stage = stage;
        this.index = index;
    }

    boolean enabled() {
        return scheduler != null;
    }

    /** Tells the scheduler when this tasklet first sees a launch: the batch started here. */
    void notice() {
        long launched = scheduler.launched(stage);
        if (launched > noticed) {
            scheduler.noticed(stage, noticed + 1, launched);
            noticed = launched;
        }
    }

    /**
     * Inputs deliver the items of batches up to this one: in micro-batch, the batch launched on the
     * stage (what comes later waits, taken in, for its launch); otherwise every batch.
     */
    long readableThrough() {
        return scheduler != null && scheduler.model().kind() == ExecutionModel.Kind.MICRO_BATCH ? scheduler.launched(stage) : Long.MAX_VALUE;
    }

    /** The highest batch launched on the tasklet's stage. */
    long launched() {
        return scheduler.launched(stage);
    }

    /** The batch this tasklet finishes next. */
    long next() {
        return finished + 1;
    }

    /** This tasklet finished every batch up to {@code batch}: everything of them is processed and their marker sent on. */
    void finished(long batch) {
        if (batch > finished) {
            finished = batch;
            scheduler.finished(stage, index, batch);
        }
    }

    /** The tasklet sent its done item: it is done with every batch. */
    void ended() {
        if (scheduler != null) {
            finished = Long.MAX_VALUE;
            scheduler.finished(stage, index, Long.MAX_VALUE);
        }
    }
}
