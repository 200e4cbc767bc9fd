package io.fournines.engine.execution;

import io.fournines.engine.core.Processor;
import io.fournines.engine.dag.Dag;
import io.fournines.engine.dag.Edge;
import io.fournines.engine.dag.RoutingPolicy;
import io.fournines.engine.dag.Vertex;
import io.fournines.engine.network.JobNetwork;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a DAG into running tasklets on this engine: one processor instance per worker for each
 * vertex (unless the vertex fixes its parallelism), an SPSC queue for every producer-consumer pair an
 * edge connects, and each instance placed on a worker.
 */
public final class ExecutionPlan {

    private final TaskletExecutionService service;
    private final Partitioner partitioner;
    private final Map<Vertex, Instance[]> instances = new HashMap<>();
    /** Null on a single member. */
    private final JobNetwork network;
    private final List<DistributedEdge.Placed> networkTasklets = new ArrayList<>();

    /** One processor instance while the plan is being wired. */
    static final class Instance {
        final Processor processor;
        final ProcessorContext context;
        final Worker worker;
        final List<InboundStream> inbound = new ArrayList<>();
        final List<OutboundCollector> outbound = new ArrayList<>();
        final Set<Worker> downstream = new LinkedHashSet<>();
        final Set<Worker> upstream = new LinkedHashSet<>();

        Instance(Processor processor, ProcessorContext context, Worker worker) {
            this.processor = processor;
            this.context = context;
            this.worker = worker;
        }
    }

    private ExecutionPlan(TaskletExecutionService service, JobNetwork network) {
        this.service = service;
        this.partitioner = new Partitioner(service.config().partitionCount());
        this.network = network;
    }

    /** Builds, initialises and starts every tasklet of the DAG as one job execution. */
    public static void start(Dag dag, TaskletExecutionService service, JobExecution execution) throws Exception {
        start(dag, service, execution, null);
    }

    /**
     * Like {@link #start(Dag, TaskletExecutionService, JobExecution)}, as this member's part of a job
     * that every member of {@code network} runs: distributed edges cross members.
     */
    public static void start(Dag dag, TaskletExecutionService service, JobExecution execution, JobNetwork network) throws Exception {
        ExecutionPlan plan = new ExecutionPlan(service, network);
        List<Vertex> order = dag.validate();
        for (Vertex v : order) {
            plan.createInstances(v, execution);
        }
        List<Edge> edges = dag.edges();
        for (int id = 0; id < edges.size(); id++) {
            Edge e = edges.get(id);
            if (DistributedEdge.crossesMembers(e, network)) {
                plan.networkTasklets.addAll(DistributedEdge.connect(e, id, plan.instances.get(e.source()), plan.instances.get(e.destination()),
                        plan.partitioner, network, execution, service));
            } else {
                plan.connect(e);
            }
        }
        plan.launch(order, edges, execution);
    }

    private void createInstances(Vertex v, JobExecution execution) {
        JobMetrics metrics = execution.metrics();
        int parallelism = v.parallelismOn(service.cooperativeWorkerCount());
        Instance[] created = new Instance[parallelism];
        for (int i = 0; i < parallelism; i++) {
            Processor p = v.processorSupplier().get();
            if (p == null) {
                throw new IllegalStateException("the processor supplier of vertex '" + v + "' returned null");
            }
            MemberBatches batches = execution.batches() == null ? null : execution.batches().member();
            ProcessorContext ctx = network == null ? new ProcessorContext(v.name(), i, parallelism, metrics, partitioner, batches)
                    : new ProcessorContext(v.name(), i, parallelism, network.memberIndex(), network.memberCount(), metrics, partitioner, batches);
            Worker w = p.isCooperative()
                    ? service.cooperativeWorker(i % service.cooperativeWorkerCount())
                    : service.newDedicatedWorker(v.name() + "#" + i);
            created[i] = new Instance(p, ctx, w);
        }
        instances.put(v, created);
    }

    @SuppressWarnings("unchecked")
    private void connect(Edge e) {
        Instance[] producers = instances.get(e.source());
        Instance[] consumers = instances.get(e.destination());
        RoutingPolicy policy = e.routingPolicy();
        if (policy == RoutingPolicy.ISOLATED && producers.length != consumers.length) {
            throw new IllegalArgumentException("isolated edge " + e + " needs equal parallelism on both ends, got "
                    + producers.length + " and " + consumers.length);
        }
        // queues[c][p]: from producer p to consumer c; null where the edge never connects them.
        OneToOneConcurrentArrayQueue<Object>[][] queues = new OneToOneConcurrentArrayQueue[consumers.length][producers.length];
        for (int c = 0; c < consumers.length; c++) {
            for (int p = 0; p < producers.length; p++) {
                if (connects(policy, p, c)) {
                    queues[c][p] = new OneToOneConcurrentArrayQueue<>(e.queueSize());
                }
            }
        }
        for (int c = 0; c < consumers.length; c++) {
            OneToOneConcurrentArrayQueue<Object>[] in = nonNull(queues[c]);
            consumers[c].inbound.add(new InboundStream(e.destOrdinal(), e.priority(), in));
        }
        int[] owner = partitioner.ownerTable(consumers.length);
        for (int p = 0; p < producers.length; p++) {
            int producer = p;
            OneToOneConcurrentArrayQueue<Object>[] out = new OneToOneConcurrentArrayQueue[consumers.length];
            for (int c = 0; c < consumers.length; c++) {
                out[c] = queues[c][p];
                if (out[c] != null) {
                    producers[p].downstream.add(consumers[c].worker);
                    consumers[c].upstream.add(producers[p].worker);
                }
            }
            producers[p].outbound.add(switch (policy) {
                case UNICAST -> new OutboundCollector.RoundRobin(out);
                case PARTITIONED -> new OutboundCollector.Partitioned(out, e.partitionKeyFn(), partitioner, owner);
                case BROADCAST -> new OutboundCollector.Broadcast(out);
                case ISOLATED -> new OutboundCollector.Single(out[producer]);
                case ALL_TO_ONE -> new OutboundCollector.Single(out[0]);
            });
        }
    }

