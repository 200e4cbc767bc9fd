package io.fournines.engine.pipeline;

import io.fournines.engine.processor.ExpiringState;
import io.fournines.engine.processor.ScheduleMonitor;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Expiring state in a running job: the watermarks that flow through it keep each key's state small. */
class ExpiringStateTest extends TestEngines {

    private static final int ITEMS = 20_000;
    private static final int KEYS = 4;

    /** The event times a key holds that the watermark has not passed. */
    static final class Recent implements ExpiringState, Serializable {
        final TreeSet<Long> times = new TreeSet<>();

        @Override
        public long nextExpiry() {
            return times.isEmpty() ? Long.MAX_VALUE : times.first() + 1;
        }

        @Override
        public boolean expire(long watermark) {
            times.headSet(watermark).clear();
            return !times.isEmpty();
        }
    }

    @Test
    void stateHoldsOnlyWhatTheWatermarkHasNotPassed() {
        List<Integer> held = Collections.synchronizedList(new ArrayList<>());
        Pipeline p = Pipeline.create();
        // Item i at event time i: each key sees every KEYS-th millisecond.
        p.readFrom(Sources.generator(20_000, ITEMS, (sequence, scheduled) -> sequence, new ScheduleMonitor()))
         .withTimestamps((Long item) -> item, 0)
         .groupingKey(item -> item % KEYS)
         .mapStatefulExpiring(Recent::new, (Recent recent, Long key, Long item) -> {
             recent.times.add(item);
             return recent.times.size();
         })
         .writeTo(Sinks.list(held));

        engine.newJob(p).join();

        assertThat(held).hasSize(ITEMS);
        // Without expiry a key would end up holding ITEMS / KEYS times; with it, those since the
        // slowest source instance's watermark (tens of milliseconds, more on a loaded machine).
        assertThat(held.stream().mapToInt(Integer::intValue).max().orElseThrow()).isLessThan(ITEMS / KEYS / 2);
    }
}
