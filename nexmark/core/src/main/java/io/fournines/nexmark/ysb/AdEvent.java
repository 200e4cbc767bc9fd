package io.fournines.nexmark.ysb;

/**
 * One event of the Yahoo Streaming Benchmark: a user's view, click or purchase of an ad on a page.
 * The fields are YSB's ({@code user_id}, {@code page_id}, {@code ad_id}, {@code ad_type},
 * {@code event_type}, {@code event_time}, {@code ip_address}); {@code event_time} is the time the
 * event was scheduled, so window latency is measured from the schedule, never from a late send.
 */
public record AdEvent(String userId, String pageId, String adId, String adType, String eventType,
                      long eventTimeMillis, String ipAddress) {

    public static final String VIEW = "view";

    public boolean isView() {
        return VIEW.equals(eventType);
    }
}
