package io.fournines.engine.pipeline;

import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * One engine per test class: three workers, more than the machine's cores, so edges between
 * workers are exercised.
 */
abstract class TestEngines {

    static Engine engine;

    static Engine start() {
        return Engine.start(ExecutionConfig.defaults().withCooperativeThreads(3));
    }

    @BeforeAll
    static void startEngine() {
        engine = start();
    }

    @AfterAll
    static void stopEngine() {
        engine.close();
    }
}
