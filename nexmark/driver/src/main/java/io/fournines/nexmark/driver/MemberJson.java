package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.stream.Collectors;

/** The fields of member.json the member contract requires, the same for every engine's member. */
public final class MemberJson {

    private MemberJson() {
    }

    /**
     * @param startMicros t0 of the run (the latency logs' start), epoch microseconds
     * @param late        events a window dropped as behind the watermark
     */
    public static ObjectNode contractFields(ObjectMapper json, long startMicros, long generated, long processed, long late, double achievedRate) {
        ObjectNode m = json.createObjectNode();
        m.put("started_at", Instant.ofEpochSecond(startMicros / 1_000_000, (startMicros % 1_000_000) * 1_000).toString());
        m.put("events_generated", generated);
        m.put("events_processed", processed);
        m.put("late_events", late);
        // The open-loop source never drops an event: it falls behind, and that shows as latency.
        m.put("dropped_events", 0);
        m.put("achieved_rate", achievedRate);
        m.put("jdk", System.getProperty("java.runtime.version"));
        m.put("gc", ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).collect(Collectors.joining(", ")));
        m.putPOJO("jvm_flags", ManagementFactory.getRuntimeMXBean().getInputArguments());
        return m;
    }
}
