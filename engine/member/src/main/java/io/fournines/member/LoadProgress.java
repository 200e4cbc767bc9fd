package io.fournines.member;

import io.fournines.engine.processor.ScheduleMonitor;

/** What the member reports about its load each second: events taken in, and how far behind schedule. */
interface LoadProgress {

    /** Events generated (in-process) or consumed from Kafka so far. */
    long emitted();

    /** How far behind its schedule the load is, in nanoseconds; 0 when on time. */
    long lagNanos();

    static LoadProgress of(ScheduleMonitor monitor) {
        return new LoadProgress() {
            @Override
            public long emitted() {
                return monitor.emitted();
            }

            @Override
            public long lagNanos() {
                return monitor.lagNanos();
            }
        };
    }
}
