package dev.lake.query.plan;

import java.util.Map;
import java.util.Objects;
import org.apache.calcite.runtime.Bindable;

/**
 * An Enumerable plan compiled by Calcite: the code, and the objects it reads from its data context (Lance scan and
 * SQL calls) by variable name. Holds nothing of an execution.
 */
public record EnumerableCode(Bindable<Object> bindable, Map<String, Object> stashed) {
  public EnumerableCode {
    Objects.requireNonNull(bindable, "bindable");
    stashed = Map.copyOf(stashed);
  }
}
