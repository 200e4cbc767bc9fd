package io.fournines.engine.core;

import java.io.ObjectInputFilter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The classes a member accepts from other members, in snapshot chunks (Java serialization) and in
 * the packets of distributed edges (Kryo): reading an arbitrary class can run that class's code.
 * Allowed are {@code java.lang}, {@code java.util}, {@code java.time} and {@code java.math} classes,
 * everything under {@code io.fournines}, arrays of these and of primitives, and what a module adds
 * with {@link #allow} (the Kafka source its {@code TopicPartition}). Patterns use
 * {@link ObjectInputFilter.Config#createFilter} syntax: {@code a.b.C}, {@code a.b.*}, {@code a.b.**}.
 */
public final class ClassAllowList {

    /** Object graphs deeper than this are refused too. */
    public static final int MAX_DEPTH = 64;
    private static final List<String> PATTERNS = new CopyOnWriteArrayList<>(
            List.of("java.lang.*", "java.util.*", "java.time.*", "java.math.*", "io.fournines.**"));
    /** Built from {@link #PATTERNS} when they change, not at each use: Kryo asks for every packet. */
    private static volatile ObjectInputFilter filter = build();

    private ClassAllowList() {
    }

    /** Allows classes matching {@code pattern} as well, in this JVM. */
    public static synchronized void allow(String pattern) {
        if (pattern.isBlank() || pattern.contains(";") || pattern.contains("=") || pattern.startsWith("!")) {
            throw new IllegalArgumentException("not a class pattern: '" + pattern + "'");
        }
        if (!PATTERNS.contains(pattern)) {
            PATTERNS.add(pattern);
            filter = build();
        }
    }

    /** The filter for an ObjectInputStream reading what another member sent. */
    public static ObjectInputFilter filter() {
        return filter;
    }

    private static ObjectInputFilter build() {
        return ObjectInputFilter.Config.createFilter("maxdepth=" + MAX_DEPTH + ";" + String.join(";", PATTERNS) + ";!*");
    }

    /** Whether {@code type} may be read (an array: its element type; a primitive always). */
    public static boolean allows(Class<?> type) {
        Class<?> element = type;
        while (element.isArray()) {
            element = element.getComponentType();
        }
        if (element.isPrimitive()) {
            return true;
        }
        Class<?> checked = element;
        ObjectInputFilter.Status status = filter.checkInput(new ObjectInputFilter.FilterInfo() {
            @Override
            public Class<?> serialClass() {
                return checked;
            }

            @Override
            public long arrayLength() {
                return -1;
            }

            @Override
            public long depth() {
                return 1;
            }

            @Override
            public long references() {
                return 0;
            }

            @Override
            public long streamBytes() {
                return 0;
            }
        });
        return status == ObjectInputFilter.Status.ALLOWED;
    }
}
