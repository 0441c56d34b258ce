package dev.lake.query.plan;

import java.math.BigDecimal;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit type coercion, except that a BOOLEAN compared with a number is coerced only when the number is
 * the literal 1 or 0 ({@code b = 1} means {@code b = TRUE}, {@code b = 0} means {@code b = FALSE}; {@code 1.0},
 * {@code 1e0} and {@code -0} are the same values). Any other BOOLEAN-to-number comparison ({@code b <> d},
 * {@code TRUE <> d}, {@code b = 2}) is left uncoerced, so validation refuses it as the client's type error with both
 * types named, as PostgreSQL does; Calcite would cast the boolean to the number's type (or read any literal but 0 as
 * TRUE), and for a boolean literal trips an internal assertion (docs/api.md, "Errors").
 */
final class BooleanEquality extends TypeCoercionImpl {
  BooleanEquality(RelDataTypeFactory typeFactory, SqlValidator validator) {
    super(typeFactory, validator);
  }

  @Override
  protected boolean booleanEquality(SqlCallBinding binding, RelDataType left, RelDataType right) {
    return (numericLiteral(binding.operand(0), left) || numericLiteral(binding.operand(1), right))
        && super.booleanEquality(binding, left, right);
  }

  private static boolean numericLiteral(SqlNode node, RelDataType type) {
    if (!SqlTypeUtil.isNumeric(type) || node.getKind() != SqlKind.LITERAL) {
      return false;
    }
    BigDecimal value = ((SqlLiteral) node).getValueAs(BigDecimal.class);
    return value != null && (value.compareTo(BigDecimal.ONE) == 0 || value.signum() == 0);
  }
}
