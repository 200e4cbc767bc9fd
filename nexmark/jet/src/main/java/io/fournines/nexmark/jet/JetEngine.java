package io.fournines.nexmark.jet;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.BuildInfoProvider;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.core.metrics.Measurement;
import com.hazelcast.jet.pipeline.Pipeline;
import io.fournines.nexmark.driver.EngineAdapter;
import io.fournines.nexmark.driver.JobGraph;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.driver.Scenario;
import io.fournines.nexmark.driver.VertexCounters;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Hazelcast Jet 5.5 as a peer: one embedded member (the open-source Jet engine inside Hazelcast),
 * standalone on loopback, with {@code cluster.threads} cooperative threads, running the query as a
 * Pipeline API job (see {@link JetQueries}).
 */
public final class JetEngine implements EngineAdapter {

    /** The metric Jet's window processors count dropped late events in (no constant for it in MetricNames). */
    private static final String LATE_EVENTS_DROPPED = "lateEventsDropped";

    @Override
    public String name() {
        return "jet";
    }

    @Override
    public EngineAdapter.Running start(Scenario scenario, Path dir) {
        return new Member(startMember(scenario.threads()), scenario.threads());
    }

    /**
     * A standalone member: no multicast, no auto-detection, no TCP join, loopback only, no
     * phone-home; its own shutdown hook off, so SIGTERM stops the job through the driver, in order.
     */
    static HazelcastInstance startMember(int threads) {
        Config config = new Config();
        config.setClusterName("fournines-" + UUID.randomUUID());
        config.setProperty("hazelcast.logging.type", "log4j2");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(false);
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        config.getJetConfig().setEnabled(true).setCooperativeThreadCount(threads);
        return Hazelcast.newHazelcastInstance(config);
    }

    private static final class Member implements EngineAdapter.Running {
        private final HazelcastInstance member;
        private final int threads;
        private com.hazelcast.jet.Job job;
        private volatile JetGraphs graphs;
        private RunContext run;
        private boolean closed;

        Member(HazelcastInstance member, int threads) {
            this.member = member;
            this.threads = threads;
        }

        @Override
        public CompletableFuture<?> submit(Scenario scenario, RunContext run) {
            this.run = run;
            Pipeline pipeline = JetQueries.pipeline(scenario.query(), scenario.parameters(), scenario.generator(), threads, run);
            job = member.getJet().newJob(pipeline, new JobConfig().setName("nexmark-" + scenario.query()));
            graphs = new JetGraphs(pipeline.toDag(), threads);
            return job.getFuture();
        }

        @Override
        public JobGraph graph() {
            JetGraphs g = graphs;
            return g == null ? null : g.graph();
        }

        @Override
        public Map<String, VertexCounters> vertexCounters() {
            JetGraphs g = graphs;
            return g == null || job.getStatus() != JobStatus.RUNNING ? Map.of() : g.counters(job.getMetrics());
        }

        @Override
        public void describe(ObjectNode memberJson) {
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("engine_version", "Hazelcast " + BuildInfoProvider.getBuildInfo().getVersion());
            facts.put("cooperative_threads", threads);
            facts.put("api", "Pipeline API");
            facts.put("processing_guarantee", "none");
            memberJson.putPOJO("engine_settings", facts);
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (job != null) {
                    stop(job);
                }
            } finally {
                member.shutdown();
            }
        }

        private void stop(com.hazelcast.jet.Job job) {
            if (job.getStatus() == JobStatus.RUNNING) {
                // Jet's windows count the events they drop as late; read before the job goes.
                for (Measurement m : job.getMetrics().get(LATE_EVENTS_DROPPED)) {
                    run.lateEvents(m.value());
                }
            }
            if (!job.getFuture().isDone()) {
                job.cancel();
            }
            try {
                job.getFuture().join();
            } catch (RuntimeException cancelledOrFailed) {
                // The driver has already read the job's failure, if it failed.
            }
        }
    }
}
