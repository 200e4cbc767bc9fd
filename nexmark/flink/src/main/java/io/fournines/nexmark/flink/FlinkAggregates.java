package io.fournines.nexmark.flink;

import io.fournines.nexmark.query.TiedForMax;
import org.apache.flink.api.common.functions.AggregateFunction;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/** The window aggregates, incremental (one accumulator per key and window, merged for combining). */
final class FlinkAggregates {

    private FlinkAggregates() {
    }

    interface Value<T> extends ToLongFunction<T>, Serializable {
    }

    /** Counts elements. */
    static final class Count<T> implements AggregateFunction<T, Long, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(T value, Long count) {
            return count + 1;
        }

        @Override
        public Long getResult(Long count) {
            return count;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    /** Every element tied for the highest value: the reference engine's {@link TiedForMax}. */
    static final class TiedMax<T> implements AggregateFunction<T, TiedForMax<T>, List<T>> {
        private static final long serialVersionUID = 1L;
        private final Value<T> value;

        TiedMax(Value<T> value) {
            this.value = value;
        }

        @Override
        public TiedForMax<T> createAccumulator() {
            return new TiedForMax<>();
        }

        @Override
        public TiedForMax<T> add(T item, TiedForMax<T> acc) {
            acc.offer(value.applyAsLong(item), item);
            return acc;
        }

        @Override
        public List<T> getResult(TiedForMax<T> acc) {
            return acc.items();
        }

        @Override
        public TiedForMax<T> merge(TiedForMax<T> a, TiedForMax<T> b) {
            a.combine(b);
            return a;
        }
    }

    /** Q8: the names of the persons and the reserves of the auctions of one person id, in one window. */
    static final class NewUsers implements AggregateFunction<FlinkRecords.PersonOrAuction, NewUsers.Group, NewUsers.Group> {
        private static final long serialVersionUID = 1L;

        static final class Group {
            final List<String> names = new ArrayList<>();
            final List<Long> reserves = new ArrayList<>();
        }

        @Override
        public Group createAccumulator() {
            return new Group();
        }

        @Override
        public Group add(FlinkRecords.PersonOrAuction event, Group group) {
            if (event.person) {
                group.names.add(event.name);
            } else {
                group.reserves.add(event.reserve);
            }
            return group;
        }

        @Override
        public Group getResult(Group group) {
            return group;
        }

        @Override
        public Group merge(Group a, Group b) {
            a.names.addAll(b.names);
            a.reserves.addAll(b.reserves);
            return a;
        }
    }
}
