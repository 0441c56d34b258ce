package dev.lake.query.plan.lance;

import dev.lake.query.plan.types.LakeTypeSystem;
import java.math.BigDecimal;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The SQL dialect of Lance's own SQL engine ({@code Dataset.sql}, Apache DataFusion), as checked against Lance 7.0.0.
 *
 * <ul>
 *   <li>Identifiers are double-quoted and case-sensitive (unquoted ones are folded to lower case there).
 *   <li>{@code LIMIT n OFFSET m}: DataFusion rejects FETCH.
 *   <li>Exact numeric literals with a fraction are written {@code CAST('0.05' AS DECIMAL(3,2))}: DataFusion reads
 *       a bare {@code 0.05} as a DOUBLE.
 *   <li>Interval qualifiers carry no precision ({@code INTERVAL '90' DAY}, not {@code DAY(3)}).
 *   <li>Casts name DataFusion's types: FLOAT is DOUBLE (DataFusion's FLOAT is 32 bits), strings are VARCHAR without a
 *       length (a length would mean padding or truncation only Calcite performs; see {@link PushableExpressions}).
 *   <li>MOD is written {@code a % b} (DataFusion has no MOD function).
 *   <li>Null sorts high (ascending NULLS LAST, descending NULLS FIRST), like Calcite's default; the boolean UNKNOWN
 *       literal is NULL.
 *   <li>String literals are plain, quotes doubled; LIKE patterns use backslash as the escape character (DataFusion's
 *       default), so patterns are rewritten from Calcite's escape rules by {@link LikePatterns}.
 * </ul>
 */
public final class LanceSqlDialect extends SqlDialect {
  /** The one instance; the dialect is stateless. */
  public static final LanceSqlDialect INSTANCE = new LanceSqlDialect();

  private static final int MAX_DECIMAL_PRECISION = 38;

  private LanceSqlDialect() {
    super(EMPTY_CONTEXT
        .withDatabaseProduct(DatabaseProduct.UNKNOWN)
        .withDatabaseProductName("Lance DataFusion")
        .withIdentifierQuoteString("\"")
        .withUnquotedCasing(Casing.TO_LOWER)
        .withQuotedCasing(Casing.UNCHANGED)
        .withCaseSensitive(true)
        .withNullCollation(NullCollation.HIGH)
        .withDataTypeSystem(LakeTypeSystem.INSTANCE));
  }

  @Override
  public boolean supportsCharSet() {
    return false;
  }

  /** A plain literal, quotes doubled; never a character set prefix ({@code _UTF-8'x'}), which DataFusion rejects. */
  @Override
  public void quoteStringLiteral(StringBuilder buf, String charsetName, String val) {
    buf.append('\'').append(val.replace("'", "''")).append('\'');
  }

  @Override
  public void quoteStringLiteralUnicode(StringBuilder buf, String val) {
    quoteStringLiteral(buf, null, val);
  }

  @Override
  public boolean supportsAggregateFunctionFilter() {
    return true;
  }

  @Override
  public boolean supportsWindowFunctions() {
    return false;
  }

  @Override
  public boolean supportsNestedAggregations() {
    return false;
  }

  @Override
  public boolean supportsGroupByLiteral() {
    return false;
  }

  @Override
  public boolean supportsAliasedValues() {
    return false;
  }

  @Override
  public boolean requiresAliasForFromItems() {
    return true;
  }

  @Override
  public void unparseOffsetFetch(SqlWriter writer, SqlNode offset, SqlNode fetch) {
    unparseFetchUsingLimit(writer, offset, fetch);
  }

  @Override
  public void unparseBoolLiteral(SqlWriter writer, SqlLiteral literal, int leftPrec, int rightPrec) {
    Object value = literal.getValue();
    writer.keyword(value == null ? "NULL" : (Boolean) value ? "TRUE" : "FALSE");
  }

  @Override
  public void unparseNumericLiteral(SqlWriter writer, String value, int leftPrec, int rightPrec) {
    String decimal = decimalLiteral(value);
    if (decimal == null) {
      writer.literal(value);
    } else {
      writer.print(decimal);
      writer.setNeedWhitespace(true);
    }
  }

