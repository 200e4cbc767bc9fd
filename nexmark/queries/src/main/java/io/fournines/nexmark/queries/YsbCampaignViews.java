package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.query.WindowedResult;
import io.fournines.nexmark.ysb.AdEvent;
import io.fournines.nexmark.ysb.YsbAds;

import java.util.Map;

/**
 * The Yahoo Streaming Benchmark's query: views only, each ad joined to its campaign through the
 * in-memory side table, counted per campaign in tumbling windows (YSB's 10 s) by event time. An
 * event whose ad the table does not hold is dropped, as YSB drops it. YSB's latency is a window's
 * last update less its end: the engine emits each window once, complete, so the window latency
 * sink measures exactly that.
 */
public final class YsbCampaignViews {

    public static final String NAME = "ysb";

    /** One campaign's views in the window {@code [start, end)}. */
    public record CampaignViews(String campaignId, long start, long end, long views) implements WindowedResult {
    }

    private YsbCampaignViews() {
    }

    public static StreamStage<CampaignViews> attach(StreamStage<AdEvent> events, YsbAds ads, long windowMs) {
        Map<String, String> campaigns = ads.campaignsByAd();
        return events.filter(e -> e.isView() && campaigns.containsKey(e.adId()))
                     .groupingKey(e -> campaigns.get(e.adId()))
                     .window(WindowDefinition.tumbling(windowMs))
                     .aggregate(AggregateOperations.counting())
                     .map(r -> new CampaignViews(r.key(), r.start(), r.end(), r.result()));
    }
}
