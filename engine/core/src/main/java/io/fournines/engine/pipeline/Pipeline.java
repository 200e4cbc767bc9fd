package io.fournines.engine.pipeline;

import io.fournines.engine.dag.Dag;

import java.util.ArrayList;
import java.util.List;

/**
 * A computation written stage by stage with a fluent API; the planner turns it into a DAG. Start
 * from {@link #readFrom}, end every branch in {@code writeTo}.
 */
public final class Pipeline {

    private final List<Transform> transforms = new ArrayList<>();
    private boolean localPreAggregation = true;

    private Pipeline() {
    }

    public static Pipeline create() {
        return new Pipeline();
    }

    public <T> BatchStage<T> readFrom(BatchSource<T> source) {
        Transform.Source t = new Transform.Source("source(" + source.name() + ")", plan -> source.processors());
        return new BatchStage<>(this, add(t));
    }

    public <T> StreamSourceStage<T> readFrom(StreamSource<T> source) {
        Transform.Source t = new Transform.Source("source(" + source.name() + ")", source.processorsFn());
        add(t);
        return new StreamSourceStage<>(this, t);
    }

    /**
     * Whether aggregations fold items on the member that made them before partials cross to the
     * key's owner (the default). Off, raw items cross instead: only for measuring what the local
     * stage saves on the network.
     */
    public Pipeline localPreAggregation(boolean enabled) {
        this.localPreAggregation = enabled;
        return this;
    }

    /** The DAG this pipeline runs as, after fusion and the splitting of aggregations into two stages. */
    public Dag toDag() {
        return new Planner(transforms, localPreAggregation).createDag();
    }

    /** The planned DAG, printed: shows which stages were fused and how edges route. */
    public String explain() {
        return toDag().toString();
    }

    <T extends Transform> T add(T transform) {
        transforms.add(transform);
        return transform;
    }
}
