package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.ReadOptions;

class LanceCompactionTest extends EngineTestSupport {

  @Test
  void maintenanceCompactsManySmallAppends() {
    String location = newLocation("t");
    long read = createWithIds(location, 0);
    for (long id = 1; id < 50; id++) {
      read = appendIds(location, read, id);
    }
    List<List<Object>> before = rowsAt(location, read);

    Optional<CompactionWork> work = engine.prepareCompaction(location, read, CompactionOptions.defaults());
    long latestAfterPrepare = engine.latestVersion(location);
    long compacted = engine.commitCompaction(location, read, work.orElseThrow());

    assertThat(latestAfterPrepare).as("prepare commits nothing").isEqualTo(read);
    assertThat(work.get().readVersion()).isEqualTo(read);
    assertThat(work.get().fragmentsRemoved()).isEqualTo(50);
    assertThat(work.get().fragmentsAdded()).isEqualTo(1);
    assertThat(compacted).isEqualTo(read + 1);
    assertThat(fragmentIds(location, read)).hasSize(50);
    assertThat(fragmentIds(location, compacted)).hasSize(1);
    assertThat(rowsAt(location, compacted)).containsExactlyInAnyOrderElementsOf(before).hasSize(50);
    assertThat(engine.dataChangingVersionsAfter(location, read)).containsExactly(compacted);
    assertThat(engine.prepareCompaction(location, compacted, CompactionOptions.defaults())).isEmpty();
  }

  @Test
  void compactionIntoSeveralFragmentsKeepsRowsAndLaterAppendsWork() {
    String location = newLocation("t");
    long read = createWithIds(location, LongStream.range(0, 6).toArray());
    for (long first = 6; first < 60; first += 6) {
      read = appendIds(location, read, LongStream.range(first, first + 6).toArray());
    }
    List<List<Object>> before = rowsAt(location, read);

    CompactionWork work = engine.prepareCompaction(location, read, CompactionOptions.defaults()
        .withTargetRowsPerFragment(20)).orElseThrow();
    long compacted = engine.commitCompaction(location, read, work);
    long appended = appendIds(location, compacted, 1000);

    assertThat(work.fragmentsAdded()).isGreaterThan(1).isLessThan(work.fragmentsRemoved());
    assertThat(fragmentIds(location, compacted)).hasSize((int) (10 - work.fragmentsRemoved() + work.fragmentsAdded()))
        .doesNotHaveDuplicates();
    assertThat(rowsAt(location, compacted)).containsExactlyInAnyOrderElementsOf(before);
    assertThat(fragmentIds(location, appended)).doesNotHaveDuplicates();
    assertThat(idsAt(location, appended)).hasSize(61).contains(1000L);
  }

