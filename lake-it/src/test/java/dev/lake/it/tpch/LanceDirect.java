package dev.lake.it.tpch;

import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/** Lance used directly through its Java SDK, without lake: the baselines lake's overhead is measured against. */
final class LanceDirect {
  private LanceDirect() {}

  /** Writes {@code data} as a new dataset at {@code uri} (default write settings); returns the rows written. */
  static long write(String uri, ArrowReader data, BufferAllocator allocator) {
    try (Dataset dataset = Dataset.write().allocator(allocator).reader(data).uri(uri)
        .mode(WriteParams.WriteMode.CREATE).execute()) {
      return dataset.countRows();
    }
  }

  /** Scans every column of version {@code version} at {@code uri}; returns the rows read. */
  static long scanAll(String uri, long version, int batchSize, BufferAllocator allocator) throws Exception {
    try (Dataset dataset = open(uri, version, allocator);
        LanceScanner scanner = dataset.newScan(new ScanOptions.Builder().batchSize(batchSize).build());
        ArrowReader reader = scanner.scanBatches()) {
      return drain(reader);
    }
  }

  /** Runs {@code sql} with Lance's own SQL engine on version {@code version}, the table named {@code table}. */
  static long sql(String uri, long version, String table, String sql, BufferAllocator allocator)
      throws IOException {
    try (Dataset dataset = open(uri, version, allocator);
        ArrowReader reader = dataset.sql(sql).tableName(table).intoBatchRecords()) {
      return drain(reader);
    }
  }

  private static Dataset open(String uri, long version, BufferAllocator allocator) {
    return Dataset.open().allocator(allocator).uri(uri)
        .readOptions(new ReadOptions.Builder().setVersion(version).build()).build();
  }

  private static long drain(ArrowReader reader) throws IOException {
    long rows = 0;
    while (reader.loadNextBatch()) {
      rows += reader.getVectorSchemaRoot().getRowCount();
    }
    return rows;
  }
}
