package dev.lake.query.plan;

import dev.lake.query.plan.lance.LanceTable;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A statement after validation and conversion to relational algebra.
 *
 * @param explain whether the statement is EXPLAIN (then {@code root} is the explained query)
 * @param root the converted query
 * @param parameterRowType one field per {@code ?}, in order, with its inferred type
 * @param resultSchema the Arrow schema of the statement's results
 * @param tables the tables it resolved, by lower-case name
 */
public record ValidatedStatement(boolean explain, RelRoot root, RelDataType parameterRowType, Schema resultSchema,
    Map<String, LanceTable> tables) {
  public ValidatedStatement {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(parameterRowType, "parameterRowType");
    Objects.requireNonNull(resultSchema, "resultSchema");
    tables = Map.copyOf(tables);
  }

  public int parameterCount() {
    return parameterRowType.getFieldCount();
  }
}
