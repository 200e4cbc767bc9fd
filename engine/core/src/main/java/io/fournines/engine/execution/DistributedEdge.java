package io.fournines.engine.execution;

import io.fournines.engine.dag.Edge;
import io.fournines.engine.dag.RoutingPolicy;
import io.fournines.engine.network.JobNetwork;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * Wires an edge that crosses members. Every member runs the same instances, so the cluster has
 * {@code members x localParallelism} consumers; consumer {@code g} lives on member {@code g / lp}
 * as instance {@code g % lp}. A producer writes an item for a local consumer straight into its
 * queue, and one for another member into the queue of that member's {@link SenderTasklet}; each
 * consumer reads its local producers' queues plus one queue per other member, filled by a {@link
 * ReceiverTasklet}. Watermarks and done markers travel the same way, so each consumer coalesces
 * the watermarks of all members.
 */
final class DistributedEdge {

    /** A network tasklet and the worker that runs it. */
    record Placed(Tasklet tasklet, Worker worker) {
    }

    private final Edge edge;
    private final int edgeId;
    private final ExecutionPlan.Instance[] producers;
    private final ExecutionPlan.Instance[] consumers;
    private final JobNetwork network;
    private final JobExecution execution;
    private final TaskletExecutionService service;
    private final int self;
    private final int lp;
    /** Cluster-wide consumer of each partition (partitioned edges). */
    private final int[] globalOwner;

    private DistributedEdge(Edge edge, int edgeId, ExecutionPlan.Instance[] producers, ExecutionPlan.Instance[] consumers, Partitioner partitioner,
                            JobNetwork network, JobExecution execution, TaskletExecutionService service) {
        this.edge = edge;
        this.edgeId = edgeId;
        this.producers = producers;
        this.consumers = consumers;
        this.network = network;
        this.execution = execution;
        this.service = service;
        this.self = network.memberIndex();
        this.lp = consumers.length;
        this.globalOwner = partitioner.ownerTable(network.memberCount() * lp);
    }

    static boolean crossesMembers(Edge e, JobNetwork network) {
        return network != null && network.memberCount() > 1 && e.isDistributed()
                && (e.routingPolicy() == RoutingPolicy.PARTITIONED || e.routingPolicy() == RoutingPolicy.BROADCAST
                    || e.routingPolicy() == RoutingPolicy.ALL_TO_ONE);
    }

    /** Adds the edge's queues and collectors to the instances; returns the network tasklets it needs. */
    static List<Placed> connect(Edge e, int edgeId, ExecutionPlan.Instance[] producers, ExecutionPlan.Instance[] consumers, Partitioner partitioner,
                                JobNetwork network, JobExecution execution, TaskletExecutionService service) {
        return new DistributedEdge(e, edgeId, producers, consumers, partitioner, network, execution, service).wire(partitioner);
    }

    /** Whether the consumer instance {@code c} of member {@code member} gets items of this edge. */
    private boolean reaches(int member, int c) {
        return edge.routingPolicy() != RoutingPolicy.ALL_TO_ONE || (member == 0 && c == 0);
    }

