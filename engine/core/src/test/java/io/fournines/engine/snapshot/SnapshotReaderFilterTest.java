package io.fournines.engine.snapshot;

import io.fournines.engine.core.ClassAllowList;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Snapshot chunks come from other members: only allowed classes are deserialized. */
class SnapshotReaderFilterTest {

    @Test
    void stateOfAllowedClassesIsRead() throws IOException {
        InMemorySnapshotStore store = storeWith(List.of("key", Map.of(1L, new long[] {1, 2, 3}), 7, new ArrayList<>(List.of("a"))));
        SnapshotReader reader = new SnapshotReader(store, 1, "v", new int[] {0});
        Map.Entry<Object, Object> first = reader.next();
        assertThat(first.getKey()).isEqualTo("key");
        assertThat(((Map<?, ?>) first.getValue()).get(1L)).isEqualTo(new long[] {1, 2, 3});
        assertThat(reader.next().getValue()).isEqualTo(List.of("a"));
        assertThat(reader.next()).isNull();
    }

    @Test
    void aClassOutsideTheAllowListFailsTheRestoreNamingIt() throws IOException {
        InMemorySnapshotStore store = storeWith(List.of("key", InetSocketAddress.createUnresolved("example.invalid", 1)));
        SnapshotReader reader = new SnapshotReader(store, 1, "v", new int[] {0});
        assertThatThrownBy(reader::next)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("snapshot state of vertex 'v' could not be read")
                .hasMessageContaining("REJECTED");
    }

    /** Allows java.net.URI for the rest of this JVM: the other tests use other classes. */
    @Test
    void aModuleCanAllowItsOwnClasses() throws IOException {
        ClassAllowList.allow("java.net.URI");
        InMemorySnapshotStore store = storeWith(List.of("key", URI.create("http://example.invalid/")));
        assertThat(new SnapshotReader(store, 1, "v", new int[] {0}).next().getValue()).isEqualTo(URI.create("http://example.invalid/"));
        assertThatThrownBy(() -> ClassAllowList.allow("!*")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClassAllowList.allow("a.*;!b")).isInstanceOf(IllegalArgumentException.class);
    }

    /** One chunk of partition 0 of vertex "v" in snapshot 1, written as SnapshotWriter writes one: key, value, ..., null. */
    private static InMemorySnapshotStore storeWith(List<Object> keysAndValues) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            for (Object o : keysAndValues) {
                out.writeObject(o);
            }
            out.writeObject(null);
        }
        InMemorySnapshotStore store = new InMemorySnapshotStore();
        store.begin(1);
        store.write(1, "v", 0, bytes.toByteArray());
        store.commit(1);
        return store;
    }
}
