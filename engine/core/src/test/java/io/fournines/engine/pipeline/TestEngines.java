package io.fournines.engine.pipeline;

import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;

/** One engine for a test class: three workers, more than the machine's cores, to exercise cross-worker edges. */
final class TestEngines {

    private TestEngines() {
    }

    static Engine start() {
        return Engine.start(ExecutionConfig.defaults().withCooperativeThreads(3));
    }
}