    @SuppressWarnings("unchecked")
    private List<Placed> wire(Partitioner partitioner) {
        int members = network.memberCount();
        int pl = producers.length;
        OneToOneConcurrentArrayQueue<Object>[][] local = new OneToOneConcurrentArrayQueue[lp][pl];
        OneToOneConcurrentArrayQueue<Object>[][] toSender = new OneToOneConcurrentArrayQueue[members][];
        OneToOneConcurrentArrayQueue<Object>[][] fromReceiver = new OneToOneConcurrentArrayQueue[members][];
        for (int c = 0; c < lp; c++) {
            for (int p = 0; p < pl; p++) {
                local[c][p] = reaches(self, c) ? newQueue() : null;
            }
        }
        for (int m = 0; m < members; m++) {
            if (m == self) {
                continue;
            }
            boolean remoteReached = false;
            for (int c = 0; c < lp; c++) {
                remoteReached |= reaches(m, c);
            }
            if (remoteReached) {
                toSender[m] = new OneToOneConcurrentArrayQueue[pl];
                for (int p = 0; p < pl; p++) {
                    toSender[m][p] = newQueue();
                }
            }
            fromReceiver[m] = new OneToOneConcurrentArrayQueue[lp];
            boolean anyLocal = false;
            for (int c = 0; c < lp; c++) {
                fromReceiver[m][c] = reaches(self, c) ? newQueue() : null;
                anyLocal |= fromReceiver[m][c] != null;
            }
            if (!anyLocal) {
                fromReceiver[m] = null;
            }
        }
        for (int c = 0; c < lp; c++) {
            List<OneToOneConcurrentArrayQueue<Object>> in = new ArrayList<>(Arrays.asList(local[c]));
            for (int m = 0; m < members; m++) {
                if (fromReceiver[m] != null) {
                    in.add(fromReceiver[m][c]);
                }
            }
            in.removeIf(Objects::isNull);
            consumers[c].inbound.add(new InboundStream(edge.destOrdinal(), edge.priority(), in.toArray(OneToOneConcurrentArrayQueue[]::new)));
        }
        int[] queueOfPartition = queueOfPartition(partitioner.partitionCount());
        for (int p = 0; p < pl; p++) {
            // The local consumers' queues, then one sender queue per other member, in member order.
            OneToOneConcurrentArrayQueue<Object>[] out = new OneToOneConcurrentArrayQueue[lp + members - 1];
            for (int c = 0; c < lp; c++) {
                out[c] = local[c][p];
                if (out[c] != null) {
                    producers[p].downstream.add(consumers[c].worker);
                    consumers[c].upstream.add(producers[p].worker);
                }
            }
            for (int m = 0; m < members; m++) {
                if (m != self) {
                    out[senderSlot(m)] = toSender[m] == null ? null : toSender[m][p];
                }
            }
            OneToOneConcurrentArrayQueue<Object>[] used = nonNull(out);
            producers[p].outbound.add(switch (edge.routingPolicy()) {
                case PARTITIONED -> new OutboundCollector.Partitioned(out, edge.partitionKeyFn(), partitioner, queueOfPartition);
                case BROADCAST -> new OutboundCollector.Broadcast(used);
                case ALL_TO_ONE -> new OutboundCollector.Single(used[0]);
                default -> throw new IllegalStateException("edge " + edge + " cannot cross members");
            });
        }
        List<Placed> placed = new ArrayList<>();
        for (int m = 0; m < members; m++) {
            if (toSender[m] != null) {
                placed.add(sender(m, toSender[m], partitioner));
            }
            if (fromReceiver[m] != null) {
                placed.add(receiver(m, fromReceiver[m]));
            }
        }
        return placed;
    }

    /** Index of {@code member}'s sender queue among a producer's queues. */
    private int senderSlot(int member) {
        return lp + (member < self ? member : member - 1);
    }

    /** For each partition, the index into a producer's queues of the consumer or sender that owns it. */
    private int[] queueOfPartition(int partitions) {
        int[] table = new int[partitions];
        for (int part = 0; part < partitions; part++) {
            int owner = globalOwner[part];
            table[part] = owner / lp == self ? owner % lp : senderSlot(owner / lp);
        }
        return table;
    }

    private Placed sender(int member, OneToOneConcurrentArrayQueue<Object>[] queues, Partitioner partitioner) {
        Worker worker = service.cooperativeWorker(member % service.cooperativeWorkerCount());
        ToIntFunction<Object> target = switch (edge.routingPolicy()) {
            case PARTITIONED -> {
                ToIntFunction<Object> partitionOf = partitioner.partitionOfItem(edge.partitionKeyFn());
                yield item -> globalOwner[partitionOf.applyAsInt(item)] % lp;
            }
            case BROADCAST -> item -> NetworkEntry.ALL_CONSUMERS;
            default -> item -> 0;
        };
        List<WorkerParker> producerWorkers = new ArrayList<>();
        for (ExecutionPlan.Instance p : producers) {
            p.downstream.add(worker);
            if (p.worker != worker) {
                producerWorkers.add(p.worker.parker());
            }
        }
        SenderTasklet t = new SenderTasklet("net:" + edge + " to member " + member, new InboundStream(0, 0, queues), network, edgeId, member, target,
                execution, worker.parker(), producerWorkers.toArray(WorkerParker[]::new));
        network.registerSender(edgeId, member, t);
        return new Placed(t, worker);
    }

    private Placed receiver(int member, OneToOneConcurrentArrayQueue<Object>[] queues) {
        Worker worker = service.cooperativeWorker(member % service.cooperativeWorkerCount());
        List<WorkerParker> consumerWorkers = new ArrayList<>();
        for (int c = 0; c < lp; c++) {
            if (queues[c] != null) {
                consumers[c].upstream.add(worker);
                if (consumers[c].worker != worker) {
                    consumerWorkers.add(consumers[c].worker.parker());
                }
            }
        }
        ReceiverTasklet t = new ReceiverTasklet("net:" + edge + " from member " + member, network, edgeId, member, queues, execution,
                worker.parker(), consumerWorkers.toArray(WorkerParker[]::new));
        network.registerReceiver(edgeId, member, t);
        return new Placed(t, worker);
    }

    private OneToOneConcurrentArrayQueue<Object> newQueue() {
        return new OneToOneConcurrentArrayQueue<>(edge.queueSize());
    }

    @SuppressWarnings("unchecked")
    private static OneToOneConcurrentArrayQueue<Object>[] nonNull(OneToOneConcurrentArrayQueue<Object>[] queues) {
        return Arrays.stream(queues).filter(Objects::nonNull).toArray(OneToOneConcurrentArrayQueue[]::new);
    }
}
