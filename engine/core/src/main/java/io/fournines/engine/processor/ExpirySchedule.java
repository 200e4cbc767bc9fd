package io.fournines.engine.processor;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * The keys of a stateful processor in the order their states next expire. A key rescheduled
 * earlier leaves its old entry in the queue, skipped when it comes up: cheaper than removing it.
 */
final class ExpirySchedule {

    private record Entry(long time, Object key) {
    }

    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> Long.compare(a.time, b.time));
    private final Map<Object, Long> scheduled = new HashMap<>();

    /** Notes the key's state after a change: it is due at {@code time} if that is earlier than it was. */
    void update(Object key, long time) {
        Long due = scheduled.get(key);
        if (time != Long.MAX_VALUE && (due == null || time < due)) {
            scheduled.put(key, time);
            queue.add(new Entry(time, key));
        }
    }

    /** Takes every key due at or before {@code watermark} off the schedule, handing each to {@code dueKey} once. */
    void takeDue(long watermark, Consumer<Object> dueKey) {
        for (Entry head; (head = queue.peek()) != null && head.time <= watermark; ) {
            queue.poll();
            Long due = scheduled.get(head.key);
            if (due != null && due == head.time) {
                scheduled.remove(head.key);
                dueKey.accept(head.key);
            }
        }
    }
}