  @Test
  void nothingToCompactGivesNoWorkAndNoVersion() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3);

    assertThat(engine.prepareCompaction(location, v1, CompactionOptions.defaults())).isEmpty();
    assertThat(engine.latestVersion(location)).isEqualTo(v1);
  }

  @Test
  void workPreparedBeforeARegisteredForeignAppendCommitsOnTheNewVersionWithItsRows() {
    String location = newLocation("t");
    long v = smallAppends(location, 5);
    CompactionWork work = engine.prepareCompaction(location, v, CompactionOptions.defaults()).orElseThrow();
    long foreign = appendIds(location, v, 100);

    long compacted = engine.commitCompaction(location, foreign, work);

    // The replaced fragments are untouched at v+1, so the rewrite is right by content there.
    assertThat(compacted).isEqualTo(foreign + 1);
    assertThat(idsAt(location, compacted)).containsExactly(0L, 1L, 2L, 3L, 4L, 100L);
    assertThat(fragmentIds(location, compacted)).hasSize(2);
  }

  @Test
  void workCommittedOnItsOwnVersionAfterAForeignAppendIsAForeignCommit() {
    String location = newLocation("t");
    long v = smallAppends(location, 5);
    CompactionWork work = engine.prepareCompaction(location, v, CompactionOptions.defaults()).orElseThrow();
    long foreign = appendIds(location, v, 100);

    // Lance rebases the Rewrite over the Append (compatible) and commits v+2, which holds the foreign row.
    assertThatThrownBy(() -> engine.commitCompaction(location, v, work))
        .isInstanceOfSatisfying(ForeignCommitException.class, e -> {
          assertThat(e.readVersion()).isEqualTo(v);
          assertThat(e.foreignVersion()).isEqualTo(foreign);
          assertThat(e.committedVersion()).isEqualTo(foreign + 1);
          assertThat(e.foreignOperation()).isEqualTo("Append");
        });
  }

  @Test
  void staleWorkAfterAnOverwriteIsRefusedAndCannotBringBackOldRows() {
    String location = newLocation("t");
    long v = smallAppends(location, 5);
    CompactionWork work = engine.prepareCompaction(location, v, CompactionOptions.defaults()).orElseThrow();
    long registered = engine.commit(location, v, new TableChange.Overwrite(stageIds(location, 7, 8, 9)));
    registered = appendIds(location, registered, 10);
    long read = registered;

    // After an Overwrite Lance restarts fragment ids: fragment 0 exists again, holding other rows.
    assertThat(fragmentIds(location, read)).contains(0);
    assertThatThrownBy(() -> engine.commitCompaction(location, read, work))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("planned on version " + v)
        .hasMessageContaining("nothing was committed");
    assertThat(engine.latestVersion(location)).isEqualTo(read);
    assertThat(idsAt(location, read)).containsExactly(7L, 8L, 9L, 10L);
  }

  @Test
  void committingTheSameWorkTwiceIsRefused() {
    String location = newLocation("t");
    long v = smallAppends(location, 4);
    CompactionWork work = engine.prepareCompaction(location, v, CompactionOptions.defaults()).orElseThrow();
    long compacted = engine.commitCompaction(location, v, work);

    assertThatThrownBy(() -> engine.commitCompaction(location, compacted, work))
        .isInstanceOf(CommitConflictException.class);
    assertThat(engine.latestVersion(location)).isEqualTo(compacted);
    assertThat(idsAt(location, compacted)).containsExactly(0L, 1L, 2L, 3L);
  }

  @Test
  void workPreparedBeforeARestoreCommitsOnTheRestoredVersion() {
    String location = newLocation("t");
    long registered = smallAppends(location, 4);
    CompactionWork work = engine.prepareCompaction(location, registered, CompactionOptions.defaults())
        .orElseThrow();
    appendIds(location, registered, 666);
    long restored = engine.restore(location, registered);

    long compacted = engine.commitCompaction(location, restored, work);

    assertThat(compacted).isEqualTo(restored + 1);
    assertThat(idsAt(location, compacted)).containsExactly(0L, 1L, 2L, 3L);
    assertThat(fragmentIds(location, compacted)).hasSize(1);
  }

  @Test
  void workCannotBeCommittedAtAnotherLocation() {
    String location = newLocation("a");
    String other = newLocation("b");
    long v = smallAppends(location, 3);
    smallAppends(other, 3);
    CompactionWork work = engine.prepareCompaction(location, v, CompactionOptions.defaults()).orElseThrow();

    assertThatThrownBy(() -> engine.commitCompaction(other, v, work)).isInstanceOf(IllegalArgumentException.class);
    assertThat(engine.latestVersion(other)).isEqualTo(v);
  }

  @Test
  void preparingOnAMissingVersionIsNotFound() {
    String location = newLocation("t");
    long v = createWithIds(location, 1);

    assertThatThrownBy(() -> engine.prepareCompaction(location, v + 1, CompactionOptions.defaults()))
        .isInstanceOf(DatasetNotFoundException.class);
  }

  /** Version 1 holds id 0, then one append per id up to {@code count - 1}: one fragment each. */
  private long smallAppends(String location, int count) {
    long version = createWithIds(location, 0);
    for (long id = 1; id < count; id++) {
      version = appendIds(location, version, id);
    }
    return version;
  }

  private List<List<Object>> rowsAt(String location, long version) {
    try (TableSnapshot snapshot = engine.open(location, version, allocator)) {
      return Rows.drain(snapshot.scan(List.of("id", "name"), Optional.empty(), Optional.empty(), 1024));
    }
  }

  /** The fragment ids of {@code version}, read with Lance directly. */
  private List<Integer> fragmentIds(String location, long version) {
    try (BufferAllocator child = allocator.newChildAllocator("fragments", 0, Long.MAX_VALUE);
        Dataset dataset = Dataset.open().allocator(child).uri(LanceLocation.of(location).uri())
            .readOptions(new ReadOptions.Builder().setVersion(version).build()).build()) {
      return dataset.getFragments().stream().map(Fragment::getId).toList();
    }
  }
}
