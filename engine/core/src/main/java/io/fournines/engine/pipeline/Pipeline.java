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

    private Pipeline() {
    }

    public static Pipeline create() {
        return new Pipeline();
    }

    public <T> BatchStage<T> readFrom(BatchSource<T> source) {
        Transform.Source t = new Transform.Source("source(" + source.name() + ")", watermarks -> source.processors());
        return new BatchStage<>(this, add(t));
    }

    public <T> StreamSourceStage<T> readFrom(StreamSource<T> source) {
        Transform.Source t = new Transform.Source("source(" + source.name() + ")", source.processorsFn());
        add(t);
        return new StreamSourceStage<>(this, t);
    }

    /** The DAG this pipeline runs as, after fusion and the splitting of aggregations into two stages. */
    public Dag toDag() {
        return new Planner(transforms).createDag();
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
