package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;

/**
 * Pinned versions stay open across snapshots (issue 22: a point query opened its version anew each time), without
 * changing what a snapshot reads, where its batches are allocated, or how a gone version fails.
 */
class SharedDatasetsTest extends EngineTestSupport {
  @Test
  void snapshotsOfOneVersionShareOneOpenDataset() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3);
    long v2 = appendIds(location, v1, 4);
    assertThat(idsAt(location, v1)).containsExactly(1L, 2L, 3L);
    assertThat(idsAt(location, v2)).containsExactly(1L, 2L, 3L, 4L);
    long opens = engine.versionOpens();
    for (int i = 0; i < 5; i++) {
      assertThat(idsAt(location, v1)).containsExactly(1L, 2L, 3L);
      assertThat(idsAt(location, v2)).containsExactly(1L, 2L, 3L, 4L);
    }
    assertThat(engine.versionOpens()).as("Lance opens after both versions were read once").isEqualTo(opens);
    assertThat(engine.keptDatasets()).as("one kept dataset per pinned version").isEqualTo(2);
    assertThat(engine.openHandles()).as("kept datasets are not leaked handles").isZero();
  }

  @Test
  void aKeptVersionConvertsItsSchemaAndListsItsIndexesOnceForAllItsSnapshots() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3);
    long v2 = engine.createIndex(location, v1, new IndexSpec("id_idx", "id", IndexKind.BTREE));
    try (TableSnapshot first = engine.open(location, v1, allocator);
        TableSnapshot second = engine.open(location, v1, allocator);
        TableSnapshot indexed = engine.open(location, v2, allocator);
        TableSnapshot indexedAgain = engine.open(location, v2, allocator)) {
      assertThat(second.schema()).as("the kept version's schema, not converted again").isSameAs(first.schema());
      assertThat(first.indexes()).isEmpty();
      assertThat(second.indexes()).isSameAs(first.indexes());
      assertThat(indexed.schema()).as("another version converts its own").isNotSameAs(first.schema())
          .isEqualTo(first.schema());
      assertThat(indexed.indexes()).extracting(TableIndex::name).containsExactly("id_idx");
      assertThat(indexedAgain.indexes()).isSameAs(indexed.indexes());
      assertThat(indexedAgain.schema()).isSameAs(indexed.schema());
    }
    assertThat(idsAt(location, v2)).containsExactly(1L, 2L, 3L);
  }

  @Test
  void scansOfAKeptDatasetAllocateInTheSnapshotsAllocator() throws Exception {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3);
    idsAt(location, v1);
    try (BufferAllocator query = allocator.newChildAllocator("query", 0, Long.MAX_VALUE);
        TableSnapshot snapshot = engine.open(location, v1, query);
        ArrowReader reader = snapshot.scan(List.of("id", "name"), Optional.empty(), Optional.empty(), 1024)) {
      assertThat(reader.loadNextBatch()).isTrue();
      assertThat(query.getAllocatedMemory()).as("the batch is charged to the reading query").isPositive();
    }
  }

  @Test
  void sqlOnAKeptVersionSeesThatVersionOnly() throws Exception {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3);
    appendIds(location, v1, 4, 5);
    idsAt(location, v1);
    try (TableSnapshot snapshot = engine.open(location, v1, allocator)) {
      assertThat(Rows.drain(snapshot.sql("SELECT count(*) AS n FROM t", "t"))).containsExactly(List.of(3L));
    }
  }

  @Test
  void evictionNeverClosesADatasetUnderARunningScan() throws Exception {
    String location = newLocation("t");
    long version = createWithIds(location, 1, 2, 3);
    List<Long> versions = new ArrayList<>();
    long at = version;
    for (int i = 0; i < SharedDatasets.MAX_DATASETS + 3; i++) {
      at = appendIds(location, at, 100 + i);
      versions.add(at);
    }
    try (TableSnapshot first = engine.open(location, version, allocator);
        ArrowReader reader = first.scan(List.of("id"), Optional.empty(), Optional.empty(), 1)) {
      for (long v : versions) {
        idsAt(location, v); // pushes the first version out of the cache
      }
      assertThat(engine.keptDatasets()).isEqualTo(SharedDatasets.MAX_DATASETS);
      List<Long> ids = new ArrayList<>();
      while (reader.loadNextBatch()) {
        for (int i = 0; i < reader.getVectorSchemaRoot().getRowCount(); i++) {
          ids.add((Long) reader.getVectorSchemaRoot().getVector(0).getObject(i));
        }
      }
      assertThat(ids).containsExactlyInAnyOrder(1L, 2L, 3L);
      assertThat(Rows.drain(first.scan(List.of("id"), Optional.empty(), Optional.empty(), 16))).hasSize(3);
    }
    assertThat(idsAt(location, version)).as("an evicted version opens again").containsExactly(1L, 2L, 3L);
  }

  @Test
  void aVersionCleanedUpOrDroppedIsNotFoundAgain() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2);
    long v2 = appendIds(location, v1, 3);
    idsAt(location, v1);
    engine.cleanup(location, Set.of(v2), v2);
    assertThatThrownBy(() -> engine.open(location, v1, allocator)).isInstanceOf(DatasetNotFoundException.class);
    assertThat(idsAt(location, v2)).containsExactly(1L, 2L, 3L);
    engine.drop(location);
    assertThatThrownBy(() -> engine.open(location, v2, allocator)).isInstanceOf(DatasetNotFoundException.class);
    assertThat(engine.keptDatasets()).isZero();
  }
}
