package io.fournines.nexmark.query.reference;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Window assignment by direct enumeration: the windows {@code [k*slide, k*slide+size)} holding {@code time}. */
final class ReferenceWindows {
    private ReferenceWindows() {
    }

    /** Start times of every window holding {@code time}, ascending. */
    static List<Long> startsOfWindowsHolding(long time, long size, long slide) {
        if (size <= 0 || slide <= 0 || slide > size) {
            throw new IllegalArgumentException("need 0 < slide <= size, got size " + size + " and slide " + slide);
        }
        List<Long> starts = new ArrayList<>();
        // The latest window holding time starts at the last multiple of slide at or before it;
        // earlier ones, one slide apart, hold it as long as they have not ended.
        for (long start = Math.floorDiv(time, slide) * slide; start + size > time; start -= slide) {
            starts.add(start);
        }
        Collections.reverse(starts); // found latest first; inserting each at the front was quadratic
        return starts;
    }
}
