package io.fournines.nexmark.queries;

import io.fournines.engine.pipeline.BatchStage;
import io.fournines.engine.pipeline.JoinClause;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.BidWithSideInput;
import io.fournines.nexmark.query.SideInputRow;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Q13: every bid joined with a bounded side input of {@code rows} rows, keys 0 to rows-1 and value
 * the key as text (Beam's generated side input), on {@code bidder % rows}. The side input is a batch
 * stage broadcast to a hash join, so it is complete before the first bid is joined.
 *
 * <p>Needs the pipeline because the side input is a source of its own; attach it once.
 */
public final class Q13BoundedSideInputJoin implements PerEventQuery<BidWithSideInput> {

    private final Pipeline pipeline;
    private final int rows;

    public Q13BoundedSideInputJoin(Pipeline pipeline, int rows) {
        if (rows < 1) {
            throw new IllegalArgumentException("side input rows must be at least 1, got " + rows);
        }
        this.pipeline = pipeline;
        this.rows = rows;
    }

    /** Beam's side input: key i, value the decimal text of i. */
    public static List<SideInputRow> sideInput(int rows) {
        List<SideInputRow> side = new ArrayList<>(rows);
        for (long key = 0; key < rows; key++) {
            side.add(new SideInputRow(key, Long.toString(key)));
        }
        return side;
    }

    @Override
    public <T, O> StreamStage<O> attach(StreamStage<T> items, Function<? super T, ? extends Event> eventOf,
                                        BiFunction<? super T, ? super BidWithSideInput, ? extends O> withResult) {
        BatchStage<SideInputRow> side = pipeline.readFrom(Sources.list(sideInput(rows)));
        long modulus = rows;
        return items.filter(item -> eventOf.apply(item) instanceof Bid)
                    .innerHashJoin(side,
                            JoinClause.onKeys(item -> Math.floorMod(((Bid) eventOf.apply(item)).bidder(), modulus), SideInputRow::key),
                            (item, row) -> {
                                Bid bid = (Bid) eventOf.apply(item);
                                return withResult.apply(item, new BidWithSideInput(bid.auction(), bid.bidder(), bid.price(), bid.dateTime(), row.value()));
                            });
    }
}
