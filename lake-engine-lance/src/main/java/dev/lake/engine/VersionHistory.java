package dev.lake.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.lance.Dataset;
import org.lance.Transaction;

/**
 * Reads which operation produced each version in a range, by checking out each version and reading its
 * transaction file ({@code Dataset.readTransaction()}). One small read per version; the ranges the engine asks
 * about are normally empty or one or two versions long.
 */
final class VersionHistory {
  private final OpenHandles handles;

  VersionHistory(OpenHandles handles) {
    this.handles = handles;
  }

  /**
   * The operations of versions {@code fromInclusive..toInclusive} of the dataset {@code anyVersion} belongs to
   * (empty when the range is empty).
   */
  List<VersionOperation> operations(Dataset anyVersion, long fromInclusive, long toInclusive) throws Exception {
    List<VersionOperation> result = new ArrayList<>();
    for (long version = fromInclusive; version <= toInclusive; version++) {
      try (Tracked<Dataset> checkedOut = Tracked.of(anyVersion.checkoutVersion(version), handles)) {
        result.add(new VersionOperation(version, operationOf(checkedOut.get())));
      }
    }
    return result;
  }

  private static String operationOf(Dataset dataset) {
    Optional<Transaction> transaction = dataset.readTransaction();
    if (transaction.isEmpty()) {
      return VersionOperation.UNKNOWN;
    }
    try (Transaction read = transaction.get()) {
      return read.operation() == null ? VersionOperation.UNKNOWN : read.operation().name();
    }
  }
}
