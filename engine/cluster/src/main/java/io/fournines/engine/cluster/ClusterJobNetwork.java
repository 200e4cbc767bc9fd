package io.fournines.engine.cluster;

import io.fournines.engine.network.BatchEndpoint;
import io.fournines.engine.network.JobNetwork;
import io.fournines.engine.network.PacketCodec;
import io.fournines.engine.network.ReceiveEndpoint;
import io.fournines.engine.network.SendEndpoint;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One execution's distributed edges over the cluster's member connections. The execution runs on
 * some of the cluster's members (after a loss, on the survivors): the engine sees them as members
 * 0..n-1 in index order, and this network maps those positions to cluster members and back.
 */
public final class ClusterJobNetwork implements JobNetwork {

    private static final PacketCodec CODEC = new KryoPacketCodec();
    private static final int DATA_HEADER = 1 + 8 + 4 + 4;
    private static final int BATCH_FRAME = 1 + 8 + 1 + 4 + 8 + 8 + 8;
    /** The kinds of {@link Frames#BATCH} frame. */
    static final byte BATCH_READY = 0;
    static final byte BATCH_STAGE_DONE = 1;
    static final byte BATCH_LAUNCH = 2;

    private final Cluster cluster;
    private final long executionId;
    /** The cluster members this execution runs on, in index order: position = the engine's member index. */
    private final int[] members;
    private final int self;
    private final Map<Long, ReceiveEndpoint> receivers = new ConcurrentHashMap<>();
    private final Map<Long, SendEndpoint> senders = new ConcurrentHashMap<>();
    private volatile BatchEndpoint batches;

    ClusterJobNetwork(Cluster cluster, long executionId, int[] members) {
        this.cluster = cluster;
        this.executionId = executionId;
        this.members = members.clone();
        this.self = Arrays.binarySearch(this.members, cluster.self());
        if (self < 0 || !isSorted(this.members)) {
            throw new IllegalArgumentException("execution " + executionId + " runs on members " + Arrays.toString(members)
                    + ": they must be in index order and include this member (" + cluster.self() + ")");
        }
    }

    private static boolean isSorted(int[] a) {
        for (int i = 1; i < a.length; i++) {
            if (a[i] <= a[i - 1]) {
                return false;
            }
        }
        return true;
    }

    private static long key(int edgeId, int position) {
        return ((long) edgeId << 32) | position;
    }

    /** The cluster members this execution runs on, in index order. */
    public int[] members() {
        return members.clone();
    }

    @Override
    public int memberIndex() {
        return self;
    }

    @Override
    public int memberCount() {
        return members.length;
    }

    @Override
    public PacketCodec codec() {
        return CODEC;
    }

    @Override
    public void registerReceiver(int edgeId, int fromMember, ReceiveEndpoint receiver) {
        receivers.put(key(edgeId, fromMember), receiver);
    }

    @Override
    public void registerSender(int edgeId, int toMember, SendEndpoint sender) {
        senders.put(key(edgeId, toMember), sender);
    }

    @Override
    public boolean sendData(int toMember, int edgeId, int entries, byte[] packet) {
        Channel ch = cluster.channel(members[toMember]);
        // A lost member stops this execution; until that reaches this sender, it simply cannot send.
        if (ch == null || !ch.isWritable()) {
            return false;
        }
        ByteBuf header = ch.alloc().buffer(DATA_HEADER).writeByte(Frames.DATA).writeLong(executionId).writeInt(edgeId).writeInt(entries);
        ch.writeAndFlush(Unpooled.wrappedBuffer(header, Unpooled.wrappedBuffer(packet)), ch.voidPromise());
        return true;
    }

    @Override
    public void sendCredit(int toMember, int edgeId, long sendLimit) {
        Channel ch = cluster.channel(members[toMember]);
        if (ch != null) {
            ByteBuf frame = ch.alloc().buffer(1 + 8 + 4 + 8).writeByte(Frames.CREDIT).writeLong(executionId).writeInt(edgeId).writeLong(sendLimit);
            ch.writeAndFlush(frame, ch.voidPromise());
        }
    }

    @Override
    public void registerBatches(BatchEndpoint endpoint) {
        batches = endpoint;
    }

    @Override
    public void sendBatchReady(int toMember) {
        sendBatch(toMember, BATCH_READY, 0, 0, 0, 0);
    }

    @Override
    public void sendStageDone(int toMember, int stage, long batch, long startedMicros, long finishedMicros) {
        sendBatch(toMember, BATCH_STAGE_DONE, stage, batch, startedMicros, finishedMicros);
    }

    @Override
    public void sendLaunch(int toMember, int stage, long throughBatch, long firstEnd) {
        sendBatch(toMember, BATCH_LAUNCH, stage, throughBatch, firstEnd, 0);
    }

    /** A few bytes, sent whatever the connection's buffer holds: the batches wait on them, and they are a handful per batch. */
    private void sendBatch(int toMember, byte kind, int stage, long first, long second, long third) {
        Channel ch = cluster.channel(members[toMember]);
        if (ch != null) {
            ByteBuf frame = ch.alloc().buffer(BATCH_FRAME).writeByte(Frames.BATCH).writeLong(executionId).writeByte(kind).writeInt(stage)
                    .writeLong(first).writeLong(second).writeLong(third);
            ch.writeAndFlush(frame, ch.voidPromise());
        }
    }

    void onBatch(int fromMember, byte kind, int stage, long first, long second, long third) {
        int position = Arrays.binarySearch(members, fromMember);
        BatchEndpoint endpoint = batches;
        if (position < 0 || endpoint == null) {
            return;
        }
        switch (kind) {
            case BATCH_READY -> endpoint.onReady(position);
            case BATCH_STAGE_DONE -> endpoint.onStageDone(position, stage, first, second, third);
            case BATCH_LAUNCH -> endpoint.onLaunch(stage, first, second);
            default -> cluster.log("ignoring a batch message of unknown kind " + kind + " from member " + fromMember);
        }
    }

    void onData(int fromMember, int edgeId, int entries, byte[] packet) {
        int position = Arrays.binarySearch(members, fromMember);
        ReceiveEndpoint r = position < 0 ? null : receivers.get(key(edgeId, position));
        if (r != null) {
            r.onPacket(entries, packet);
        }
    }

    void onCredit(int fromMember, int edgeId, long limit) {
        int position = Arrays.binarySearch(members, fromMember);
        SendEndpoint s = position < 0 ? null : senders.get(key(edgeId, position));
        if (s != null) {
            s.onCredit(limit);
        }
    }
}
