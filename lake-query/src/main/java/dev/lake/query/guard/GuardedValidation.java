package dev.lake.query.guard;

import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;

/**
 * Validation and conversion to relational algebra that a {@link QueryGuard} can stop: the validator polls the guard
 * for every call it validates and every type it derives, the convertlet table for every call it converts, so a
 * statement whose planning passes its deadline (GetFlightInfo, CreatePreparedStatement, GetSchema, and the validation
 * a DoGet does when its statement is not cached) unwinds with the guard's {@link QueryStoppedException} instead of
 * running on. Parsing is linear in the statement's length, which {@code query.max-statement-length} bounds.
 */
public final class GuardedValidation {
  private GuardedValidation() {}

  /** A validator as {@code SqlValidatorUtil.newValidator} makes it, polling {@code guard}. */
  public static SqlValidator validator(SqlOperatorTable operators, Prepare.CatalogReader catalogReader,
      RelDataTypeFactory typeFactory, SqlValidator.Config config, QueryGuard guard) {
    return new SqlValidatorImpl(operators, catalogReader, typeFactory, config) {
      @Override
      public void validateCall(SqlCall call, SqlValidatorScope scope) {
        guard.check();
        super.validateCall(call, scope);
      }

      @Override
      public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
        guard.check();
        return super.deriveType(scope, expr);
      }

      @Override
      public void validateQuery(SqlNode node, SqlValidatorScope scope, RelDataType targetRowType) {
        guard.check();
        super.validateQuery(node, scope, targetRowType);
      }
    };
  }

  /** {@code convertlets}, polling {@code guard} before each call is converted. */
  public static SqlRexConvertletTable convertlets(SqlRexConvertletTable convertlets, QueryGuard guard) {
    return call -> {
      guard.check();
      SqlRexConvertlet convertlet = convertlets.get(call);
      return convertlet;
    };
  }
}
