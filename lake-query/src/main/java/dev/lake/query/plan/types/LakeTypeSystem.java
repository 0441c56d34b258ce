package dev.lake.query.plan.types;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system with lake's choices.
 *
 * <ul>
 *   <li>TIME and TIMESTAMP allow precision up to 9, so a stored microsecond column is TIMESTAMP(6) and a literal
 *       keeps its microseconds; Calcite's row runtime holds such values in micro- or nanoseconds
 *       ({@link dev.lake.query.plan.enumerable.ExactRuntime}).
 *   <li>TIME and TIMESTAMP default to precision 3 (milliseconds): Calcite's row runtime carries milliseconds, so a
 *       bare {@code CAST(x AS TIMESTAMP)} keeps them instead of truncating to seconds.
 *   <li>A CAST of a constant to DECIMAL or to an integer type rounds half up (away from zero), as lake's runtime
 *       casts do (docs/api.md, "Exactness"): Calcite folds casts of constants while planning, rounding as the type
 *       system says, and stock Calcite truncates ({@code CAST(12345.675 AS DECIMAL(9,2))} was 12345.67,
 *       {@code CAST(2.5 AS INTEGER)} 2).
 *   <li>CASE and set operations over strings of different lengths are VARCHAR (no blank padding).
 *   <li>SUM widens: integers to BIGINT, DECIMAL(p,s) to DECIMAL(38,s), floating point to DOUBLE.
 *   <li>AVG over DECIMAL(p,s) is DECIMAL(38, s + 4) with a scale of at least 6 (as far as the input's integer digits
 *       allow): AVG of DECIMAL(15,2) is DECIMAL(38,6), not the truncating DECIMAL(15,2) of stock Calcite; the value
 *       is rounded half-up at that scale. The precision is the widest so that the sum it divides always fits.
 *   <li>AVG over integers and REAL is DOUBLE (as in DuckDB, Trino and Spark), not the truncated integer of stock
 *       Calcite. STDDEV and VARIANCE follow AVG's types.
 * </ul>
 * docs/api.md lists the result type of every aggregate.
 */
public final class LakeTypeSystem extends RelDataTypeSystemImpl {
  /** The one instance; the type system is stateless. */
  public static final LakeTypeSystem INSTANCE = new LakeTypeSystem();

  private static final int MAX_DECIMAL_PRECISION = 38;
  private static final int AVG_EXTRA_SCALE = 4;
  private static final int MIN_AVG_SCALE = 6;
  /** Nanoseconds: types, literals and the row runtime keep the precision of the stored unit. */
  private static final int MAX_DATETIME_PRECISION = 9;

  private LakeTypeSystem() {}

  @Override
  public int getDefaultPrecision(SqlTypeName typeName) {
    switch (typeName) {
      case TIME:
      case TIME_WITH_LOCAL_TIME_ZONE:
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return 3;
      default:
        return super.getDefaultPrecision(typeName);
    }
  }

  @Override
  public int getMaxPrecision(SqlTypeName typeName) {
    switch (typeName) {
      case TIME:
      case TIME_WITH_LOCAL_TIME_ZONE:
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return MAX_DATETIME_PRECISION;
      default:
        return super.getMaxPrecision(typeName);
    }
  }

  @Override
  public int getMaxNumericPrecision() {
    return MAX_DECIMAL_PRECISION;
  }

  @Override
  public int getMaxNumericScale() {
    return MAX_DECIMAL_PRECISION;
  }

  /** Casts Calcite folds or generates round half up, as lake's exact runtime does. */
  @Override
  public java.math.RoundingMode roundingMode() {
    return java.math.RoundingMode.HALF_UP;
  }

  /** CASE and UNION over strings of different lengths give VARCHAR, not blank-padded CHAR. */
  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  @Override
  public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
    RelDataType widened;
    switch (argumentType.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        widened = typeFactory.createSqlType(SqlTypeName.BIGINT);
        break;
      case DECIMAL:
        widened = typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, argumentType.getScale());
        break;
      case REAL:
      case FLOAT:
      case DOUBLE:
        widened = typeFactory.createSqlType(SqlTypeName.DOUBLE);
        break;
      default:
        return super.deriveSumType(typeFactory, argumentType);
    }
    return typeFactory.createTypeWithNullability(widened, argumentType.isNullable());
  }

  /**
   * DECIMAL division by SQL Server's rule, which Calcite's default misreads (it compares the whole precision, not
   * the integer digits, with 32): scale {@code max(6, s1 + p2 + 1)}; when the result needs more than 38 digits, the
   * scale shrinks to what the {@code p1 - s1 + s2} integer digits leave, but not below 6 — unless those take 32 or
   * more digits, then 6. So AVG's SUM / COUNT keeps AVG's scale.
   */
  @Override
  public RelDataType deriveDecimalDivideType(RelDataTypeFactory typeFactory, RelDataType type1,
      RelDataType type2) {
    RelDataType stock = super.deriveDecimalDivideType(typeFactory, type1, type2);
    if (stock == null) {
      return null;
    }
    RelDataType left = org.apache.calcite.rel.type.RelDataTypeFactoryImpl.isJavaType(type1)
        ? typeFactory.decimalOf(type1) : type1;
    RelDataType right = org.apache.calcite.rel.type.RelDataTypeFactoryImpl.isJavaType(type2)
        ? typeFactory.decimalOf(type2) : type2;
    int integerDigits = left.getPrecision() - left.getScale() + right.getScale();
    int scale = Math.min(Math.max(MIN_AVG_SCALE, left.getScale() + right.getPrecision() + 1), MAX_DECIMAL_PRECISION);
    if (integerDigits + scale > MAX_DECIMAL_PRECISION) {
      scale = integerDigits < MAX_DECIMAL_PRECISION - MIN_AVG_SCALE
          ? Math.max(MIN_AVG_SCALE, MAX_DECIMAL_PRECISION - integerDigits) : Math.min(scale, MIN_AVG_SCALE);
    }
    int precision = Math.min(MAX_DECIMAL_PRECISION, integerDigits + scale);
    return typeFactory.createSqlType(SqlTypeName.DECIMAL, Math.max(precision, scale), scale);
  }

  @Override
  public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
    if (SqlTypeName.INT_TYPES.contains(argumentType.getSqlTypeName())
        || argumentType.getSqlTypeName() == SqlTypeName.REAL || argumentType.getSqlTypeName() == SqlTypeName.FLOAT) {
      return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE),
          argumentType.isNullable());
    }
    if (argumentType.getSqlTypeName() != SqlTypeName.DECIMAL) {
      return super.deriveAvgAggType(typeFactory, argumentType);
    }
    int scale = argumentType.getScale();
    int integerDigits = argumentType.getPrecision() - scale;
    int widenedScale = Math.max(scale, Math.min(Math.max(MIN_AVG_SCALE, scale + AVG_EXTRA_SCALE),
        MAX_DECIMAL_PRECISION - integerDigits));
    RelDataType widened = typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, widenedScale);
    return typeFactory.createTypeWithNullability(widened, argumentType.isNullable());
  }
}
