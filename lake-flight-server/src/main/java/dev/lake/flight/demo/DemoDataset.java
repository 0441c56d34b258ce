package dev.lake.flight.demo;

import dev.lake.metasrv.IngestRequest;
import dev.lake.metasrv.WriteResult;
import dev.lake.registry.MetaStore;
import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the eight TPC-H tables at {@code scale} into a node that lacks them. Each missing table is created in one
 * ingest (all or nothing) through the node's write coordinator; a table that exists is never touched, so a restart
 * with {@code --demo} loads nothing again, and a start interrupted half-way finishes the missing tables.
 */
public final class DemoDataset {
  private static final Logger LOG = LoggerFactory.getLogger(DemoDataset.class);
  public static final double DEFAULT_SCALE = 0.01;
  private static final int BATCH_ROWS = 16_384;
  private final double scale;

  /** The node the tables are loaded into (the server implements it; this package does not import the server). */
  public interface Target {
    boolean isLeader();

    MetaStore metaStore();

    WriteResult ingest(IngestRequest request, Function<BufferAllocator, ArrowReader> source);
  }

  public DemoDataset(double scale) {
    if (!(scale > 0 && scale <= 1)) {
      throw new IllegalArgumentException("the demo scale factor must be in (0, 1], got " + scale);
    }
    this.scale = scale;
  }

  /** Creates every TPC-H table {@code server} does not have; the tables created (empty when all were there). */
  public List<String> loadMissing(Target server) {
    if (!server.isLeader()) {
      LOG.warn("demo dataset skipped: this node is not the leader and cannot write");
      return List.of();
    }
    List<String> created = new ArrayList<>();
    for (TpchTable<?> table : TpchTable.getTables()) {
      String name = table.getTableName();
      if (server.metaStore().get(name).isPresent()) {
        continue;
      }
      long start = System.nanoTime();
      WriteResult result = server.ingest(new IngestRequest(name, IngestRequest.IfMissing.CREATE,
          IngestRequest.IfExists.FAIL, Optional.empty()),
          allocator -> TpchBatches.reader(table, scale, BATCH_ROWS, allocator));
      LOG.info("demo table loaded table={} rows={} scale={} ms={}", name, result.rowCount(), scale,
          (System.nanoTime() - start) / 1_000_000);
      created.add(name);
    }
    return created;
  }
}
