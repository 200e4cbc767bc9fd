package io.fournines.engine.pipeline;

import io.fournines.engine.processor.MapStatefulPExpiryTest.Times;
import io.fournines.engine.processor.ScheduleMonitor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Expiring state in a running job: the watermarks that flow through it keep each key's state small. */
class ExpiringStateTest extends TestEngines {

    private static final int ITEMS = 20_000;
    private static final int KEYS = 4;

    @Test
    void stateHoldsOnlyWhatTheWatermarkHasNotPassed() {
        List<Integer> held = Collections.synchronizedList(new ArrayList<>());
        Pipeline p = Pipeline.create();
        // Item i at event time i: each key sees every KEYS-th millisecond.
        p.readFrom(Sources.generator(20_000, ITEMS, (sequence, scheduled) -> sequence, new ScheduleMonitor()))
         .withTimestamps((Long item) -> item, 0)
         .groupingKey(item -> item % KEYS)
         .mapStatefulExpiring(Times::new, (Times times, Long key, Long item) -> {
             times.held.add(item);
             return times.held.size();
         })
         .writeTo(Sinks.list(held));

        engine.newJob(p).join();

        assertThat(held).hasSize(ITEMS);
        // Without expiry a key would end up holding ITEMS / KEYS times; with it, those since the
        // slowest source instance's watermark (tens of milliseconds, more on a loaded machine).
        assertThat(held.stream().mapToInt(Integer::intValue).max().orElseThrow()).isLessThan(ITEMS / KEYS / 2);
    }
}
