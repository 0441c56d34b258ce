package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Transaction;
import org.lance.compaction.Compaction;
import org.lance.compaction.CompactionOptions;
import org.lance.compaction.CompactionPlan;
import org.lance.compaction.CompactionTask;
import org.lance.operation.ReserveFragments;

class LanceTableEngineCommitTest extends EngineTestSupport {

  @Test
  void createThenAppendMakesVersionTwoWhileVersionOneKeepsItsRows() {
    String location = newLocation("t");

    long v1 = createWithIds(location, 1, 2, 3);
    long v2 = appendIds(location, v1, 4, 5);

    assertThat(v1).isEqualTo(1);
    assertThat(v2).isEqualTo(2);
    assertThat(engine.latestVersion(location)).isEqualTo(2);
    assertThat(idsAt(location, 1)).containsExactly(1L, 2L, 3L);
    assertThat(idsAt(location, 2)).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void overwriteReplacesAllRowsInTheSameLocation() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3);

    long v2 = engine.commit(location, v1, new TableChange.Overwrite(stageIds(location, 7, 8)));

    assertThat(v2).isEqualTo(2);
    assertThat(idsAt(location, 2)).containsExactly(7L, 8L);
    assertThat(idsAt(location, 1)).containsExactly(1L, 2L, 3L);
  }

  @Test
  void createRefusesALocationThatAlreadyHoldsADataset() {
    String location = newLocation("t");
    createWithIds(location, 1);
    StagedData second = stageIds(location, 2);

    assertThatThrownBy(() -> engine.create(location, second)).isInstanceOf(LocationExistsException.class);
    assertThat(engine.latestVersion(location)).isEqualTo(1);
  }

  @Test
  void restoreAfterAnOrphanCommitBringsBackTheRegisteredRowsAndLaterAppendsOnlyAddNewRows() {
    String location = newLocation("t");
    long registered = createWithIds(location, 1, 2);
    long orphan = appendIds(location, registered, 666);
    assertThat(orphan).isEqualTo(2);

    long restored = engine.restore(location, registered);
    long appended = appendIds(location, restored, 3);

    assertThat(restored).isEqualTo(3);
    assertThat(idsAt(location, restored)).containsExactly(1L, 2L);
    assertThat(appended).isEqualTo(4);
    assertThat(idsAt(location, appended)).containsExactly(1L, 2L, 3L);
  }

  @Test
  void foreignDataCommitBetweenReadVersionAndCommitIsReportedAndNamesTheVersions() {
    String location = newLocation("t");
    long read = createWithIds(location, 1);
    StagedData ours = stageIds(location, 2);
    long foreign = appendIds(location, read, 99);

    assertThatThrownBy(() -> engine.commit(location, read, new TableChange.Append(ours)))
        .isInstanceOfSatisfying(ForeignCommitException.class, e -> {
          assertThat(e.readVersion()).isEqualTo(read);
          assertThat(e.foreignVersion()).isEqualTo(foreign);
          assertThat(e.committedVersion()).isEqualTo(read + 2);
          assertThat(e.foreignOperation()).isEqualTo("Append");
          assertThat(e.getMessage()).contains("version " + foreign).contains("read version " + read)
              .contains("committed version " + (read + 2));
        });
    assertThat(engine.dataChangingVersionsAfter(location, read)).containsExactly(foreign, read + 2);
  }

  @Test
  void reserveFragmentsVersionsInBetweenAreDataNeutral() throws Exception {
    String location = newLocation("t");
    long read = createWithIds(location, 1);
    StagedData ours = stageIds(location, 2);
    long reserved = commitReserveFragmentsDirectly(location);

    long committed = engine.commit(location, read, new TableChange.Append(ours));

    assertThat(reserved).isEqualTo(read + 1);
    assertThat(committed).isEqualTo(read + 2);
    assertThat(idsAt(location, committed)).containsExactly(1L, 2L);
    assertThat(engine.dataChangingVersionsAfter(location, read)).containsExactly(committed);
    assertThat(engine.dataChangingVersionsAfter(location, committed)).isEmpty();
  }

  @Test
  void stagedDataStaysUsableAcrossARestoreWhileTheStaleReadVersionIsRefused() {
    String location = newLocation("t");
    long registered = createWithIds(location, 1);
    StagedData staged = stageIds(location, 2, 3);
    long orphan = appendIds(location, registered, 666);
    long restored = engine.restore(location, registered);

    assertThatThrownBy(() -> engine.commit(location, orphan, new TableChange.Append(staged)))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("read version " + orphan);
    long committed = engine.commit(location, restored, new TableChange.Append(staged));

    assertThat(committed).isEqualTo(restored + 1);
    assertThat(idsAt(location, committed)).containsExactly(1L, 2L, 3L);
  }

  @Test
  void appendWithColumnsInAnotherOrderIsRefusedAndCommitsNothing() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1);
    org.apache.arrow.vector.types.pojo.Schema swapped = new org.apache.arrow.vector.types.pojo.Schema(
        List.of(ID_NAME.getFields().get(1), ID_NAME.getFields().get(0)));
    StagedData staged = engine.stage(location,
        new RowsReader(allocator, swapped, List.of(Rows.row("x", 2L)), 10));

    assertThatThrownBy(() -> engine.commit(location, v1, new TableChange.Append(staged)))
        .isInstanceOf(IncompatibleDataException.class)
        .hasMessageContaining("column 1 is id in the table but name in the data");
    assertThat(engine.latestVersion(location)).isEqualTo(v1);
  }

  @Test
  void missingDatasetsAndVersionsAreNotFound() {
    String location = newLocation("t");
    assertThat(engine.exists(location)).isFalse();
    assertThatThrownBy(() -> engine.latestVersion(location)).isInstanceOf(DatasetNotFoundException.class);
    assertThatThrownBy(() -> engine.open(location, 1, allocator)).isInstanceOf(DatasetNotFoundException.class);

    createWithIds(location, 1);

    assertThat(engine.exists(location)).isTrue();
    assertThatThrownBy(() -> engine.open(location, 2, allocator))
        .isInstanceOf(DatasetNotFoundException.class)
        .hasMessageContaining("opening version 2");
    assertThatThrownBy(() -> engine.restore(location, 5)).isInstanceOf(DatasetNotFoundException.class);
    assertThatThrownBy(() -> engine.commit(location, 7, new TableChange.Append(stageIds(location, 2))))
        .isInstanceOf(DatasetNotFoundException.class);
    assertThat(engine.latestVersion(location)).isEqualTo(1);
  }

  @Test
  void dataStagedAtOneLocationCannotBeCommittedAtAnother() {
    String first = newLocation("a");
    String second = newLocation("b");
    StagedData staged = stageIds(first, 1);

    assertThatThrownBy(() -> engine.create(second, staged))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stage it at the table's location");
    assertThat(engine.exists(second)).isFalse();
  }

  @Test
  void aCompactionRewriteRunOutsideTheLockDoesNotCountAsAForeignCommit() throws Exception {
    String location = newLocation("t");
    long v = createWithIds(location, 1);
    v = appendIds(location, v, 2);
    long read = appendIds(location, v, 3);
    StagedData ours = stageIds(location, 4);
    int rewriteTasks = executeCompactionTasksDirectly(location, read);
    long afterRewrite = engine.latestVersion(location);

    long committed = engine.commit(location, read, new TableChange.Append(ours));

    assertThat(rewriteTasks).isPositive();
    // Lance 7.0.0 commits nothing while executing these tasks (no ReserveFragments without stable row ids).
    assertThat(afterRewrite).isEqualTo(read);
    assertThat(committed).isEqualTo(afterRewrite + 1);
    assertThat(engine.dataChangingVersionsAfter(location, read)).containsExactly(committed);
    assertThat(idsAt(location, committed)).containsExactly(1L, 2L, 3L, 4L);
  }

  /** Phase one of two-phase compaction (plan + execute), as maintenance runs it outside the table lock. */
  private int executeCompactionTasksDirectly(String location, long readVersion) throws Exception {
    try (BufferAllocator child = allocator.newChildAllocator("compact", 0, Long.MAX_VALUE);
        Dataset dataset = Dataset.open().allocator(child).uri(location)
            .readOptions(new ReadOptions.Builder().setVersion(readVersion).build()).build()) {
      CompactionPlan plan = Compaction.planCompaction(dataset, CompactionOptions.builder().build());
      for (CompactionTask task : plan.getCompactionTasks()) {
        task.execute(dataset);
      }
      return plan.getCompactionTasks().size();
    }
  }

  /** What two-phase compaction does outside the table lock: a data-neutral ReserveFragments commit. */
  private long commitReserveFragmentsDirectly(String location) throws Exception {
    try (BufferAllocator child = allocator.newChildAllocator("reserve", 0, Long.MAX_VALUE);
        Dataset latest = Dataset.open().allocator(child).uri(location)
            .readOptions(new ReadOptions.Builder().setStorageOptions(Map.of()).build()).build();
        Transaction transaction = new Transaction.Builder().readVersion(latest.version())
            .operation(ReserveFragments.builder().numFragments(2).build()).build();
        Dataset committed = latest.commitTransaction(transaction)) {
      return committed.version();
    }
  }
}
