package io.fournines.nexmark.flink;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.nexmark.driver.EngineAdapter;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.driver.RunRef;
import io.fournines.nexmark.driver.Scenario;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.FileUtils;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Apache Flink 1.20 as a peer: a MiniCluster in this JVM (one task manager with
 * {@code cluster.threads} slots, REST on loopback), the query as a DataStream job with parallelism
 * {@code cluster.threads} (see {@link FlinkQueries}). Tuned for latency as a Flink user would:
 * {@link #BUFFER_TIMEOUT_MS} ms network buffer timeout (the default 100 ms sets a 150-190 ms
 * latency floor), object reuse on, no checkpoints (no guarantee, like the other engines).
 * Flink's temporary files (the RPC system's extracted jar, blobs) go to {@code DIR/flink-tmp},
 * deleted when the cluster closes.
 */
public final class FlinkEngine implements EngineAdapter {

    static final long BUFFER_TIMEOUT_MS = 1;
    private static final long STOP_TIMEOUT_S = 8;

    @Override
    public String name() {
        return "flink";
    }

    @Override
    public EngineAdapter.Running start(Scenario scenario, Path dir) throws Exception {
        Path tmp = dir.resolve("flink-tmp");
        Files.createDirectories(tmp);
        // Read by Flink's RPC loader and blob store; set before the first of them starts.
        System.setProperty("java.io.tmpdir", tmp.toString());
        return new Local(startCluster(scenario.threads(), tmp), scenario.threads(), tmp);
    }

    static MiniCluster startCluster(int slots, Path tmp) throws Exception {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.TMP_DIRS, tmp.toString());
        conf.set(WebOptions.UPLOAD_DIR, tmp.toString());
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(slots).build());
        cluster.start();
        return cluster;
    }

    /** The environment every job is built in: parallelism, latency settings, object reuse. */
    static StreamExecutionEnvironment environment(int parallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        env.setBufferTimeout(BUFFER_TIMEOUT_MS);
        env.getConfig().enableObjectReuse();
        return env;
    }

    /** A submitted job: its id, and its result, which fails with the job's failure. */
    record Submitted(JobID id, CompletableFuture<JobResult> result) {
    }

    static Submitted submit(MiniCluster cluster, StreamExecutionEnvironment env) throws Exception {
        JobGraph graph = env.getStreamGraph().getJobGraph();
        cluster.submitJob(graph).get();
        return new Submitted(graph.getJobID(), cluster.requestJobResult(graph.getJobID()).thenApply(result -> {
            result.getSerializedThrowable().ifPresent(error -> {
                throw new CompletionException(error.deserializeError(FlinkEngine.class.getClassLoader()));
            });
            return result;
        }));
    }

    private static final class Local implements EngineAdapter.Running {
        private final MiniCluster cluster;
        private final int threads;
        private final Path tmp;
        private Submitted job;
        private boolean closed;

        Local(MiniCluster cluster, int threads, Path tmp) {
            this.cluster = cluster;
            this.threads = threads;
            this.tmp = tmp;
        }

        @Override
        public CompletableFuture<?> submit(Scenario scenario, RunContext run) throws Exception {
            StreamExecutionEnvironment env = environment(threads);
            FlinkQueries.build(env, scenario.query(), scenario.parameters(), scenario.generator(), new RunRef(run));
            job = FlinkEngine.submit(cluster, env);
            return job.result();
        }

        @Override
        public void describe(ObjectNode memberJson) {
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("engine_version", "Flink " + EnvironmentInformation.getVersion());
            facts.put("parallelism", threads);
            facts.put("api", "DataStream API");
            facts.put("buffer_timeout_ms", BUFFER_TIMEOUT_MS);
            facts.put("object_reuse", true);
            facts.put("state_backend", "hashmap (heap)");
            facts.put("checkpointing", "off");
            memberJson.putPOJO("engine_settings", facts);
        }

        @Override
        public void close() throws Exception {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (job != null && !job.result().isDone()) {
                    cluster.cancelJob(job.id()).get(STOP_TIMEOUT_S, TimeUnit.SECONDS);
                    try {
                        job.result().get(STOP_TIMEOUT_S, TimeUnit.SECONDS);
                    } catch (Exception cancelled) {
                        // Cancelled as asked; a failure was read by the driver before.
                    }
                }
            } finally {
                cluster.close();
                deleteTemporaryFiles(tmp);
            }
        }
    }

    static void deleteTemporaryFiles(Path tmp) throws IOException {
        FileUtils.deleteDirectory(tmp.toFile());
    }
}
