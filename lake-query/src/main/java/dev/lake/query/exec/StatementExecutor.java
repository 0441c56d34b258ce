package dev.lake.query.exec;

import dev.lake.query.plan.CompiledPlan;
import dev.lake.query.plan.LanceScanCall;
import dev.lake.query.plan.LanceTableScan;
import dev.lake.query.plan.ScanSource;
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
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.runtime.Bindable;

/**
 * Turns a compiled statement into its result stream: Lance's batches for a pass-through scan, Calcite's Enumerable
 * rows written into Arrow batches otherwise, or the plan text for EXPLAIN. The compiled plan may be shared by
 * concurrent executions: everything of one execution (its scan sources, clock readings, cancel flag) lives in its
 * own data context.
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

  /**
   * The result stream of {@code compiled}, reading the tables through {@code sources}; from here on, closing the
   * stream closes {@code resources}.
   *
   * @param sources the execution's scan source of every table reference, by reference key
   */
  public ResultReader stream(ValidatedStatement statement, CompiledPlan compiled, StatementPlanner planner,
      Map<String, ScanSource> sources, QueryResources resources) {
    if (compiled.explain().isPresent()) {
      return explain(statement, compiled.explain().get(), resources);
    }
    StatementPlan plan = compiled.plan();
    if (plan.passThrough().isPresent()) {
      LanceTableScan scan = plan.passThrough().get();
      ScanSource source = source(sources, scan.lanceTable().reference().key());
      var lance = source.batches(scan.columnNames(), scan.filter(), scan.limit());
      return new ResultReader(statement.resultSchema(), new PassThroughBatches(lance, resources), resources,
          failures);
    }
    Bindable<Object> bindable = compiled.bindable().orElseThrow();
    Map<String, Object> values = new HashMap<>(compiled.stashed());
    sources.forEach((reference, source) -> values.put(LanceScanCall.sourceVariable(reference), source));
    AtomicBoolean cancelled = new AtomicBoolean();
    LakeDataContext context = new LakeDataContext(planner.rootSchema().plus(), planner.typeFactory(), values,
        clock, cancelled);
    Supplier<Enumerator<Object>> rows = () -> bindable.bind(context).enumerator();
    return new ResultReader(statement.resultSchema(), new RowBatches(rows, batchSize, () -> cancelled.set(true)),
        resources, failures);
  }

  private static ScanSource source(Map<String, ScanSource> sources, String reference) {
    ScanSource source = sources.get(reference);
    if (source == null) {
      throw new IllegalStateException("no scan source is bound for table reference '" + reference + "'");
    }
    return source;
  }

  /** The EXPLAIN result: the plan text, one row per line. */
  private ResultReader explain(ValidatedStatement statement, String text, QueryResources resources) {
    List<Object> lines = List.of((Object[]) text.split("\n"));
    return new ResultReader(statement.resultSchema(),
        new RowBatches(() -> Linq4j.iterableEnumerator(lines), batchSize, () -> { }), resources, failures);
  }
}
