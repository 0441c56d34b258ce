package dev.lake.query.plan.vector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.vector.Col;
import dev.lake.query.vector.JoinSpec;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A vectorized join builds its computed build sides (joins and aggregates of their own, whose tables they release
 * when done) before its plain table scans, so a query's memory peak is the larger of the two, not their sum (TPC-H
 * Q21 at SF 10: the EXISTS's reduction and the 7 million 'F' orders).
 */
class VectorJoinCallTest {
  @Test
  void computedBuildSidesAreBuiltBeforeScannedOnes() {
    List<JoinSpec> joins = List.of(spec(0), spec(1), spec(2), spec(3), spec(4));
    BuildScan scan = new BuildScan("orders", List.of("o_orderkey"), Optional.empty(), Optional.empty(), "orders");
    List<Optional<BuildScan>> scans = List.of(Optional.of(scan), Optional.empty(), Optional.of(scan),
        Optional.empty(), Optional.empty());
    assertThat(VectorJoinCall.buildOrder(joins, scans).stream().map(JoinSpec::slot).toList())
        .containsExactly(1, 3, 4, 0, 2);
    assertThat(VectorJoinCall.buildOrder(List.of(spec(1), spec(0)), List.of(Optional.of(scan), Optional.of(scan)))
        .stream().map(JoinSpec::slot).toList()).containsExactly(1, 0);
  }

  private static JoinSpec spec(int slot) {
    return new JoinSpec(slot, new int[] {0}, new int[] {0}, new Col[0], true, 1);
  }
}
