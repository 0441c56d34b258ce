package dev.lake.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.lance.Dataset;
import org.lance.index.Index;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.schema.LanceField;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scalar indexes: built and committed by Lance's {@code Dataset.createIndex} on a handle opened at the read
 * version (Lance 7.0.0 builds the index from that version's fragments and commits a CreateIndex transaction on it,
 * rebasing onto any compatible later commit, so the versions in between are checked as for every data commit), and
 * listed from a version's manifest.
 */
final class LanceIndexes {
  private static final Logger LOG = LoggerFactory.getLogger(LanceIndexes.class);

  private final OpenHandles handles;
  private final LanceDatasets datasets;
  private final NeutralityCheck neutrality;

  LanceIndexes(OpenHandles handles, LanceDatasets datasets, NeutralityCheck neutrality) {
    this.handles = handles;
    this.datasets = datasets;
    this.neutrality = neutrality;
  }

  /** See {@link TableEngine#createIndex}. */
  long create(LanceLocation at, long readVersion, IndexSpec spec, BufferAllocator allocator) throws Exception {
    try (Tracked<Dataset> base = datasets.open(at, Optional.of(readVersion), allocator,
        "building index " + spec.name() + " on read version " + readVersion)) {
      IndexType type = spec.kind() == IndexKind.BTREE ? IndexType.BTREE : IndexType.BITMAP;
      IndexParams params = IndexParams.builder()
          .setScalarIndexParams(ScalarIndexParams.create(spec.kind().name().toLowerCase(Locale.ROOT))).build();
      long started = System.nanoTime();
      base.get().createIndex(IndexOptions.builder(List.of(spec.column()), type, params)
          .withIndexName(spec.name()).replace(false).build());
      long committed = base.get().version(); // createIndex moves the handle to the version it committed
      neutrality.check(at, readVersion, committed, base.get());
      LOG.info("index committed location={} index={} column={} type={} readVersion={} version={} buildMs={}", at,
          spec.name(), spec.column(), spec.kind(), readVersion, committed, (System.nanoTime() - started) / 1_000_000);
      return committed;
    }
  }

  /** The indexes of an opened dataset, in name order; Lance's internal ones (fragment reuse, MemWAL) left out. */
  static List<TableIndex> list(Dataset dataset) {
    Map<Integer, String> names = new HashMap<>();
    for (LanceField f : dataset.getLanceSchema().fields()) {
      names.put(f.getId(), f.getName());
    }
    Map<String, TableIndex> byName = new java.util.TreeMap<>();
    for (Index index : dataset.getIndexes()) { // one entry per segment: merged by name
      IndexType type = index.indexType();
      if (type == IndexType.FRAGMENT_REUSE || type == IndexType.MEM_WAL) {
        continue;
      }
      List<String> columns = index.fields().stream().map(id -> names.getOrDefault(id, "#" + id)).toList();
      TableIndex segment = new TableIndex(index.name(), columns, type == null ? "UNKNOWN" : type.name(),
          index.datasetVersion(), index.fragments().map(List::size).orElse(0));
      byName.merge(index.name(), segment, (a, b) -> new TableIndex(a.name(), a.columns(), a.type(),
          Math.max(a.builtAtVersion(), b.builtAtVersion()), a.fragments() + b.fragments()));
    }
    return new ArrayList<>(byName.values());
  }
}
