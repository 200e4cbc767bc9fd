package io.fournines.engine.network;

/**
 * What the engine needs from a cluster to run one job's distributed edges: who this member is, how
 * to encode items, and a connection to every other member. Edges are named by their index in
 * {@code Dag.edges()}, the same on every member because every member plans the same DAG.
 *
 * <p>Senders start without credit: nothing is sent to a member before its receiver exists and has
 * granted some.
 */
public interface JobNetwork {

    int memberIndex();

    int memberCount();

    PacketCodec codec();

    /** Where packets of {@code edgeId} from {@code fromMember} go; called before the job starts. */
    void registerReceiver(int edgeId, int fromMember, ReceiveEndpoint receiver);

    /** Where credit for {@code edgeId} granted by {@code toMember} goes; called before the job starts. */
    void registerSender(int edgeId, int toMember, SendEndpoint sender);

    /**
     * Queues a data packet of {@code entries} entries for {@code toMember}. Returns false, taking
     * nothing, while the connection's outgoing buffer is above its high-water mark; the caller tries
     * again later.
     */
    boolean sendData(int toMember, int edgeId, int entries, byte[] packet);

    /** Tells {@code toMember}'s sender of {@code edgeId} that it may send entries up to {@code sendLimit}. */
    void sendCredit(int toMember, int edgeId, long sendLimit);

    /**
     * Micro-batch and group execution: where this member's batch messages go ({@link BatchEndpoint}).
     * Messages that arrive before it is registered are lost: a member says it is ready until it hears
     * the first launch.
     */
    void registerBatches(BatchEndpoint endpoint);

    /** To the scheduling member: this member is ready ({@link BatchEndpoint#onReady}). */
    void sendBatchReady(int toMember);

    /** To the scheduling member: a stage of a batch is done here ({@link BatchEndpoint#onStageDone}). */
    void sendStageDone(int toMember, int stage, long batch, long startedMicros, long finishedMicros);

    /** From the scheduling member: a launch ({@link BatchEndpoint#onLaunch}). */
    void sendLaunch(int toMember, int stage, long throughBatch, long firstEnd);
}
