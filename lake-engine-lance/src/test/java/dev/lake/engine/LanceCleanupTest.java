package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;

class LanceCleanupTest extends EngineTestSupport {

  @Test
  void cleanupRemovesVersionsBelowTheOldestKeptOneAndKeepsTheRest() {
    String location = newLocation("t");
    long registered = appendsThenCompaction(location, 6); // v1..v6 appends, v7 compaction

    CleanupResult result = engine.cleanup(location, Set.of(4L, 6L), registered);

    assertThat(result.beforeVersion()).isEqualTo(4);
    assertThat(result.versionsRemoved()).isEqualTo(3);
    for (long gone = 1; gone < 4; gone++) {
      long version = gone;
      assertThatThrownBy(() -> engine.open(location, version, allocator))
          .isInstanceOf(DatasetNotFoundException.class);
    }
    // 5 is not kept but survives: Lance can only clean "everything before the bound" (the safe direction).
    for (long kept = 4; kept <= registered; kept++) {
      assertThat(idsAt(location, kept)).hasSize((int) Math.min(kept, 6));
    }
  }

  @Test
  void filesOnlyRemovedVersionsReferencedAreDeleted() {
    String location = newLocation("t");
    long registered = appendsThenCompaction(location, 5);
    Set<String> storedBefore = paths(engine.listDataFiles(location));

    CleanupResult result = engine.cleanup(location, Set.of(), registered);

    Set<String> storedAfter = paths(engine.listDataFiles(location));
    assertThat(storedBefore).hasSize(6);
    assertThat(result.versionsRemoved()).isEqualTo(registered - 1);
    assertThat(result.dataFilesRemoved()).isEqualTo(5);
    assertThat(result.bytesRemoved()).isPositive();
    assertThat(storedAfter).isEqualTo(engine.referencedDataFiles(location, List.of(registered))).hasSize(1);
    assertThat(idsAt(location, registered)).containsExactly(0L, 1L, 2L, 3L, 4L);
  }

  @Test
  void aSnapshotOnAKeptVersionKeepsStreamingAcrossTheCleanup() throws IOException {
    String location = newLocation("t");
    long registered = appendsThenCompaction(location, 5);
    long kept = 3;
    List<Long> streamed = new ArrayList<>();

    try (TableSnapshot snapshot = engine.open(location, kept, allocator);
        ArrowReader reader = snapshot.scan(List.of("id"), Optional.empty(), Optional.empty(), 1)) {
      assertThat(reader.loadNextBatch()).isTrue();
      collect(reader, streamed);

      CleanupResult result = engine.cleanup(location, Set.of(kept), registered);

      while (reader.loadNextBatch()) {
        collect(reader, streamed);
      }
      assertThat(result.versionsRemoved()).isEqualTo(2);
    }
    assertThat(streamed).containsExactlyInAnyOrder(0L, 1L, 2L);
  }

  @Test
  void theRegisteredVersionAndEverythingNewerSurviveWhateverIsKept() {
    String location = newLocation("t");
    long registered = appendsThenCompaction(location, 4);
    long orphan = appendIds(location, registered, 666);

    CleanupResult result = engine.cleanup(location, Set.of(), registered);

    assertThat(result.beforeVersion()).isEqualTo(registered);
    assertThat(idsAt(location, registered)).containsExactly(0L, 1L, 2L, 3L);
    assertThat(idsAt(location, orphan)).containsExactly(0L, 1L, 2L, 3L, 666L);
    assertThatThrownBy(() -> engine.open(location, registered - 1, allocator))
        .isInstanceOf(DatasetNotFoundException.class);
  }

  @Test
  void unreferencedStagedFilesSurviveCleanup() {
    String location = newLocation("t");
    long registered = appendsThenCompaction(location, 3);
    StagedData inFlight = stageIds(location, 42);

    engine.cleanup(location, Set.of(), registered);
    long appended = engine.commit(location, registered, new TableChange.Append(inFlight));

    assertThat(idsAt(location, appended)).containsExactly(0L, 1L, 2L, 42L);
  }

  @Test
  void cleanupNeedsAnExistingRegisteredVersionAndValidBounds() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1);

    assertThatThrownBy(() -> engine.cleanup(location, Set.of(), v1 + 1))
        .isInstanceOf(DatasetNotFoundException.class);
    assertThatThrownBy(() -> engine.cleanup(location, Set.of(0L), v1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(engine.cleanup(location, Set.of(), v1).versionsRemoved()).isZero();
  }

  /** v1 = id 0, then one append per id up to {@code count - 1}, then a compaction into one fragment. */
  private long appendsThenCompaction(String location, int count) {
    long version = createWithIds(location, 0);
    for (long id = 1; id < count; id++) {
      version = appendIds(location, version, id);
    }
    CompactionWork work = engine.prepareCompaction(location, version, CompactionOptions.defaults()).orElseThrow();
    return engine.commitCompaction(location, version, work);
  }

  private static Set<String> paths(List<StoredFile> files) {
    return files.stream().map(StoredFile::path).collect(Collectors.toSet());
  }

  private static void collect(ArrowReader reader, List<Long> into) throws IOException {
    BigIntVector ids = (BigIntVector) reader.getVectorSchemaRoot().getVector("id");
    for (int i = 0; i < ids.getValueCount(); i++) {
      into.add(ids.get(i));
    }
  }
}
