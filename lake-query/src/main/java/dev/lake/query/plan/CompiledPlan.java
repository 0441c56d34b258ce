package dev.lake.query.plan;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.calcite.runtime.Bindable;

/**
 * A statement ready to run, holding nothing of an execution (sources are bound per execution through the data
 * context), so one compiled plan may serve many executions at once: either one Lance scan streamed as is, Calcite's
 * compiled Enumerable code with the objects it stashed, or the text of an EXPLAIN.
 *
 * @param plan the optimized plan
 * @param bindable the compiled code of an Enumerable plan
 * @param stashed what that code reads from its data context (Lance scan calls), by variable name
 * @param explain the EXPLAIN text, when the statement is EXPLAIN
 */
public record CompiledPlan(StatementPlan plan, Optional<Bindable<Object>> bindable, Map<String, Object> stashed,
    Optional<String> explain) {
  public CompiledPlan {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(bindable, "bindable");
    stashed = Map.copyOf(stashed);
    Objects.requireNonNull(explain, "explain");
  }
}
