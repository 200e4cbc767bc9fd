package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fournines.engine.cluster.InvalidJobException;
import io.fournines.engine.cluster.JobPart;
import io.fournines.engine.cluster.JobRunner;
import io.fournines.nexmark.driver.Scenario;
import io.fournines.nexmark.driver.ScenarioException;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;

/**
 * The benchmark behind {@code serve}: a job's description is a resolved scenario (with the runner's
 * {@code kafka_endpoint}, {@code active_active} or {@link CheckedRun} settings), each member's part a
 * {@link DriverRun} of the reference engine on its {@link ClusterPart}.
 */
final class FourninesJobRunner implements JobRunner {

    private final PrintStream out;
    private final PrintStream err;

    FourninesJobRunner(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public JobSettings settings(String description) throws InvalidJobException {
        Job job = read(description);
        return new JobSettings(job.scenario().members(), FourninesEngine.guarantee(job.scenario()),
                Duration.ofMillis(job.scenario().snapshotIntervalMillis()), job.copy() == null ? job.checked().startEpochNanos() : job.copy().startEpochNanos(),
                FourninesEngine.executionModel(job.scenario().execution()));
    }

    @Override
    public JobPart part(String description, PartContext context) throws InvalidJobException {
        Job job = read(description);
        ClusterPart cluster = new ClusterPart(context.job(), context.member(), context.members(), context.startEpochNanos(), job.copy(),
                context.joined(), job.checked());
        return new FourninesPart(job.scenario(), new FourninesEngine(cluster, err), context.dir(), out);
    }

    private record Job(Scenario scenario, ActiveActiveCopy copy, CheckedRun checked) {
    }

    private static Job read(String description) throws InvalidJobException {
        try {
            JsonNode json = new ObjectMapper().readTree(description);
            Scenario scenario = Scenario.parse(json, FourninesEngine.NAME);
            scenario.checkLoadEndpoint();
            ActiveActiveCopy copy = ActiveActiveCopy.of(json);
            CheckedRun checked = CheckedRun.of(json, scenario.members());
            if (!checked.equals(CheckedRun.NONE) && copy != null) {
                throw new ScenarioException("start_epoch_ns, record_results, chaos_point: a checked run is one copy so far, not active-active");
            }
            return new Job(scenario, copy, checked);
        } catch (IOException e) {
            throw new InvalidJobException("the job is not JSON: " + e.getMessage());
        } catch (ScenarioException e) {
            throw new InvalidJobException(e.getMessage());
        }
    }
}
