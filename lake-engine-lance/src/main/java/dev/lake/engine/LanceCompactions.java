package dev.lake.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.Transaction;
import org.lance.compaction.Compaction;
import org.lance.compaction.CompactionPlan;
import org.lance.compaction.CompactionTask;
import org.lance.compaction.RewriteResult;
import org.lance.fragment.DataFile;
import org.lance.operation.Rewrite;
import org.lance.operation.RewriteGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two-phase compaction. Prepare plans on a handle pinned at the read version and executes every task (Lance 7.0.0
 * writes the new files and commits nothing). Commit builds a fresh {@code Rewrite} transaction from the task
 * results on the caller's read version — Lance's own {@code Compaction.commitCompaction} would commit a
 * ReserveFragments version first, return no version, and always use the planned read version — after checking
 * that every fragment the rewrite replaces is still there, unchanged: Lance itself matches replaced fragments by
 * id only, and an Overwrite restarts fragment ids, so a stale rewrite would silently replace new rows with old ones.
 */
final class LanceCompactions {
  private static final Logger LOG = LoggerFactory.getLogger(LanceCompactions.class);

  private final OpenHandles handles;
  private final LanceDatasets datasets;
  private final NeutralityCheck neutrality;

  LanceCompactions(OpenHandles handles, LanceDatasets datasets, NeutralityCheck neutrality) {
    this.handles = handles;
    this.datasets = datasets;
    this.neutrality = neutrality;
  }

  /** See {@link TableEngine#prepareCompaction}. */
  Optional<CompactionWork> prepare(LanceLocation at, long readVersion, CompactionOptions options,
      BufferAllocator allocator) {
    String action = "preparing compaction on version " + readVersion;
    try (Tracked<Dataset> base = datasets.open(at, Optional.of(readVersion), allocator, action)) {
      CompactionPlan plan = Compaction.planCompaction(base.get(), options.toLance());
      List<CompactionTask> tasks = plan.getCompactionTasks();
      if (tasks.isEmpty()) {
        LOG.info("nothing to compact location={} version={}", at, readVersion);
        return Optional.empty();
      }
      List<RewriteResult> results = new ArrayList<>(tasks.size());
      for (CompactionTask task : tasks) {
        results.add(task.execute(base.get()));
      }
      long removed = results.stream().mapToLong(r -> r.getOriginalFragments().size()).sum();
      long added = results.stream().mapToLong(r -> r.getNewFragments().size()).sum();
      List<String> written = results.stream()
          .flatMap(r -> r.getNewFragments().stream())
          .flatMap(f -> f.getFiles().stream())
          .map(file -> DataFiles.DATA_DIR + file.getPath())
          .toList();
      LOG.info("prepared compaction location={} readVersion={} tasks={} fragmentsRemoved={} fragmentsAdded={}", at,
          readVersion, tasks.size(), removed, added);
      return Optional.of(new CompactionWork(at.location(), readVersion, results, removed, added, written));
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
    }
  }

  /** See {@link TableEngine#commitCompaction}. */
  long commit(LanceLocation at, long readVersion, CompactionWork work, BufferAllocator allocator) {
    List<RewriteResult> results = results(work);
    String action = "committing compaction planned on version " + work.readVersion() + " on read version "
        + readVersion;
    try (Tracked<Dataset> base = datasets.open(at, Optional.of(readVersion), allocator, action)) {
      checkReplacedFragmentsPresent(at, readVersion, work, results, base.get());
      Rewrite rewrite = Rewrite.builder().groups(groups(results)).build();
      long committed;
      try (Transaction transaction = new Transaction.Builder().readVersion(readVersion).operation(rewrite).build();
          Tracked<Dataset> result = Tracked.of(base.get().commitTransaction(transaction), handles)) {
        committed = result.get().version();
        neutrality.check(at, readVersion, committed, result.get());
      }
      LOG.info("committed compaction location={} plannedVersion={} readVersion={} version={} fragmentsRemoved={} "
          + "fragmentsAdded={}", at, work.readVersion(), readVersion, committed, work.fragmentsRemoved(),
          work.fragmentsAdded());
      return committed;
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
    }
  }

  private static void checkReplacedFragmentsPresent(LanceLocation at, long readVersion, CompactionWork work,
      List<RewriteResult> results, Dataset base) {
    Map<Integer, FragmentMetadata> present = base.getFragments().stream()
        .map(Fragment::metadata)
        .collect(Collectors.toMap(FragmentMetadata::getId, Function.identity()));
    for (RewriteResult result : results) {
      for (FragmentMetadata replaced : result.getOriginalFragments()) {
        FragmentMetadata now = present.get(replaced.getId());
        if (now == null || !sameContent(now, replaced)) {
          LOG.info("stale compaction refused location={} plannedVersion={} readVersion={} fragment={}", at,
              work.readVersion(), readVersion, replaced.getId());
          throw new CommitConflictException("committing compaction at " + at.location() + " on read version "
              + readVersion + " failed: the work was planned on version " + work.readVersion() + " and replaces "
              + "fragment " + replaced.getId() + ", which version " + readVersion + (now == null ? " no longer holds"
              : " holds with other files") + "; nothing was committed. Skip this work (its files are orphans) and "
              + "prepare the compaction again on the registered version", null);
        }
      }
    }
  }

  private static boolean sameContent(FragmentMetadata a, FragmentMetadata b) {
    return a.getPhysicalRows() == b.getPhysicalRows()
        && paths(a).equals(paths(b))
        && Objects.equals(a.getDeletionFile(), b.getDeletionFile());
  }

  private static List<String> paths(FragmentMetadata fragment) {
    return fragment.getFiles().stream().map(DataFile::getPath).toList();
  }

  private static List<RewriteGroup> groups(List<RewriteResult> results) {
    return results.stream()
        .map(r -> RewriteGroup.builder()
            .oldFragments(new ArrayList<>(r.getOriginalFragments()))
            .newFragments(new ArrayList<>(r.getNewFragments()))
            .build())
        .toList();
  }

  @SuppressWarnings("unchecked")
  private static List<RewriteResult> results(CompactionWork work) {
    return (List<RewriteResult>) work.results();
  }
}
