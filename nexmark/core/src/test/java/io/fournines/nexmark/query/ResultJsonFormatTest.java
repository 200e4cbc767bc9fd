package io.fournines.nexmark.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The result records are the JSON Lines format: their names and order are what the issue specifies. */
class ResultJsonFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> results() {
        return Stream.of(
                Arguments.of(new EuroBid(1, 2, 3, 4), "{\"auction\":1,\"bidder\":2,\"price\":3,\"dateTime\":4}"),
                Arguments.of(new AuctionPrice(123, 5), "{\"auction\":123,\"price\":5}"),
                Arguments.of(new LocalItemSuggestion("N", "C", "OR", 9), "{\"name\":\"N\",\"city\":\"C\",\"state\":\"OR\",\"id\":9}"),
                Arguments.of(new CategoryAverage(0, 10, 11, 7), "{\"start\":0,\"end\":10,\"category\":11,\"average\":7}"),
                Arguments.of(new HotItem(0, 10, 1000, 3), "{\"start\":0,\"end\":10,\"auction\":1000,\"count\":3}"),
                Arguments.of(new SellerAverage(1000, 1001, 7, 5), "{\"seller\":1000,\"auction\":1001,\"average\":7,\"dateTime\":5}"),
                Arguments.of(new HighestBid(0, 10, 1, 2, 3, 4),
                        "{\"start\":0,\"end\":10,\"auction\":1,\"bidder\":2,\"price\":3,\"dateTime\":4}"),
                Arguments.of(new NewUserAuction(0, 10, 1000, "N", 5), "{\"start\":0,\"end\":10,\"id\":1000,\"name\":\"N\",\"reserve\":5}"),
                Arguments.of(new BidWithSideInput(1, 2, 3, 4, "v"),
                        "{\"auction\":1,\"bidder\":2,\"price\":3,\"dateTime\":4,\"value\":\"v\"}"));
    }

    @ParameterizedTest
    @MethodSource("results")
    void serializesWithTheDocumentedFieldsInOrder(Object result, String json) throws Exception {
        assertThat(JSON.writeValueAsString(result)).isEqualTo(json);
        assertThat(JSON.readValue(json, result.getClass())).isEqualTo(result);
    }
}