  /** {@code CAST('1.25' AS DECIMAL(3,2))} for an exact literal with a fraction, null for anything else. */
  static String decimalLiteral(String value) {
    if (value.indexOf('.') < 0 || value.indexOf('E') >= 0 || value.indexOf('e') >= 0) {
      return null;
    }
    BigDecimal decimal;
    try {
      decimal = new BigDecimal(value);
    } catch (NumberFormatException e) {
      return null;
    }
    int scale = Math.max(0, decimal.scale());
    int precision = Math.max(decimal.precision(), scale + 1);
    if (precision > MAX_DECIMAL_PRECISION) {
      return null;
    }
    return "CAST('" + decimal.toPlainString() + "' AS DECIMAL(" + precision + "," + scale + "))";
  }

  @Override
  public void unparseSqlIntervalLiteral(SqlWriter writer, SqlIntervalLiteral literal, int leftPrec,
      int rightPrec) {
    SqlIntervalLiteral.IntervalValue interval = literal.getValueAs(SqlIntervalLiteral.IntervalValue.class);
    writer.keyword("INTERVAL");
    writer.literal("'" + (interval.getSign() == -1 ? "-" : "") + interval.getIntervalLiteral() + "'");
    unparseSqlIntervalQualifier(writer, interval.getIntervalQualifier(), RelDataTypeSystem.DEFAULT);
  }

  @Override
  public void unparseSqlIntervalQualifier(SqlWriter writer, SqlIntervalQualifier qualifier,
      RelDataTypeSystem typeSystem) {
    writer.keyword(qualifier.timeUnitRange.startUnit.name());
    if (qualifier.timeUnitRange.endUnit != null) {
      writer.keyword("TO");
      writer.keyword(qualifier.timeUnitRange.endUnit.name());
    }
  }

  @Override
  public void unparseCall(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
    if ((call.getKind() == SqlKind.LIKE) && call.operandCount() >= 2
        && call.operand(1) instanceof SqlLiteral) {
      unparseLike(writer, call, leftPrec, rightPrec);
      return;
    }
    if (call.getKind() == SqlKind.MOD && call.operandCount() == 2) {
      // DataFusion has no MOD function; its % has the same sign rules (the dividend's).
      SqlCall remainder = SqlStdOperatorTable.PERCENT_REMAINDER.createCall(SqlParserPos.ZERO, call.operand(0),
          call.operand(1));
      super.unparseCall(writer, remainder, leftPrec, rightPrec);
      return;
    }
    super.unparseCall(writer, call, leftPrec, rightPrec);
  }

  /** LIKE with Calcite's pattern rewritten for DataFusion's backslash escapes, without an ESCAPE clause. */
  private void unparseLike(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
    String pattern = ((SqlLiteral) call.operand(1)).getValueAs(String.class);
    Character escape = null;
    if (call.operandCount() > 2) {
      String escapeText = ((SqlLiteral) call.operand(2)).getValueAs(String.class);
      escape = escapeText.charAt(0);
    }
    String rewritten = LikePatterns.toBackslashEscaped(pattern, escape);
    if (rewritten == null) {
      throw new IllegalStateException("a LIKE pattern that cannot be rewritten reached the Lance SQL generator");
    }
    SqlNode literal = SqlLiteral.createCharString(rewritten, SqlParserPos.ZERO);
    SqlCall rewrittenCall = call.getOperator().createCall(SqlParserPos.ZERO, call.operand(0), literal);
    super.unparseCall(writer, rewrittenCall, leftPrec, rightPrec);
  }

  @Override
  public SqlNode getCastSpec(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    switch (name) {
      case NULL:
        return null;
      case FLOAT:
        return spec(new SqlBasicTypeNameSpec(SqlTypeName.DOUBLE, SqlParserPos.ZERO));
      case CHAR:
      case VARCHAR:
        return spec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, SqlParserPos.ZERO));
      case DECIMAL:
        return spec(new SqlBasicTypeNameSpec(name, type.getPrecision(), type.getScale(), SqlParserPos.ZERO));
      case TIMESTAMP:
        return spec(new SqlBasicTypeNameSpec(name, type.getPrecision(), SqlParserPos.ZERO));
      default:
        return spec(new SqlBasicTypeNameSpec(name, SqlParserPos.ZERO));
    }
  }

  private static SqlDataTypeSpec spec(SqlBasicTypeNameSpec name) {
    return new SqlDataTypeSpec(name, SqlParserPos.ZERO);
  }
}
