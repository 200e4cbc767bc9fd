package io.fournines.engine.core;

import java.io.Serializable;

/**
 * A snapshot key that belongs to no partition: on restore its entry goes to every instance of the
 * vertex, which picks what it needs (a source's position, a window's progress). Any other key goes
 * only to the instance that owns the key's partition, so keyed state follows its key when the job
 * is restored with other owners.
 */
public record BroadcastKey(Object id) implements Serializable {
}
