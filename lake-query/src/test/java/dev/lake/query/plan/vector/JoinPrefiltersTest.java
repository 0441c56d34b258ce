package dev.lake.query.plan.vector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.vector.Col;
import dev.lake.query.vector.Exprs;
import dev.lake.query.vector.JoinSpec;
import dev.lake.query.vector.KeyPrefilter;
import dev.lake.query.vector.Kind;
import dev.lake.query.vector.Op;
import dev.lake.query.vector.OuterProbe;
import dev.lake.query.vector.SemiProbe;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which later joins of a probe pipeline have their keys tested before its first join, and as which columns of the
 * batch reaching it: keys traced through projections that move or compute columns, joins with the probe on either
 * side, EXISTS (tested) and NOT EXISTS (not), and nothing after an outer join keeping its build rows.
 */
class JoinPrefiltersTest {
  private static final Col LONG = Exprs.shape(Kind.LONG, 0);

  private static JoinSpec spec(int slot, int[] probeKeys, int buildColumns, boolean probeLeft, int probeWidth) {
    Col[] shapes = new Col[buildColumns];
    java.util.Arrays.fill(shapes, LONG);
    int[] buildKeys = new int[probeKeys.length];
    return new JoinSpec(slot, probeKeys, buildKeys, shapes, probeLeft, probeWidth);
  }

  @Test
  void laterJoinKeysAreTracedBackToTheFirstJoinsInput() {
    JoinPrefilters prefilters = new JoinPrefilters();
    List<Op> pipeline = new ArrayList<>();
    pipeline.add(new Op.Filter(List.of()));
    pipeline.add(new Op.Filter(List.of()));
    // the first join at index 2, over 4 columns, 2 build columns after them: [0 1 2 3 - -]
    List<Op> first = List.of(new Op.Probe(spec(0, new int[] {1}, 2, true, 4), null));
    prefilters.join(first, pipeline.size(), 4);
    pipeline.addAll(first);
    // a projection picking columns 3, 0, a build column and a computed one: [3 0 - -]
    prefilters.project(new int[] {3, 0, 5, 6}, 6);
    pipeline.add(new Op.Filter(List.of()));
    // the probe on the right: 1 build column first, then [3 0 - -]; keys (0, 1) are columns 3 and 0
    List<Op> second = List.of(new Op.Probe(spec(1, new int[] {0, 1}, 1, false, 4), null));
    prefilters.join(second, pipeline.size(), 4);
    pipeline.addAll(second);
    // [- 3 0 - -] projected again, columns swapped: [0 3 - - -]
    prefilters.project(new int[] {2, 1, 0, 3, 4}, 5);
    // EXISTS on column 0: column 0
    List<Op> exists = List.of(new SemiProbe(spec(2, new int[] {0}, 1, true, 5), List.of(), false));
    prefilters.join(exists, pipeline.size(), 5);
    pipeline.addAll(exists);
    // NOT EXISTS and a join on a build column: not tested
    List<Op> notExists = List.of(new SemiProbe(spec(3, new int[] {1}, 1, true, 5), List.of(), true));
    prefilters.join(notExists, pipeline.size(), 5);
    pipeline.addAll(notExists);
    List<Op> onBuild = List.of(new Op.Probe(spec(4, new int[] {2}, 1, true, 5), null));
    prefilters.join(onBuild, pipeline.size(), 5);
    pipeline.addAll(onBuild);
    // an outer join keeping its build rows, then a join on a traced column: not tested
    List<Op> rightOuter = List.of(new OuterProbe(spec(5, new int[] {1}, 1, true, 6), new Col[6], null, false,
        true, "build-outer"));
    prefilters.join(rightOuter, pipeline.size(), 6);
    pipeline.addAll(rightOuter);
    List<Op> afterOuter = List.of(new Op.Probe(spec(6, new int[] {2}, 1, true, 7), null));
    prefilters.join(afterOuter, pipeline.size(), 7);
    pipeline.addAll(afterOuter);

    List<Op> compiled = prefilters.insertInto(pipeline);
    assertThat(compiled).hasSize(pipeline.size() + 1);
    assertThat(compiled.get(2)).isInstanceOf(KeyPrefilter.class);
    assertThat(compiled.get(3)).isSameAs(first.get(0));
    List<KeyPrefilter.Candidate> candidates = ((KeyPrefilter) compiled.get(2)).candidates();
    assertThat(candidates).extracting(KeyPrefilter.Candidate::slot).containsExactly(1, 2);
    assertThat(candidates.get(0).keys()).containsExactly(3, 0);
    assertThat(candidates.get(1).keys()).containsExactly(0);
  }

  @Test
  void aPipelineWithoutTestableLaterJoinsIsLeftAsItIs() {
    JoinPrefilters prefilters = new JoinPrefilters();
    List<Op> pipeline = new ArrayList<>(List.of(new Op.Probe(spec(0, new int[] {0}, 1, true, 2), null)));
    prefilters.join(pipeline, 0, 2);
    // the second join's key is the first join's build column
    List<Op> second = List.of(new Op.Probe(spec(1, new int[] {2}, 1, true, 3), null));
    prefilters.join(second, 1, 3);
    pipeline.addAll(second);
    assertThat(prefilters.insertInto(pipeline)).isSameAs(pipeline);
  }
}
