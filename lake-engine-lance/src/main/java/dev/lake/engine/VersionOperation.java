package dev.lake.engine;

import java.util.Objects;
import java.util.Set;

/**
 * The Lance operation that produced one version of a dataset.
 *
 * @param version the version
 * @param operation Lance's operation name (Append, Overwrite, Restore, ReserveFragments, Rewrite, ...), or
 *     {@link #UNKNOWN} when the version carries no readable transaction
 */
record VersionOperation(long version, String operation) {
  /** The operation name used when a version has no transaction to read. */
  static final String UNKNOWN = "unknown";

  /**
   * Operations that leave a version's rows unchanged. Only ReserveFragments (committed by two-phase compaction
   * outside the table lock) counts; anything unknown counts as a data change.
   */
  private static final Set<String> DATA_NEUTRAL = Set.of("ReserveFragments");

  VersionOperation {
    Objects.requireNonNull(operation, "operation");
  }

  boolean dataNeutral() {
    return DATA_NEUTRAL.contains(operation);
  }
}