    private static boolean connects(RoutingPolicy policy, int producer, int consumer) {
        return switch (policy) {
            case ISOLATED -> producer == consumer;
            case ALL_TO_ONE -> consumer == 0;
            default -> true;
        };
    }

    @SuppressWarnings("unchecked")
    private static OneToOneConcurrentArrayQueue<Object>[] nonNull(OneToOneConcurrentArrayQueue<Object>[] queues) {
        return Arrays.stream(queues).filter(q -> q != null).toArray(OneToOneConcurrentArrayQueue[]::new);
    }

    private static WorkerParker[] otherWorkers(Set<Worker> workers, Worker own) {
        return workers.stream().filter(w -> w != own).map(Worker::parker).toArray(WorkerParker[]::new);
    }

    /**
     * Micro-batch and group execution: each vertex's stage (a shuffle, any edge but an isolated one,
     * starts the next), told to this member's part of the batches with the workers launches wake.
     */
    private Map<Vertex, Integer> stages(List<Vertex> order, List<Edge> edges, MemberBatches part) {
        Map<Vertex, Integer> stage = new HashMap<>();
        for (Vertex v : order) {
            stage.put(v, edges.stream().filter(e -> e.destination() == v)
                    .mapToInt(e -> stage.get(e.source()) + (e.routingPolicy() == RoutingPolicy.ISOLATED ? 0 : 1)).max().orElse(0));
        }
        int[] tasklets = new int[stage.values().stream().mapToInt(Integer::intValue).max().orElse(0) + 1];
        order.forEach(v -> tasklets[stage.get(v)] += instances.get(v).length);
        boolean cuts = order.stream().flatMap(v -> Arrays.stream(instances.get(v)))
                .anyMatch(in -> in.inbound.isEmpty() && in.processor.cutsBatches());
        if (!cuts) {
            throw new IllegalArgumentException(part.model().kind() + " execution needs a source that cuts batches (the generator); this job has none");
        }
        part.plan(tasklets, instances.values().stream().flatMap(java.util.Arrays::stream).map(in -> in.worker.parker()).distinct().toList());
        return stage;
    }

    private void launch(List<Vertex> order, List<Edge> edges, JobExecution execution) throws Exception {
        List<ProcessorTasklet> tasklets = new ArrayList<>();
        List<Worker> workers = new ArrayList<>();
        MemberBatches part = execution.batches() == null ? null : execution.batches().member();
        Map<Vertex, Integer> stages = part == null ? Map.of() : stages(order, edges, part);
        Map<Integer, Integer> nextInStage = new HashMap<>();
        for (Vertex v : order) {
            for (Instance in : instances.get(v)) {
                TaskletBatches batches = part == null ? TaskletBatches.NONE
                        : new TaskletBatches(part, stages.get(v), nextInStage.merge(stages.get(v), 1, Integer::sum) - 1);
                TaskletSnapshots snapshots = new TaskletSnapshots(execution.snapshots(), in.context, partitioner);
                OutboxImpl outbox = new OutboxImpl(in.outbound.toArray(OutboundCollector[]::new), service.config().outboxBatchLimit(),
                        snapshots.enabled() ? snapshots.writer() : null);
                ProcessorTasklet t = new ProcessorTasklet(in.processor, in.context, outbox, in.inbound.toArray(InboundStream[]::new), execution,
                        otherWorkers(in.downstream, in.worker), otherWorkers(in.upstream, in.worker), snapshots, batches);
                try {
                    t.init();
                } catch (Exception | Error e) {
                    // Nothing runs yet: close what was initialised, so no processor leaks its resources.
                    tasklets.forEach(ProcessorTasklet::closeUnstarted);
                    throw e;
                }
                tasklets.add(t);
                workers.add(in.worker);
            }
        }
        tasklets.forEach(t -> execution.taskletStarted());
        // Only processor tasklets save state; the network tasklets carry barriers through.
        tasklets.forEach(t -> execution.snapshots().taskletStarted());
        networkTasklets.forEach(t -> execution.taskletStarted());
        // Sources were created first, so each worker calls them before their consumers in a round.
        for (int i = 0; i < tasklets.size(); i++) {
            Worker w = workers.get(i);
            w.add(tasklets.get(i));
            if (!tasklets.get(i).isCooperative()) {
                w.start();
            }
        }
        networkTasklets.forEach(t -> t.worker().add(t.tasklet()));
    }
}
