package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fournines.nexmark.driver.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The runner's fields of a checked run: read, or refused naming the field and the value. */
class CheckedRunTest {

    private static CheckedRun of(String fields) throws Exception {
        return CheckedRun.of(new ObjectMapper().readTree(("{" + fields + "}").replace('\'', '"')), 3);
    }

    @Test
    void aJobWithoutTheFieldsIsNoCheckedRun() throws Exception {
        assertThat(of("'name':'q5'")).isEqualTo(CheckedRun.NONE);
    }

    @Test
    void theChaosPointFailsOnlyTheChosenMember() throws Exception {
        CheckedRun run = of("'start_epoch_ns':1000000,'record_results':true,'chaos_point':{'member':1,'at':'snapshot:2','then':'fail'}");
        assertThat(run.startEpochNanos()).isEqualTo(1_000_000);
        assertThat(run.chaosPoint(0, Path.of("."), () -> false, () -> true)).isSameAs(ChaosPoint.NEVER);
        assertThat(run.chaosPoint(1, Path.of("."), () -> false, () -> true)).isNotSameAs(ChaosPoint.NEVER);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "'start_epoch_ns':1500000                                                     | start_epoch_ns: must be a positive whole number of milliseconds in nanoseconds; is 1500000",
        "'record_results':'yes'                                                       | record_results: must be true or false; is \"yes\"",
        "'chaos_point':{'member':0,'at':'snapshot:2','then':'fail'}                   | chaos_point: is a moment of the recording sink, so it needs record_results true",
        "'record_results':true,'chaos_point':{'member':3,'at':'snapshot:2','then':'fail'}   | chaos_point.member: must be \"coordinator\" or a member index from 0 to 2; is 3",
        "'record_results':true,'chaos_point':{'member':0,'at':'snapshot:2','then':'stop'}   | chaos_point.then: must be \"fail\" or \"freeze\"; is \"stop\"",
        "'record_results':true,'chaos_point':{'member':0,'at':'snapshot:0','then':'fail'}   | chaos_point.at: must be event:N, processing:N, snapshot:N or committed:N with N at least 1; is \"snapshot:0\"",
    })
    void aBadFieldIsNamedWithItsValue(String fields, String message) {
        assertThatThrownBy(() -> of(fields)).isInstanceOf(ScenarioException.class).hasMessage(message);
    }
}
