package io.fournines.cluster;

import io.fournines.engine.network.JobNetwork;
import io.fournines.engine.network.PacketCodec;
import io.fournines.engine.network.ReceiveEndpoint;
import io.fournines.engine.network.SendEndpoint;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** One job's distributed edges over the cluster's member connections. */
public final class ClusterJobNetwork implements JobNetwork {

    private static final PacketCodec CODEC = new KryoPacketCodec();
    private static final int DATA_HEADER = 1 + 8 + 4 + 4;

    private final Cluster cluster;
    private final long jobId;
    private final Map<Long, ReceiveEndpoint> receivers = new ConcurrentHashMap<>();
    private final Map<Long, SendEndpoint> senders = new ConcurrentHashMap<>();

    ClusterJobNetwork(Cluster cluster, long jobId) {
        this.cluster = cluster;
        this.jobId = jobId;
    }

    private static long key(int edgeId, int member) {
        return ((long) edgeId << 32) | member;
    }

    @Override
    public int memberIndex() {
        return cluster.self();
    }

    @Override
    public int memberCount() {
        return cluster.size();
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
        Channel ch = cluster.channel(toMember);
        // A lost member fails the job; until that reaches this sender, it simply cannot send.
        if (ch == null || !ch.isWritable()) {
            return false;
        }
        ByteBuf header = ch.alloc().buffer(DATA_HEADER).writeByte(Frames.DATA).writeLong(jobId).writeInt(edgeId).writeInt(entries);
        ch.writeAndFlush(Unpooled.wrappedBuffer(header, Unpooled.wrappedBuffer(packet)), ch.voidPromise());
        return true;
    }

    @Override
    public void sendCredit(int toMember, int edgeId, long sendLimit) {
        Channel ch = cluster.channel(toMember);
        if (ch != null) {
            ByteBuf frame = ch.alloc().buffer(1 + 8 + 4 + 8).writeByte(Frames.CREDIT).writeLong(jobId).writeInt(edgeId).writeLong(sendLimit);
            ch.writeAndFlush(frame, ch.voidPromise());
        }
    }

    void onData(int from, int edgeId, int entries, byte[] packet) {
        ReceiveEndpoint r = receivers.get(key(edgeId, from));
        if (r != null) {
            r.onPacket(entries, packet);
        }
    }

    void onCredit(int from, int edgeId, long limit) {
        SendEndpoint s = senders.get(key(edgeId, from));
        if (s != null) {
            s.onCredit(limit);
        }
    }
}
