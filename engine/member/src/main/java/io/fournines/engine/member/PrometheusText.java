package io.fournines.engine.member;

import io.fournines.engine.cluster.Cluster;
import io.fournines.engine.cluster.JobControl;
import io.fournines.engine.cluster.JobPart;
import io.fournines.engine.execution.VertexSamples;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The member's metrics in Prometheus text format: per vertex items in and out, per network stream
 * (distributed edge and member) items and bytes sent, credit stalls and entries received but not yet
 * delivered to the consumers' queues (the receive buffer's fill), the sources' schedule lag, the
 * sampler's counts of each vertex's busy and backpressured time and input queue fill ({@link
 * VertexSamples}), and which members are up.
 */
final class PrometheusText {

    private PrometheusText() {
    }

    static String of(JobControl member) {
        Cluster cluster = member.cluster();
        StringBuilder b = new StringBuilder();
        b.append("# TYPE fournines_member_up gauge\n");
        for (int m = 0; m < cluster.size(); m++) {
            b.append("fournines_member_up{member=\"").append(m).append("\"} ").append(m == cluster.self() || cluster.lostCause(m) == null ? 1 : 0).append('\n');
        }
        b.append("# TYPE fournines_vertex_items_total counter\n");
        b.append("# TYPE fournines_network_total counter\n");
        b.append("# TYPE fournines_network_receive_buffered_entries gauge\n");
        b.append("# TYPE fournines_source_schedule_lag_seconds gauge\n");
        b.append("# TYPE fournines_vertex_watermark_lag_seconds gauge\n");
        b.append("# TYPE fournines_vertex_samples_total counter\n");
        for (JobControl.JobState job : member.jobs().values()) {
            JobPart run = job.part;
            if (run == null) {
                continue;
            }
            String jobLabel = "job=\"" + job.id + "\"";
            Map<String, Map<String, Long>> byOwner = new TreeMap<>();
            run.metrics().forEach((key, value) -> {
                int dot = key.lastIndexOf('.');
                byOwner.computeIfAbsent(key.substring(0, dot), k -> new TreeMap<>()).put(key.substring(dot + 1), value);
            });
            byOwner.forEach((owner, counters) -> {
                if (owner.startsWith("net:")) {
                    String stream = jobLabel + ",stream=\"" + escape(owner.substring(4)) + "\"";
                    counters.forEach((name, value) -> b.append("fournines_network_total{").append(stream).append(",counter=\"").append(name)
                            .append("\"} ").append(value).append('\n'));
                    if (counters.containsKey("receivedEntries")) {
                        b.append("fournines_network_receive_buffered_entries{").append(stream).append("} ")
                         .append(counters.get("receivedEntries") - counters.getOrDefault("deliveredEntries", 0L)).append('\n');
                    }
                } else {
                    String vertex = jobLabel + ",vertex=\"" + escape(owner) + "\"";
                    counters.forEach((name, value) -> {
                        if (name.startsWith("watermark#")) {
                            // Event time is epoch milliseconds (the generator's schedule), so wall clock minus it is the lag.
                            if (value > 0 && value != Long.MAX_VALUE) {
                                b.append("fournines_vertex_watermark_lag_seconds{").append(vertex).append(",instance=\"")
                                 .append(name.substring("watermark#".length())).append("\"} ")
                                 .append(String.format(Locale.ROOT, "%.3f", (System.currentTimeMillis() - value) / 1e3)).append('\n');
                            }
                        } else if (VertexSamples.isSampleCounter(name)) {
                            b.append("fournines_vertex_samples_total{").append(vertex).append(",counter=\"").append(name)
                             .append("\"} ").append(value).append('\n');
                        } else {
                            b.append("fournines_vertex_items_total{").append(vertex).append(",counter=\"").append(name)
                             .append("\"} ").append(value).append('\n');
                        }
                    });
                }
            });
            b.append("fournines_source_schedule_lag_seconds{").append(jobLabel).append("} ")
             .append(String.format(Locale.ROOT, "%.6f", run.scheduleLagNanos() / 1e9)).append('\n');
        }
        return b.toString();
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
