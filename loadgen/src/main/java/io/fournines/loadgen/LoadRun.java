package io.fournines.loadgen;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * One load generator run: {@code producers} sender threads ({@link OpenLoopSender}), each with its
 * own KafkaProducer, at {@code rate} events/s in total, until {@code maxEvents} are sent, the
 * duration is over, or {@link #requestStop()}. A JSON progress line each second on {@code out};
 * at the end the producers are flushed and closed and the summary is written.
 */
final class LoadRun {

    /**
     * Producer settings that are the load's, not Kafka's defaults: see loadgen/README.md.
     *
     * @param rate            of the whole schedule, over every share
     * @param startEpochNanos the schedule's t0 ({@link Schedule}), 0 for now
     * @param endOfStream     each sender marks the end of each of its partitions once its events are all sent
     */
    record Settings(String bootstrap, String topic, String stream, double rate, int producers, Share share, long maxEvents, double durationSeconds,
                    long startEpochNanos, boolean endOfStream, String acks, int lingerMs, int batchSize, Map<String, String> producerConfig) {
    }

    private static final long CLOSE_TIMEOUT_SECONDS = 30;
    /**
     * Events each sender makes and throws away before t0, so the generator and the encoder are
     * compiled before the schedule starts: a cold sender falls seconds behind in its first seconds.
     */
    static final int WARMUP_EVENTS = 200_000;

    private final Settings settings;
    private final IntFunction<EventStream> streams;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopRequested;

    LoadRun(Settings settings, IntFunction<EventStream> streams) {
        this.settings = settings;
        this.streams = streams;
    }

    void requestStop() {
        stopRequested = true;
    }

    boolean awaitFinished(long seconds) throws InterruptedException {
        return finished.await(seconds, TimeUnit.SECONDS);
    }

    /** @return 0 when every event was sent and acknowledged; 1 when a send failed; 3 when stopped early */
    int run(PrintStream out, PrintStream err, Path summary) throws IOException, InterruptedException {
        try {
            return send(out, err, summary);
        } finally {
            finished.countDown();
        }
    }

    private int send(PrintStream out, PrintStream err, Path summary) throws IOException, InterruptedException {
        int n = settings.producers();
        List<KafkaProducer<byte[], byte[]>> producers = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            producers.add(new KafkaProducer<>(producerProperties(t), new ByteArraySerializer(), new ByteArraySerializer()));
        }
        List<PartitionInfo> infos;
        try {
            infos = producers.get(0).partitionsFor(settings.topic());
        } catch (KafkaException e) {
            err.println("loadgen: topic " + settings.topic() + " is not available on " + settings.bootstrap() + " (create it with create-topic): " + e);
            producers.forEach(p -> p.close(Duration.ZERO));
            return 2;
        }
        int partitions = infos.size();
        Share share = settings.share();
        int senders = share.count() * n;
        if (partitions % senders != 0) {
            err.println("loadgen: topic " + settings.topic() + " has " + partitions + " partitions, not a multiple of --producers " + n
                    + (share.count() > 1 ? " x " + share.count() + " load generators" : "")
                    + ": a partition written by two threads would get events out of order");
            producers.forEach(p -> p.close(Duration.ZERO));
            return 2;
        }
        List<EventStream> senderStreams = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            EventStream stream = streams.apply(t);
            for (int i = 0; i < WARMUP_EVENTS; i++) {
                stream.record(settings.topic(), 0, i, i);
            }
            senderStreams.add(stream);
        }
        Schedule schedule = new Schedule(settings.rate(), settings.startEpochNanos());
        long endNanos = Double.isInfinite(settings.durationSeconds()) ? Long.MAX_VALUE
                : schedule.startNanos() + (long) (settings.durationSeconds() * 1e9);
        SendProgress progress = new SendProgress(n);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            OpenLoopSender sender = new OpenLoopSender(t, share.firstSender(n) + t, senders, schedule, settings.maxEvents(), endNanos, settings.endOfStream(), senderStreams.get(t),
                    producers.get(t), settings.topic(), partitions, progress, () -> stopRequested);
            Thread thread = new Thread(sender, "sender-" + t);
            threads.add(thread);
            thread.start();
        }
        long maxLagNanos = 0;
        long lastSent = 0;
        long lastNanos = schedule.startNanos();
        while (threads.stream().anyMatch(Thread::isAlive)) {
            long untilTick = lastNanos + 1_000_000_000L - System.nanoTime();
            if (untilTick > 0) {
                TimeUnit.NANOSECONDS.sleep(Math.min(untilTick, 50_000_000L));
            }
            long now = System.nanoTime();
            if (now - lastNanos >= 1_000_000_000L) {
                long sent = progress.sent();
                long lag = progress.lagNanos();
                maxLagNanos = Math.max(maxLagNanos, lag);
                out.printf(Locale.ROOT, "{\"type\":\"loadgen\",\"elapsed_s\":%.3f,\"target_rate\":%s,\"sent_rate\":%.1f,\"sent\":%d,\"acked\":%d,"
                                + "\"send_errors\":%d,\"behind_ms\":%.3f}%n",
                        (now - schedule.startNanos()) / 1e9, number(settings.rate() / share.count()), (sent - lastSent) / ((now - lastNanos) / 1e9), sent,
                        progress.acked(), progress.errors(), lag / 1e6);
                out.flush();
                lastSent = sent;
                lastNanos = now;
            }
        }
        long sendEnd = System.nanoTime();
        for (KafkaProducer<byte[], byte[]> producer : producers) {
            producer.close(Duration.ofSeconds(CLOSE_TIMEOUT_SECONDS));  // flushes: waits for every acknowledgement
        }
        long sent = progress.sent();
        double seconds = (sendEnd - schedule.startNanos()) / 1e9;
        writeSummary(summary, sent, progress, seconds, partitions, maxLagNanos, schedule.epochNanos(schedule.startNanos()));
        Exception failure = progress.firstError();
        if (failure != null) {
            err.println("loadgen: " + progress.errors() + " of " + sent + " sends failed; the first: " + failure);
            return 1;
        }
        if (progress.acked() != sent) {
            err.println("loadgen: " + (sent - progress.acked()) + " of " + sent + " records were not acknowledged within " + CLOSE_TIMEOUT_SECONDS + " s");
            return 1;
        }
        int ownPartitions = partitions / share.count();
        if (settings.endOfStream() && !stopRequested && progress.endsAcked() != ownPartitions) {
            err.println("loadgen: the end of " + (ownPartitions - progress.endsAcked()) + " of its " + ownPartitions + " partitions was not acknowledged");
            return 1;
        }
        out.println("{\"type\":\"done\"}");
        out.flush();
        return stopRequested ? 3 : 0;
    }

    private Map<String, Object> producerProperties(int thread) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        props.put(ProducerConfig.ACKS_CONFIG, settings.acks());
        props.put(ProducerConfig.LINGER_MS_CONFIG, settings.lingerMs());
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, settings.batchSize());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "fournines-loadgen-" + thread);
        // A missing topic or broker fails the run in seconds, not after a minute per send.
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        props.putAll(settings.producerConfig());
        return props;
    }

    private void writeSummary(Path file, long sent, SendProgress progress, double seconds, int partitions, long maxLagNanos, long startEpochNanos)
            throws IOException {
        if (file == null) {
            return;
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode s = json.createObjectNode();
        s.put("stream", settings.stream());
        s.put("topic", settings.topic());
        s.put("partitions", partitions);
        s.put("producers", settings.producers());
        s.put("share", settings.share().toString());
        s.put("target_rate", settings.rate() / settings.share().count());
        s.put("achieved_rate", seconds > 0 ? sent / seconds : 0);
        s.put("sent", sent);
        s.put("acked", progress.acked());
        s.put("send_errors", progress.errors());
        Exception first = progress.firstError();
        s.put("first_error", first == null ? null : first.toString());
        s.put("max_behind_ms", maxLagNanos / 1e6);
        s.put("start_epoch_ns", startEpochNanos);
        s.put("end_of_stream", settings.endOfStream());
        s.put("partitions_ended", progress.endsAcked());
        s.put("acks", settings.acks());
        s.put("linger_ms", settings.lingerMs());
        s.put("batch_size", settings.batchSize());
        s.putPOJO("producer_config", settings.producerConfig());
        s.put("stopped_early", stopRequested);
        Files.writeString(file, json.writerWithDefaultPrettyPrinter().writeValueAsString(s) + "\n");
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
