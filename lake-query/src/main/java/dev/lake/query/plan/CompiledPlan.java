package dev.lake.query.plan;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A statement ready to run, holding nothing of an execution (sources are bound per execution through the data
 * context), so one compiled plan may serve many executions at once: one Lance scan streamed as is, one statement run
 * whole by Lance's SQL engine (with Calcite's code for it compiled only if Lance rejects it), Calcite's compiled
 * Enumerable code, or the text of an EXPLAIN.
 *
 * @param plan the optimized plan
 * @param code the compiled code of an Enumerable plan (absent for pass-through, whole Lance SQL statements and
 *     EXPLAIN)
 * @param fallback for a whole Lance SQL statement: compiles (once, when first asked) the Enumerable code Calcite runs
 *     instead if Lance rejects the statement
 * @param explain the EXPLAIN text, when the statement is EXPLAIN
 */
public record CompiledPlan(StatementPlan plan, Optional<EnumerableCode> code,
    Optional<Supplier<EnumerableCode>> fallback, Optional<String> explain) {
  public CompiledPlan {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(fallback, "fallback");
    Objects.requireNonNull(explain, "explain");
  }
}
