package io.fournines.nexmark.driver;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

class PerThreadCountTest {

    @Test
    void sumsWhatEveryThreadAddedIncludingThreadsThatEnded() throws InterruptedException {
        PerThreadCount count = new PerThreadCount();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < 100_000; i++) {
                    count.increment();
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        count.increment();

        assertThat(count.sum()).isEqualTo(400_001);
    }
}
