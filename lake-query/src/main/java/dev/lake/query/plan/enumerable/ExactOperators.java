package dev.lake.query.plan.enumerable;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * The operators the exact rewrites put into plans: each names a static method of {@link TemporalFunctions},
 * {@link DecimalFunctions} or {@link IntegerFunctions}, which Calcite's code generator calls by class and name (the
 * call's type is set by the rewrite).
 */
final class ExactOperators {
  private ExactOperators() {}

  /** The operator {@code LAKE_<METHOD>} calling {@code <functions>.<method>}. */
  static SqlOperator function(Class<?> functions, String method) {
    return new SqlUserDefinedFunction(new SqlIdentifier("LAKE_" + method.toUpperCase(java.util.Locale.ROOT),
        SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, InferTypes.FIRST_KNOWN, null,
        ScalarFunctionImpl.create(functions, method));
  }
}
