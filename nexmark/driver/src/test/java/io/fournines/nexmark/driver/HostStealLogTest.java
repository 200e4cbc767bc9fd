package io.fournines.nexmark.driver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HostStealLogTest {

    @TempDir
    Path dir;

    @Test
    void recordsTheStealColumnSinceTheStartInSeconds() throws IOException {
        Path stat = stat(151_574);
        try (HostStealLog log = HostStealLog.openIfAvailable(dir, stat)) {
            assertThat(log).isNotNull();
            log.sample(0, 1.0);
            stat(151_574 + 7);
            log.sample(0, 2.001);
        }
        assertThat(Files.readAllLines(dir.resolve(HostStealLog.FILE)))
                .containsExactly(HostStealLog.HEADER, "1.000,0.00", "2.001,0.07");
    }

    @Test
    void noFileWhereTheHostCannotSay() throws IOException {
        Files.writeString(dir.resolve("stat"), "intr 1 2 3\n");
        assertThat(HostStealLog.openIfAvailable(dir, dir.resolve("stat"))).isNull();
        assertThat(HostStealLog.openIfAvailable(dir, dir.resolve("absent"))).isNull();
        assertThat(dir.resolve(HostStealLog.FILE)).doesNotExist();
    }

    @Test
    void aReadFailingMidRunNamesTheFile() throws IOException {
        Path stat = stat(5);
        try (HostStealLog log = HostStealLog.openIfAvailable(dir, stat)) {
            Files.delete(stat);
            assertThatThrownBy(() -> log.sample(0, 1.0)).hasMessageContaining("host.csv").hasMessageContaining(stat.toString());
        }
    }

    private Path stat(long steal) throws IOException {
        return Files.writeString(dir.resolve("stat"),
                "cpu  9056430 2259 1100914 6011182 25196 0 53367 " + steal + " 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n");
    }
}
