package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several jobs of one query in the member's one engine ({@code jobs}), run in-process for a few
 * seconds: each job processes its share of the rate, records into logs of its own, and the run's
 * logs hold exactly every job's values, so the run reads as one job's would.
 */
class SeveralJobsRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int JOBS = 3;
    /** Not a multiple of 3: the first job gets the extra event/s. */
    private static final int RATE = 3_001;
    private static final double SECONDS = 3;

    @TempDir
    Path dir;

    @Test
    void threeQ5JobsEachProcessTheirShareAndTheRunsLogsAreTheirsMerged() throws IOException {
        List<String> stdout = InProcessMember.run(dir, "{\"name\":\"t\",\"query\":{\"name\":\"q5\",\"window_ms\":1000,\"slide_ms\":100},"
                + "\"load\":{\"rate\":" + RATE + ",\"source\":\"in-process\",\"keys\":1000,\"partitions\":2},"
                + "\"cluster\":{\"members\":1,\"threads\":2,\"jvm_opts\":[],\"gc\":\"g1\"},\"guarantee\":\"none\",\"mode\":\"single\","
                + "\"jobs\":" + JOBS + ",\"faults\":[],\"warmup_s\":1,\"duration_s\":2}", 0);
        assertThat(stdout).last().isEqualTo("{\"type\":\"done\"}");
        assertThat(JSON.readTree(stdout.get(0)).get("target_rate").asLong()).as("the progress line's rate is the run's").isEqualTo(RATE);

        JsonNode member = JSON.readTree(dir.resolve("member.json").toFile());
        JsonNode perJob = member.get("per_job");
        assertThat(perJob).hasSize(JOBS);
        long processed = 0;
        for (int k = 0; k < JOBS; k++) {
            JsonNode job = perJob.get(k);
            long share = k == 0 ? 1_001 : 1_000;
            assertThat(job.get("job").asInt()).isEqualTo(k + 1);
            assertThat(job.get("folder").asText()).isEqualTo("job-" + (k + 1));
            assertThat(job.get("target_rate").asLong()).isEqualTo(share);
            assertThat(job.get("seed").asLong()).as("each job its own events").isEqualTo(k + 1);
            assertThat(job.get("events_processed").asLong()).as("job %d: its share of the rate for %s s", k + 1, SECONDS)
                    .isBetween((long) (share * SECONDS * 0.75), (long) (share * SECONDS * 1.1));
            processed += job.get("events_processed").asLong();
            Path folder = dir.resolve("job-" + (k + 1));
            for (String log : List.of("latency.hlog", "completion.hlog")) {
                assertThat(InProcessMember.valuesIn(folder.resolve(log))).as("job %d's %s", k + 1, log).isPositive()
                        .isEqualTo(job.get("hlog_values_written").get(log).asLong());
            }
        }
        assertThat(member.get("events_processed").asLong()).as("the run's count is the jobs' sum").isEqualTo(processed);
        for (String log : List.of("latency.hlog", "completion.hlog")) {
            long sumOfJobs = 0;
            for (int k = 1; k <= JOBS; k++) {
                sumOfJobs += InProcessMember.valuesIn(dir.resolve("job-" + k).resolve(log));
            }
            assertThat(InProcessMember.valuesIn(dir.resolve(log))).as("the run's %s holds every job's values, merged", log).isEqualTo(sumOfJobs);
        }
        assertThat(member.get("hlog_values_written").properties()).as("only the run's own logs, as with one job")
                .extracting(java.util.Map.Entry::getKey).containsExactly("latency.hlog", "completion.hlog");
    }
}
