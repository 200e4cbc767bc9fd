package io.fournines.engine.window;

/**
 * A sliding window of {@code size} advancing by {@code slide}, aligned to time 0: the windows are
 * [k*slide, k*slide + size) for every k. A tumbling window is one whose slide equals its size. Time is
 * in the unit of the stage's timestamps (NEXMark uses epoch milliseconds).
 *
 * <p>Internally a window is made of frames one slide long; each item lands in exactly one frame.
 */
public record WindowDefinition(long size, long slide) {

    public WindowDefinition {
        if (slide <= 0 || size <= 0) {
            throw new IllegalArgumentException("window size and slide must be > 0, got size=" + size + " slide=" + slide);
        }
        if (size % slide != 0) {
            throw new IllegalArgumentException("window size must be a multiple of the slide, got size=" + size + " slide=" + slide);
        }
    }

    public static WindowDefinition sliding(long size, long slide) {
        return new WindowDefinition(size, slide);
    }

    public static WindowDefinition tumbling(long size) {
        return new WindowDefinition(size, size);
    }

    /** The end (exclusive) of the frame that holds {@code timestamp}. */
    public long frameEnd(long timestamp) {
        return Math.floorDiv(timestamp, slide) * slide + slide;
    }
}
