package dev.lake.query.plan.vector;

import dev.lake.query.vector.JoinSpec;
import dev.lake.query.vector.KeyPrefilter;
import dev.lake.query.vector.Op;
import dev.lake.query.vector.OuterProbe;
import dev.lake.query.vector.SemiProbe;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Follows a probe pipeline as it is compiled, to find the joins after its first one whose keys can be tested before
 * it ({@link KeyPrefilter}): an inner or semi join whose probe keys are columns of the batch reaching the first join,
 * passed on unchanged (by filters, projections that only pick them, and joins, which keep the probe columns). Stops
 * at a join keeping its unmatched build rows (RIGHT or FULL seen from the probe): rows it adds never met the filter,
 * and which build rows count as unmatched depends on every probe row reaching it.
 */
final class JoinPrefilters {
  /** Per column of the pipeline's current batch: its index in the batch reaching the first join, or -1. */
  private int[] origins;
  /** Where the first join's operators start in the pipeline's list. */
  private int firstAt = -1;
  private boolean stopped;
  private final List<KeyPrefilter.Candidate> candidates = new ArrayList<>();

  /** A projection: output column i is input column {@code outputs[i]} when below {@code inputCount}, else computed. */
  void project(int[] outputs, int inputCount) {
    if (origins == null) {
      return;
    }
    int[] next = new int[outputs.length];
    for (int i = 0; i < outputs.length; i++) {
      next[i] = outputs[i] < inputCount ? origins[outputs[i]] : -1;
    }
    origins = next;
  }

  /**
   * A join, compiled into {@code ops} (its probe first) starting at index {@code at} of the pipeline's operators, over
   * a batch of {@code width} columns.
   */
  void join(List<Op> ops, int at, int width) {
    Op probe = ops.get(0);
    boolean first = origins == null;
    if (first) {
      origins = new int[width];
      Arrays.setAll(origins, i -> i);
      firstAt = at;
    }
    JoinSpec spec;
    boolean testable;
    boolean keepsProbeColumnsOnly = false;
    if (probe instanceof Op.Probe) {
      spec = ((Op.Probe) probe).spec();
      testable = true;
    } else if (probe instanceof SemiProbe) {
      spec = ((SemiProbe) probe).spec();
      testable = !((SemiProbe) probe).anti();
      keepsProbeColumnsOnly = true;
    } else if (probe instanceof OuterProbe) {
      spec = ((OuterProbe) probe).spec();
      testable = false;
      stopped |= ((OuterProbe) probe).keepBuild();
    } else {
      throw new IllegalStateException("a join compiled into " + probe.getClass().getSimpleName());
    }
    if (!first && testable && !stopped) {
      int[] keys = new int[spec.probeKeys().length];
      boolean traced = true;
      for (int k = 0; k < keys.length; k++) {
        keys[k] = origins[spec.probeKeys()[k]];
        traced &= keys[k] >= 0;
      }
      if (traced && keys.length > 0) {
        candidates.add(new KeyPrefilter.Candidate(spec.slot(), keys));
      }
    }
    if (!keepsProbeColumnsOnly) {
      int[] build = new int[spec.buildShapes().length];
      Arrays.fill(build, -1);
      origins = spec.probeLeft() ? concat(origins, build) : concat(build, origins);
    }
  }

  /** The pipeline's operators with the prefilter before the first join, when some later join can be tested. */
  List<Op> insertInto(List<Op> ops) {
    if (candidates.isEmpty()) {
      return ops;
    }
    List<Op> out = new ArrayList<>(ops);
    out.add(firstAt, new KeyPrefilter(candidates));
    return out;
  }

  private static int[] concat(int[] a, int[] b) {
    int[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
