package dev.lake.engine;

import java.util.OptionalLong;

/**
 * How {@link TableEngine#prepareCompaction} rewrites small fragments.
 *
 * @param targetRowsPerFragment fragments with fewer rows are merged with their neighbours, up to this many rows
 *     per new fragment; empty means Lance's default (1,048,576)
 * @param materializeDeletions whether fragments with many deleted rows are rewritten without them (Lance's
 *     default threshold, 10% deleted)
 */
public record CompactionOptions(OptionalLong targetRowsPerFragment, boolean materializeDeletions) {

  public CompactionOptions {
    if (targetRowsPerFragment == null) {
      throw new NullPointerException("targetRowsPerFragment");
    }
    if (targetRowsPerFragment.isPresent() && targetRowsPerFragment.getAsLong() < 1) {
      throw new IllegalArgumentException("targetRowsPerFragment must be at least 1, was "
          + targetRowsPerFragment.getAsLong());
    }
  }

  /** Lance's defaults: about a million rows per fragment, deletions materialized. */
  public static CompactionOptions defaults() {
    return new CompactionOptions(OptionalLong.empty(), true);
  }

  /** These options with {@code rows} rows per fragment as the target. */
  public CompactionOptions withTargetRowsPerFragment(long rows) {
    return new CompactionOptions(OptionalLong.of(rows), materializeDeletions);
  }

  org.lance.compaction.CompactionOptions toLance() {
    org.lance.compaction.CompactionOptions.Builder builder = org.lance.compaction.CompactionOptions.builder()
        .withMaterializeDeletions(materializeDeletions);
    targetRowsPerFragment.ifPresent(builder::withTargetRowsPerFragment);
    return builder.build();
  }
}
