package io.fournines.engine.core;

/** An item the engine itself sends through the queues, between data items, in order with them. */
public sealed interface ControlItem permits Watermark, DoneItem, SnapshotBarrier, BatchMarker {
}
