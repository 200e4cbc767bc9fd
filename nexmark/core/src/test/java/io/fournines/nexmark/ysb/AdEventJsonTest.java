package io.fournines.nexmark.ysb;

import io.fournines.nexmark.codec.MalformedEventException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdEventJsonTest {

    private static final AdEvent EVENT = new AdEvent("u-1", "p-1", "a-1", "banner", "view", 1_767_225_600_123L, "10.0.0.1");
    private static final String LINE = "{\"user_id\":\"u-1\",\"page_id\":\"p-1\",\"ad_id\":\"a-1\",\"ad_type\":\"banner\","
            + "\"event_type\":\"view\",\"event_time\":\"1767225600123\",\"ip_address\":\"10.0.0.1\"}";

    @Test
    void anEventIsWrittenAsYsbWritesItAndReadBack() {
        assertThat(AdEventJson.write(EVENT)).isEqualTo(LINE);
        assertThat(AdEventJson.read(LINE, 1)).isEqualTo(EVENT);
        AdEvent generated = new YsbGenerator(7, new YsbAds(7, 100)).event(3, 1_767_225_600_000_000_000L);
        assertThat(AdEventJson.read(AdEventJson.write(generated), 1)).isEqualTo(generated);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"user_id\":\"u\"}|line 9, field page_id: missing",
        "not json|line 9: not JSON",
        "[1]|line 9: not a JSON object: '[1]'",
        "{\"event_time\":17}|line 9, field event_time: must be a string; is '17'",
        "{\"size\":\"1\"}|line 9, field size: unknown field; a YSB event has user_id, page_id",
        "{\"ad_id\":\"a\",\"ad_id\":\"b\"}|line 9, field ad_id: given twice",
    })
    void aBadLineIsRefusedNamingItsLineAndField(String line, String message) {
        assertThatThrownBy(() -> AdEventJson.read(line, 9)).isInstanceOf(MalformedEventException.class).hasMessageContaining(message);
    }

    @Test
    void anEventTimeThatIsNotEpochMillisecondsIsNamedWithItsValue() {
        String bad = LINE.replace("1767225600123", "yesterday");
        assertThatThrownBy(() -> AdEventJson.read(bad, 2))
                .hasMessage("line 2, field event_time: must be epoch milliseconds (digits); is 'yesterday'");
    }
}
