package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.JsonNode;
import io.fournines.nexmark.driver.ScenarioException;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * What a runner that checks a job's output ({@code chaos}) adds to the job: the generators' time
 * origin, so it can make the same events again ({@code start_epoch_ns}, a whole millisecond: event
 * i's time is then the origin's millisecond plus {@code nexmark generate}'s offset of i, when
 * 10^9 / rate is whole); every result recorded ({@code record_results}: {@link RecordingSinkP} in
 * the member's {@code recorded/} folder, transactional under exactly-once, appending otherwise);
 * and where one member fails on purpose ({@code chaos_point}: {@link ChaosPoint}).
 *
 * @param chaosMember the member that fails: its index, {@link #COORDINATOR}, or {@link #NOBODY}
 */
record CheckedRun(long startEpochNanos, boolean recordResults, int chaosMember, String chaosAt, boolean chaosFails) {

    static final int COORDINATOR = -1;
    static final int NOBODY = -2;
    static final CheckedRun NONE = new CheckedRun(0, false, NOBODY, null, false);

    /** The runner's fields of {@code job}; {@link #NONE} without them. */
    static CheckedRun of(JsonNode job, int members) throws ScenarioException {
        long start = 0;
        if (job.has("start_epoch_ns")) {
            JsonNode s = job.get("start_epoch_ns");
            if (!s.isIntegralNumber() || !s.canConvertToLong() || s.asLong() <= 0 || s.asLong() % 1_000_000 != 0) {
                throw new ScenarioException("start_epoch_ns: must be a positive whole number of milliseconds in nanoseconds; is " + s);
            }
            start = s.asLong();
        }
        boolean record = false;
        if (job.has("record_results")) {
            if (!job.get("record_results").isBoolean()) {
                throw new ScenarioException("record_results: must be true or false; is " + job.get("record_results"));
            }
            record = job.get("record_results").asBoolean();
        }
        if (!job.has("chaos_point")) {
            return new CheckedRun(start, record, NOBODY, null, false);
        }
        JsonNode point = job.get("chaos_point");
        if (!record) {
            throw new ScenarioException("chaos_point: is a moment of the recording sink, so it needs record_results true");
        }
        JsonNode member = point.path("member");
        int chosen;
        if (member.isTextual() && member.asText().equals("coordinator")) {
            chosen = COORDINATOR;
        } else if (member.isIntegralNumber() && member.asLong() >= 0 && member.asLong() < members) {
            chosen = member.asInt();
        } else {
            throw new ScenarioException("chaos_point.member: must be \"coordinator\" or a member index from 0 to " + (members - 1) + "; is " + member);
        }
        String then = point.path("then").asText("");
        if (!then.equals("fail") && !then.equals("freeze")) {
            throw new ScenarioException("chaos_point.then: must be \"fail\" or \"freeze\"; is " + point.get("then"));
        }
        String at = point.path("at").asText("");
        try {
            ChaosPoint.parse(at, false, null, () -> false);
        } catch (IllegalArgumentException e) {
            throw new ScenarioException("chaos_point.at: " + e.getMessage());
        }
        return new CheckedRun(start, true, chosen, at, then.equals("fail"));
    }

    /**
     * The chaos point of member {@code self}, armed while {@code armed} holds and the member is the
     * one chosen ({@code coordinates}: for {@link #COORDINATOR}); it writes {@code chaos-point-reached}
     * into {@code dir}.
     */
    ChaosPoint chaosPoint(int self, Path dir, BooleanSupplier coordinates, BooleanSupplier armed) {
        if (chaosMember == NOBODY || chaosMember >= 0 && chaosMember != self) {
            return ChaosPoint.NEVER;
        }
        BooleanSupplier chosen = chaosMember == COORDINATOR ? () -> coordinates.getAsBoolean() && armed.getAsBoolean() : armed;
        return ChaosPoint.parse(chaosAt, chaosFails, dir.resolve("chaos-point-reached"), chosen);
    }
}
