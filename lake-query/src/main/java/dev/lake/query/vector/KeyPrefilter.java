package dev.lake.query.vector;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Drops, before the first join of a probe pipeline, the rows that a later inner or semi join of the pipeline would
 * drop for want of a build row with their key (sideways information passing; docs/architecture.md, "Vectorized
 * joins"): every build side is built before the probe scan starts, so a join deep in the pipeline can test its keys
 * first. TPC-H Q9 probes partsupp (every lineitem row matches) before part (one row in eighteen does): tested here,
 * part's keys leave an eighteenth of the rows for the partsupp, supplier and orders probes.
 *
 * <p>Exact: a row is dropped only when the later join's table says no build row can hold its key
 * ({@link JoinTable#mayMatch}: exact bits, or a bit filter that never says no to a key it holds), and the planner
 * hands over only joins whose probe keys are unchanged columns of the batch reaching this filter, with no join
 * keeping unmatched build rows before them. Adaptive: a table whose test keeps most of the rows
 * ({@link #USEFUL_SHARE}) after {@link #TRIAL_ROWS} tested rows is not tested again in that execution — its join does
 * the work anyway. Tables are tested smallest first.
 */
public final class KeyPrefilter implements Op {
  /** Rows a table's test sees before its share of kept rows decides whether it goes on. */
  static final long TRIAL_ROWS = 1 << 16;
  /** A test keeping more than this share of the rows it sees is not worth its cost. */
  static final double USEFUL_SHARE = 0.75;

  /** A later join of the pipeline: its build side's slot and its probe keys as columns of this filter's input. */
  public record Candidate(int slot, int[] keys) {
    public Candidate {
      keys = keys.clone();
    }
  }

  private final List<Candidate> candidates;
  /** Per candidate (in {@link #candidates}' order), the table its execution built; null when unbound or spilled. */
  private final JoinTable[] tables;
  /** Per candidate c: rows tested at 2c, rows kept at 2c + 1 (all workers of the execution together). */
  private final AtomicLongArray counts;

  /** The unbound filter of a plan. */
  public KeyPrefilter(List<Candidate> candidates) {
    this(List.copyOf(candidates), null);
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("a key prefilter tests at least one join's keys");
    }
  }

  private KeyPrefilter(List<Candidate> candidates, JoinTable[] tables) {
    this.candidates = candidates;
    this.tables = tables;
    this.counts = new AtomicLongArray(2 * candidates.size());
  }

  public List<Candidate> candidates() {
    return candidates;
  }

  /**
   * This filter for one execution: each candidate tests the table built for its slot, smallest first; a slot whose
   * build side spilled ({@code spilled.get(slot)} not null) is not tested.
   */
  KeyPrefilter bind(List<JoinTable> built, List<PartitionedBuild> spilled) {
    List<Candidate> usable = new ArrayList<>();
    for (Candidate candidate : candidates) {
      if (spilled.get(candidate.slot()) == null && built.get(candidate.slot()) != null) {
        usable.add(candidate);
      }
    }
    usable.sort(Comparator.comparingInt(candidate -> built.get(candidate.slot()).rows()));
    JoinTable[] tables = new JoinTable[usable.size()];
    for (int c = 0; c < tables.length; c++) {
      tables[c] = built.get(usable.get(c).slot());
    }
    return new KeyPrefilter(usable, tables);
  }

  @Override
  public Batch apply(Batch batch) {
    if (tables == null) {
      throw new IllegalStateException("a key prefilter ran before the build sides were bound");
    }
    int n = batch.size();
    int[] positions = null;
    int count = n;
    for (int c = 0; c < tables.length && count > 0; c++) {
      long tested = counts.get(2 * c);
      if (tested >= TRIAL_ROWS && counts.get(2 * c + 1) > USEFUL_SHARE * tested) {
        continue;
      }
      int[] refined = positions == null ? Batch.range(0, n) : positions;
      int kept = tables[c].mayMatch(batch, candidates.get(c).keys(), refined, count);
      if (kept < 0) {
        // no cheap test for this table's keys: never try again
        counts.set(2 * c, TRIAL_ROWS);
        counts.set(2 * c + 1, TRIAL_ROWS);
        continue;
      }
      counts.addAndGet(2 * c, count);
      counts.addAndGet(2 * c + 1, kept);
      positions = refined;
      count = kept;
    }
    return positions == null || count == n ? batch : batch.select(positions, count);
  }
}
