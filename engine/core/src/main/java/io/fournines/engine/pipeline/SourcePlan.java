package io.fournines.engine.pipeline;

import io.fournines.engine.processor.WatermarkPolicy;

/**
 * What the planner tells a stream source about its place in the job, for it to make its processors.
 *
 * @param watermarks     how to generate watermarks; null when the pipeline has no windows, so needs none
 * @param reusableItems  whether what reads the source keeps nothing of an item once it has taken it (a
 *                       window's first stage of primitive sums fused into the source, with only stateless
 *                       stages before it), so the source may hand out one object refilled for each item
 */
public record SourcePlan(WatermarkPolicy watermarks, boolean reusableItems) {
}
