package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.aggregate.LongKeyFn;
import io.fournines.engine.core.Processor;
import io.fournines.engine.core.Traverser;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.dag.Dag;
import io.fournines.engine.dag.Edge;
import io.fournines.engine.dag.Vertex;
import io.fournines.engine.processor.AccumulateByFrameP;
import io.fournines.engine.processor.AccumulateByKeyP;
import io.fournines.engine.processor.CombineByKeyP;
import io.fournines.engine.processor.FusedAccumulateP;
import io.fournines.engine.processor.FusedOutputP;
import io.fournines.engine.processor.HashJoinP;
import io.fournines.engine.processor.MapStatefulP;
import io.fournines.engine.processor.SlidingWindowP;
import io.fournines.engine.processor.TransformP;
import io.fournines.engine.processor.WatermarkPolicy;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.LongKeyedSum;
import io.fournines.engine.window.WindowDefinition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns a pipeline's transforms into a DAG:
 * <ul>
 * <li>a chain of stateless stages, each the only consumer of the one before, becomes one fused vertex;
 *     after a source or a windowed aggregation (one result per key and slide) whose only consumer it
 *     is, it is fused into the source's or the window's last vertex instead ({@link FusedOutputP}):
 *     no queue between them, and an event the chain drops never crosses one;
 * <li>an aggregation becomes two vertices: accumulate locally (isolated edge, same core as its input),
 *     then combine on the key's owner (partitioned, distributed edge), so only partials travel; a
 *     window's accumulating stage whose input is a source (and its fused chain) and nothing else runs
 *     in the source's vertex ({@link FusedAccumulateP}): no event crosses a queue at all; if its frames
 *     keep nothing of an item (sums under primitive keys), the source may refill one object for every
 *     item ({@link SourcePlan#reusableItems}), so the stateless stages between must not keep theirs;
 * <li>a hash join's build side is broadcast on an edge that is drained before the stream side.
 * </ul>
 * Sources get watermarks in steps of the greatest common divisor of all window slides (every
 * millisecond when there is expiring state).
 */
final class Planner {

    private static final String ACCUMULATE_BY_FRAME = "accumulate-by-frame";

    private final List<Transform> transforms;
    private final Dag dag = new Dag();
    private final Map<Transform, Vertex> outputVertex = new IdentityHashMap<>();
    private final Map<Transform, List<Transform.Stateless>> chains = new IdentityHashMap<>();
    /** The stateless chain fused into the output of the source or window aggregate before it, by that transform. */
    private final Map<Transform, List<Transform.Stateless>> fusedIntoUpstream = new IdentityHashMap<>();
    /** The window whose accumulating stage runs in the source's vertex, by that source. */
    private final Map<Transform, Transform.WindowAggregate> windowFusedIntoSource = new IdentityHashMap<>();
    private final Map<Vertex, Integer> nextOutputOrdinal = new HashMap<>();
    private final Map<Vertex, Integer> nextInputOrdinal = new HashMap<>();

    private final boolean localPreAggregation;

    Planner(List<Transform> transforms, boolean localPreAggregation) {
        this.transforms = transforms;
        this.localPreAggregation = localPreAggregation;
    }

    Dag createDag() {
        if (transforms.isEmpty()) {
            throw new IllegalStateException("the pipeline is empty: start it with readFrom(...)");
        }
        findFusableChains();
        long watermarkGranularity = watermarkGranularity();
        for (Transform t : transforms) {
            if (t.downstream.isEmpty() && !(t instanceof Transform.SinkTransform)) {
                throw new IllegalStateException("stage '" + t.name + "' leads nowhere: end it with writeTo(...)");
            }
            if (t instanceof Transform.Source s) {
                planSource(s, watermarkGranularity);
            } else if (t instanceof Transform.Stateless s) {
                planStateless(s);
            } else if (t instanceof Transform.GroupAggregate g) {
                planGroupAggregate(g);
            } else if (t instanceof Transform.WindowAggregate w) {
                planWindowAggregate(w);
            } else if (t instanceof Transform.MapStateful m) {
                planMapStateful(m);
            } else if (t instanceof Transform.HashJoin j) {
                planHashJoin(j);
            } else if (t instanceof Transform.SinkTransform s) {
                planSink(s);
            }
        }
        return dag;
    }

    /** A stateless transform joins its upstream's chain when it is that upstream's only consumer. */
    private void findFusableChains() {
        for (Transform t : transforms) {
            if (t instanceof Transform.Stateless s) {
                Transform up = s.upstream.get(0);
                List<Transform.Stateless> chain = up instanceof Transform.Stateless && up.downstream.size() == 1 ? chains.get(up) : new ArrayList<>();
                chain.add(s);
                chains.put(s, chain);
            }
        }
        for (List<Transform.Stateless> chain : chains.values()) {
            Transform up = chain.get(0).upstream.get(0);
            boolean fusable = up instanceof Transform.WindowAggregate || up instanceof Transform.Source;
            if (fusable && up.downstream.size() == 1 && chain.stream().noneMatch(c -> c.flat)) {
                fusedIntoUpstream.put(up, chain);
            }
        }
        if (localPreAggregation) {
            for (Transform t : transforms) {
                if (t instanceof Transform.WindowAggregate w && w.upstream.get(0).downstream.size() == 1) {
                    Transform source = sourceOutputting(w.upstream.get(0));
                    if (source != null) {
                        windowFusedIntoSource.put(source, w);
                    }
                }
            }
        }
    }

    /** The source whose vertex outputs {@code t}: the source itself, or the end of the chain fused into it; else null. */
    private Transform sourceOutputting(Transform t) {
        if (t instanceof Transform.Source) {
            return t;
        }
        if (t instanceof Transform.Stateless s) {
            List<Transform.Stateless> chain = chains.get(s);
            Transform up = chain.get(0).upstream.get(0);
            if (up instanceof Transform.Source && fusedIntoUpstream.get(up) == chain && chain.get(chain.size() - 1) == s) {
                return up;
            }
        }
        return null;
    }

    /** The vertex that outputs {@code t} (a source or window aggregate), with the chain after it fused in if there is one. */
    private Vertex outputVertexWithChain(Transform t, String name, Supplier<? extends Processor> processor) {
        List<Transform.Stateless> chain = fusedIntoUpstream.get(t);
        return dag.newVertex(uniqueName(chain == null ? name : fusedName(name, chain)), withFusedChain(t, processor));
    }

    /** {@code processor} with the chain fused into {@code t}'s output mapping what it emits, if there is one. */
    private Supplier<? extends Processor> withFusedChain(Transform t, Supplier<? extends Processor> processor) {
        List<Transform.Stateless> chain = fusedIntoUpstream.get(t);
        if (chain == null) {
            return processor;
        }
        Function<Object, Object> fn = compose(chain);
        return () -> new FusedOutputP(processor.get(), fn);
    }

    private static String fusedName(String first, List<Transform.Stateless> chain, String... after) {
        List<String> names = new ArrayList<>(List.of(first));
        chain.forEach(c -> names.add(c.name));
        names.addAll(List.of(after));
        return "fused(" + String.join(", ", names) + ")";
    }

    /**
     * Watermarks step by the slides' greatest common divisor, so each is the end of some window;
     * expiring state wants every millisecond. 0: nothing needs watermarks, the sources emit none.
     */
    private long watermarkGranularity() {
        long gcd = 0;
        for (Transform t : transforms) {
            if (t instanceof Transform.WindowAggregate w) {
                gcd = gcd(gcd, w.window.slide());
            } else if (t instanceof Transform.MapStateful m && m.expiring) {
                gcd = 1;
            }
        }
        return gcd;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private void planSource(Transform.Source s, long watermarkGranularity) {
        WatermarkPolicy watermarks = s.timestampFn != null && watermarkGranularity > 0
                ? new WatermarkPolicy(s.timestampFn, s.allowedLag, watermarkGranularity)
                : null;
        Transform.WindowAggregate window = windowFusedIntoSource.get(s);
        // Sums under long keys keep nothing of an item once folded in.
        boolean reusableItems = window != null && AccumulateByFrameP.sumsUnderLongKeys(window.operation, window.keyFn);
        Supplier<? extends Processor> source = s.processorsFn.apply(new SourcePlan(watermarks, reusableItems));
        if (window == null) {
            outputVertex.put(s, outputVertexWithChain(s, s.name, source));
            return;
        }
        Supplier<? extends Processor> sourceWithChain = withFusedChain(s, source);
        String name = fusedName(s.name, fusedIntoUpstream.getOrDefault(s, List.of()), ACCUMULATE_BY_FRAME);
        outputVertex.put(s, dag.newVertex(uniqueName(name), () -> new FusedAccumulateP(sourceWithChain.get(), accumulateByFrame(window))));
    }

    private void planStateless(Transform.Stateless s) {
        List<Transform.Stateless> chain = chains.get(s);
        if (fusedIntoUpstream.get(chain.get(0).upstream.get(0)) == chain) {
            outputVertex.put(s, outputVertex.get(chain.get(0).upstream.get(0)));
            return;
        }
        if (chain.get(0) != s) {
            outputVertex.put(s, outputVertex.get(chain.get(0)));
            return;
        }
        String name = chain.size() == 1 ? s.name : "fused(" + String.join(", ", chain.stream().map(c -> c.name).toList()) + ")";
        boolean flat = chain.stream().anyMatch(c -> c.flat);
        Vertex v = flat
                ? dag.newVertex(uniqueName(name), () -> TransformP.flatMapping(composeFlat(chain)))
                : dag.newVertex(uniqueName(name), () -> TransformP.mapping(compose(chain)));
        connect(s.upstream.get(0), v, edge -> edge.isolated());
        chain.forEach(c -> outputVertex.put(c, v));
    }

    /** Maps and filters composed into one function; null from any step ends the item. */
    private static Function<Object, Object> compose(List<Transform.Stateless> chain) {
        Function<Object, Object> composed = null;
        for (Transform.Stateless step : chain) {
            Function<Object, ?> fn = step.fn;
            Function<Object, Object> prev = composed;
            composed = prev == null ? fn::apply : item -> {
                Object r = prev.apply(item);
                return r == null ? null : fn.apply(r);
            };
        }
        return composed;
    }

    /** A chain with at least one flatMap: each step widens a traverser. */
    private static Function<Object, Traverser<?>> composeFlat(List<Transform.Stateless> chain) {
        return item -> {
            Traverser<Object> t = Traversers.singleton(item);
            for (Transform.Stateless step : chain) {
                t = step.flat ? t.flatMap(step::traverse) : t.map(step.fn);
            }
            return t;
        };
    }

    private void planGroupAggregate(Transform.GroupAggregate g) {
        planTwoStages(g, "accumulate-by-key", () -> new AccumulateByKeyP(g.keyFn, g.operation),
                () -> dag.newVertex(uniqueName(g.name), () -> new CombineByKeyP(g.operation, g.outputFn)), g.keyed, g.keyFn);
    }

    @SuppressWarnings("unchecked")
    private void planWindowAggregate(Transform.WindowAggregate w) {
        if (w.overKeys != null) {
            planWindowAggregateOverKeys(w);
            return;
        }
        Supplier<Processor> window = AccumulateByFrameP.sumsUnderLongKeys(w.operation, w.keyFn)
                ? () -> SlidingWindowP.underLongKeys(w.window, (AggregateOperation<?, LongAccumulator, Long>) w.operation, w.outputFn)
                : () -> new SlidingWindowP(w.window, w.operation, w.outputFn);
        planTwoStages(w, ACCUMULATE_BY_FRAME, () -> accumulateByFrame(w), () -> outputVertexWithChain(w, w.name, window), w.keyed, w.keyFn);
    }

    private static AccumulateByFrameP accumulateByFrame(Transform.WindowAggregate w) {
        return new AccumulateByFrameP(w.keyFn, w.timestampFn, w.window, w.operation);
    }

    /**
     * The keyed window's two stages, whose second folds each window's keys into one partial, then a
     * global tumbling window one slide long that combines the partials of a window (ending at its end).
     */
    @SuppressWarnings("unchecked")
    private void planWindowAggregateOverKeys(Transform.WindowAggregate w) {
        planTwoStages(w, ACCUMULATE_BY_FRAME, () -> accumulateByFrame(w),
                () -> dag.newVertex(uniqueName(w.name),
                        () -> SlidingWindowP.overKeys(w.window, (AggregateOperation<?, LongAccumulator, Long>) w.operation, w.overKeys)),
                true, w.keyFn);
        Vertex perKey = outputVertex.get(w);
        WindowDefinition oneSlide = WindowDefinition.tumbling(w.window.slide());
        Vertex overKeys = outputVertexWithChain(w, "combine-over-keys", () -> new SlidingWindowP(oneSlide, w.overKeys.combining(), w.outputFn));
        dag.edge(toOwner(Edge.between(perKey, overKeys), false));
        outputVertex.put(w, overKeys);
    }

    /**
     * Accumulate next to the input (isolated edge; in the source's vertex when fused there), combine
     * on the key's owner (or on one instance).
     * Without local pre-aggregation the raw items go to the key's owner first, and its accumulator
     * hands the partials to the combiner of the same keys next to it.
     */
    private void planTwoStages(Transform t, String accumulateName, Supplier<Processor> accumulateP, Supplier<Vertex> combineVertex, boolean keyed,
                               Function<?, ?> keyFn) {
        boolean inSource = windowFusedIntoSource.containsValue(t);
        Vertex accumulate = inSource ? outputVertex.get(t.upstream.get(0)) : dag.newVertex(uniqueName(accumulateName), accumulateP);
        Vertex combine = combineVertex.get();
        if (!inSource) {
            connect(t.upstream.get(0), accumulate, localPreAggregation
                    ? Edge::isolated
                    : edge -> (keyed ? edge.partitioned(keyFn::apply) : edge.allToOne()).distributed());
        }
        nextOutputOrdinal.put(accumulate, 1);
        nextInputOrdinal.put(combine, 1);
        Edge partials = Edge.between(accumulate, combine);
        if (!localPreAggregation) {
            partials.isolated();
        } else if (keyed && t instanceof Transform.WindowAggregate w && AccumulateByFrameP.sumsUnderLongKeys(w.operation, w.keyFn)) {
            partials.partitioned((LongKeyFn<LongKeyedSum>) LongKeyedSum::key).distributed();
        } else {
            toOwner(partials, keyed);
        }
        dag.edge(partials);
        outputVertex.put(t, combine);
    }

    /** Partials go to the owner of their key, or all to one instance for a global aggregate. */
    private static Edge toOwner(Edge edge, boolean keyed) {
        return (keyed ? edge.partitioned((KeyedFrame f) -> f.key()) : edge.allToOne()).distributed();
    }

    private void planMapStateful(Transform.MapStateful m) {
        Vertex v = dag.newVertex(uniqueName(m.name), () -> new MapStatefulP(m.keyFn, m.createStateFn, m.mapFn, m.expiring));
        connect(m.upstream.get(0), v, edge -> edge.partitioned(m.keyFn).distributed());
        outputVertex.put(m, v);
    }

    private void planHashJoin(Transform.HashJoin j) {
        Vertex v = dag.newVertex(uniqueName(j.name), () -> new HashJoinP(j.clause.streamKeyFn(), j.clause.buildKeyFn(), j.mapFn, j.inner));
        connect(j.upstream.get(0), v, Edge::isolated);
        connect(j.upstream.get(1), v, edge -> edge.broadcast().distributed().priority(-1));
        outputVertex.put(j, v);
    }

    private void planSink(Transform.SinkTransform s) {
        Vertex v = dag.newVertex(uniqueName(s.name), s.processors);
        connect(s.upstream.get(0), v, Edge::isolated);
    }

    /** Adds an edge from the vertex that outputs {@code upstream} to {@code v}, on the next free ordinals. */
    private void connect(Transform upstream, Vertex v, Function<Edge, Edge> configure) {
        Vertex from = outputVertex.get(upstream);
        int out = nextOutputOrdinal.merge(from, 1, Integer::sum) - 1;
        int in = nextInputOrdinal.merge(v, 1, Integer::sum) - 1;
        dag.edge(configure.apply(Edge.from(from, out, v, in)));
    }

    private String uniqueName(String base) {
        String name = base;
        for (int i = 2; dag.vertex(name) != null; i++) {
            name = base + "-" + i;
        }
        return name;
    }
}
