package io.fournines.nexmark.driver;

import java.io.Serializable;

/**
 * A run, as a job's functions carry it: the id travels with the serialized function, and each
 * deserialized copy (one per source, operator or sink instance) looks the run up once.
 */
public final class RunRef implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String id;
    private transient RunContext run;

    public RunRef(RunContext run) {
        this.id = run.id();
        this.run = run;
    }

    public RunContext get() {
        if (run == null) {
            run = RunContext.of(id);
        }
        return run;
    }
}
