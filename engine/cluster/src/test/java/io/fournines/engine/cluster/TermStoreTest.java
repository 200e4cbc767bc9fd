package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TermStoreTest {

    @TempDir
    Path dir;

    @Test
    void aTermAndVoteSavedAreWhatTheNextProcessLoads() {
        Path file = dir.resolve("member").resolve("view-term");
        assertThat(TermStore.inFile(file).load()).isEqualTo(new TermStore.Saved(0, -1));
        TermStore.inFile(file).save(7, 2);
        assertThat(TermStore.inFile(file).load()).isEqualTo(new TermStore.Saved(7, 2));
        assertThat(file.resolveSibling("view-term.tmp")).doesNotExist();
    }

    @Test
    void aFileThatHoldsNoTermAndVoteStopsTheMemberNamingItAndIsKept() throws Exception {
        Path file = dir.resolve("view-term");
        Files.writeString(file, "7 two\n");
        assertThatThrownBy(() -> TermStore.inFile(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("holds \"7 two\"");
        assertThat(Files.readString(file)).isEqualTo("7 two\n");
    }
}
