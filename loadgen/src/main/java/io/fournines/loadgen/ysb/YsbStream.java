package io.fournines.loadgen.ysb;

import io.fournines.loadgen.EventStream;
import io.fournines.nexmark.ysb.AdEvent;
import io.fournines.nexmark.ysb.AdEventJson;
import io.fournines.nexmark.ysb.YsbAds;
import io.fournines.nexmark.ysb.YsbGenerator;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;

/**
 * The Yahoo Streaming Benchmark's ad events as Kafka records: the value YSB's JSON ({@link AdEventJson}),
 * its {@code event_time} the scheduled time, the key the ad id (what the query joins on). The seed
 * and side table are the members' ({@link YsbAds#standard}), so they recognise every ad.
 */
public final class YsbStream implements EventStream {

    private final YsbGenerator events = new YsbGenerator(YsbAds.SEED, YsbAds.standard());

    @Override
    public ProducerRecord<byte[], byte[]> record(String topic, int partition, long sequence, long scheduledEpochNanos) {
        AdEvent e = events.event(sequence, scheduledEpochNanos);
        return new ProducerRecord<>(topic, partition, null, e.adId().getBytes(StandardCharsets.UTF_8),
                AdEventJson.write(e).getBytes(StandardCharsets.UTF_8));
    }
}
