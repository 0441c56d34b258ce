package dev.lake.query.exec;

import dev.lake.query.plan.LanceTableScan;
import dev.lake.query.plan.StatementPlan;
import dev.lake.query.plan.StatementPlanner;
import dev.lake.query.plan.ValidatedStatement;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.adapter.enumerable.EnumerableInterpretable;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.runtime.Bindable;

/**
 * Turns a planned statement into its result stream: Lance's batches for a pass-through scan, Calcite's Enumerable
 * rows written into Arrow batches otherwise, or the plan text for EXPLAIN.
 */
public final class StatementExecutor {
  private final int batchSize;
  private final Clock clock;
  private final Function<Throwable, RuntimeException> failures;

  /**
   * @param failures translates anything thrown while a batch is produced into lake's exception types
   */
  public StatementExecutor(int batchSize, Clock clock, Function<Throwable, RuntimeException> failures) {
    this.batchSize = batchSize;
    this.clock = clock;
    this.failures = failures;
  }

  /** The result stream of {@code plan}; from here on, closing the stream closes {@code resources}. */
  public ResultReader stream(ValidatedStatement statement, StatementPlan plan, StatementPlanner planner,
      QueryResources resources) {
    if (plan.passThrough().isPresent()) {
      LanceTableScan scan = plan.passThrough().get();
      var source = scan.lanceTable().source().orElseThrow();
      var lance = source.batches(scan.columnNames(), scan.filter(), scan.limit());
      return new ResultReader(statement.resultSchema(), new PassThroughBatches(lance, resources), resources,
          failures);
    }
    EnumerableRel rel = plan.enumerable().orElseThrow();
    Map<String, Object> stashed = new HashMap<>();
    @SuppressWarnings("unchecked")
    Bindable<Object> bindable = EnumerableInterpretable.toBindable(stashed, null, rel, EnumerableRel.Prefer.ARRAY);
    AtomicBoolean cancelled = new AtomicBoolean();
    LakeDataContext context = new LakeDataContext(planner.rootSchema().plus(), planner.typeFactory(), stashed,
        clock, cancelled);
    Supplier<Enumerator<Object>> rows = () -> bindable.bind(context).enumerator();
    return new ResultReader(statement.resultSchema(), new RowBatches(rows, batchSize, () -> cancelled.set(true)),
        resources, failures);
  }

  /** The EXPLAIN result: the plan text, one row per line. */
  public ResultReader explain(ValidatedStatement statement, StatementPlan plan, QueryResources resources) {
    List<Object> lines = List.of((Object[]) plan.explain().split("\n"));
    return new ResultReader(statement.resultSchema(),
        new RowBatches(() -> Linq4j.iterableEnumerator(lines), batchSize, () -> { }), resources, failures);
  }
}
