package dev.lake.query.plan;

import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.plan.lance.PushedStatement;
import dev.lake.query.vector.VectorPlan;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A statement ready to run, one kind per way it runs, holding nothing of an execution (sources are bound per
 * execution through the data context), so one compiled plan may serve many executions at once. Whoever runs one
 * matches every kind through {@link #accept} (a {@link Cases} must handle each: a new kind does not compile until
 * every runner handles it).
 */
public sealed interface CompiledPlan permits CompiledPlan.PassThrough, CompiledPlan.LanceSql,
    CompiledPlan.Vectorized, CompiledPlan.Enumerable, CompiledPlan.Explain {
  /** The optimized plan. */
  StatementPlan plan();

  /** The path for logs: explain, or the engine's name ({@link StatementPlan#path}). */
  default String path() {
    return plan().path();
  }

  <R> R accept(Cases<R> cases);

  /** One case per kind of compiled plan. */
  interface Cases<R> {
    R passThrough(PassThrough plan);

    R lanceSql(LanceSql plan);

    R vectorized(Vectorized plan);

    R enumerable(Enumerable plan);

    R explain(Explain plan);
  }

  /**
   * One Lance scan of stored columns, its batches streamed as they are — or its rows read from the vectorized
   * executor's column cache when that holds its columns.
   *
   * @param filter the Lance filter the scan runs: the scan's own, or the one a parameterized scan bound for this
   *     execution ({@link ParameterizedScan})
   * @param cacheRead how the same scan (its condition bound like {@code filter}) reads the column cache, when the
   *     executor can evaluate it ({@link dev.lake.query.plan.vector.ColumnCacheScans#passThrough})
   */
  record PassThrough(StatementPlan plan, LanceTableScan scan, Optional<String> filter,
      Optional<LanceTableScan.CacheRead> cacheRead) implements CompiledPlan {
    public PassThrough {
      Objects.requireNonNull(plan, "plan");
      Objects.requireNonNull(scan, "scan");
      Objects.requireNonNull(filter, "filter");
      Objects.requireNonNull(cacheRead, "cacheRead");
    }

    /** The scan as it was planned, its own filter. */
    public PassThrough(StatementPlan plan, LanceTableScan scan) {
      this(plan, scan, scan.filter(),
          dev.lake.query.plan.vector.ColumnCacheScans.passThrough(scan, scan.condition()));
    }

    /** Whether this execution's values were bound into a parameterized scan (its filter is not the scan's own). */
    public boolean bound() {
      return !filter.equals(scan.filter());
    }

    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.passThrough(this);
    }
  }

  /**
   * One statement run whole by Lance's SQL engine.
   *
   * @param fallback compiles (once, when first asked) the Enumerable code Calcite runs instead if Lance rejects the
   *     statement
   */
  record LanceSql(StatementPlan plan, PushedStatement statement, Supplier<EnumerableCode> fallback)
      implements CompiledPlan {
    public LanceSql {
      Objects.requireNonNull(plan, "plan");
      Objects.requireNonNull(statement, "statement");
      Objects.requireNonNull(fallback, "fallback");
    }

    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.lanceSql(this);
    }
  }

  /** One statement run whole by lake's vectorized executor, its result columns written into the result batches. */
  record Vectorized(StatementPlan plan, PushedStatement statement, VectorPlan vectorPlan) implements CompiledPlan {
    public Vectorized {
      Objects.requireNonNull(plan, "plan");
      Objects.requireNonNull(statement, "statement");
      Objects.requireNonNull(vectorPlan, "vectorPlan");
    }

    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.vectorized(this);
    }
  }

  /** Calcite's compiled Enumerable code (possibly over pushed-down subtrees and vectorized joins). */
  record Enumerable(StatementPlan plan, EnumerableCode code) implements CompiledPlan {
    public Enumerable {
      Objects.requireNonNull(plan, "plan");
      Objects.requireNonNull(code, "code");
    }

    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.enumerable(this);
    }
  }

  /** EXPLAIN: the plan's text, one row per line. */
  record Explain(StatementPlan plan, String text) implements CompiledPlan {
    public Explain {
      Objects.requireNonNull(plan, "plan");
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String path() {
      return "explain";
    }

    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.explain(this);
    }
  }
}
