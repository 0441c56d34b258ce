package dev.lake.query.plan.types;

import dev.lake.query.model.QueryRejectedException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The one mapping between Arrow types (what Lance stores and what results carry) and Calcite SQL types.
 *
 * <p>Stored to SQL: Int8/16/32/64 to TINYINT/SMALLINT/INTEGER/BIGINT, Float32 to REAL, Float64 to DOUBLE,
 * Decimal(p,s) to DECIMAL(p,s) (p up to 38), Utf8/LargeUtf8/Utf8View to VARCHAR, Bool to BOOLEAN, Date to DATE,
 * Time to TIME, Timestamp without a zone to TIMESTAMP, Timestamp with a zone to TIMESTAMP WITH LOCAL TIME ZONE,
 * Binary/LargeBinary/BinaryView to VARBINARY, FixedSizeBinary(n) to BINARY(n). Nullability follows the field.
 * TIME and TIMESTAMP precision is the unit's (0, 3, 6 or 9 digits); the stored unit and zone are kept for results
 * by {@link #resultType(ArrowType)}.
 *
 * <p>SQL to result: the reverse, TIME(p) and TIMESTAMP(p) in the unit that holds p digits (milliseconds up to 3),
 * TIMESTAMP WITH LOCAL TIME ZONE with zone "UTC". A stored column keeps its large string/binary type in results (what
 * is stored comes back); view types become Utf8/Binary (the JDBC driver cannot read them).
 */
public final class ArrowTypeMapping {
  private static final int MAX_DECIMAL_PRECISION = 38;

  private ArrowTypeMapping() {}

  /** The row type of a stored table; throws {@link QueryRejectedException} naming a column it cannot map. */
  public static RelDataType toRowType(String table, Schema schema, RelDataTypeFactory typeFactory) {
    RelDataTypeFactory.Builder builder = typeFactory.builder();
    for (Field field : schema.getFields()) {
      RelDataType type = toSqlType(field.getType(), typeFactory);
      if (type == null) {
        throw new QueryRejectedException("column '" + field.getName() + "' of table '" + table
            + "' has Arrow type " + field.getType() + ", which lake's SQL cannot read yet; store it as a"
            + " supported type (signed integers, floats, decimals up to 38 digits, strings, binary, booleans,"
            + " dates, times, timestamps)");
      }
      builder.add(field.getName(), typeFactory.createTypeWithNullability(type, field.isNullable()));
    }
    return builder.build();
  }

  /** The SQL type of a stored Arrow type (not nullable), or null when lake cannot read it. */
  public static RelDataType toSqlType(ArrowType type, RelDataTypeFactory typeFactory) {
    switch (type.getTypeID()) {
      case Int: {
        ArrowType.Int intType = (ArrowType.Int) type;
        if (!intType.getIsSigned()) {
          return null;
        }
        switch (intType.getBitWidth()) {
          case 8: return typeFactory.createSqlType(SqlTypeName.TINYINT);
          case 16: return typeFactory.createSqlType(SqlTypeName.SMALLINT);
          case 32: return typeFactory.createSqlType(SqlTypeName.INTEGER);
          case 64: return typeFactory.createSqlType(SqlTypeName.BIGINT);
          default: return null;
        }
      }
      case FloatingPoint: {
        FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
        if (precision == FloatingPointPrecision.SINGLE) {
          return typeFactory.createSqlType(SqlTypeName.REAL);
        }
        return precision == FloatingPointPrecision.DOUBLE ? typeFactory.createSqlType(SqlTypeName.DOUBLE) : null;
      }
      case Decimal: {
        ArrowType.Decimal decimal = (ArrowType.Decimal) type;
        if (decimal.getPrecision() > MAX_DECIMAL_PRECISION || decimal.getScale() < 0
            || decimal.getScale() > decimal.getPrecision()) {
          return null;
        }
        return typeFactory.createSqlType(SqlTypeName.DECIMAL, decimal.getPrecision(), decimal.getScale());
      }
      case Utf8:
      case LargeUtf8:
      case Utf8View:
        return typeFactory.createSqlType(SqlTypeName.VARCHAR);
      case Binary:
      case LargeBinary:
      case BinaryView:
        return typeFactory.createSqlType(SqlTypeName.VARBINARY);
      case FixedSizeBinary:
        return typeFactory.createSqlType(SqlTypeName.BINARY, ((ArrowType.FixedSizeBinary) type).getByteWidth());
      case Bool:
        return typeFactory.createSqlType(SqlTypeName.BOOLEAN);
      case Date:
        return typeFactory.createSqlType(SqlTypeName.DATE);
      case Time:
        return typeFactory.createSqlType(SqlTypeName.TIME, precision(((ArrowType.Time) type).getUnit()));
      case Timestamp: {
        ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
        SqlTypeName name = timestamp.getTimezone() == null
            ? SqlTypeName.TIMESTAMP : SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
        return typeFactory.createSqlType(name, precision(timestamp.getUnit()));
      }
      default:
        return null;
    }
  }

  /** The SQL precision of a stored time unit: fractional-second digits. */
  private static int precision(TimeUnit unit) {
    switch (unit) {
      case SECOND: return 0;
      case MILLISECOND: return 3;
      case MICROSECOND: return 6;
      default: return 9;
    }
  }

  /** The Arrow unit that holds a SQL precision. */
  private static TimeUnit unit(int precision) {
    return precision <= 3 ? TimeUnit.MILLISECOND : precision <= 6 ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND;
  }

  /**
   * The type a stored column has in results: the stored type, except that view types become Utf8/Binary. Units,
   * zones, decimal precision and large string/binary types are kept.
   */
  public static ArrowType resultType(ArrowType stored) {
    switch (stored.getTypeID()) {
      case Utf8View:
        return ArrowType.Utf8.INSTANCE;
      case BinaryView:
        return ArrowType.Binary.INSTANCE;
      default:
        return stored;
    }
  }

  /** The Arrow type for a computed SQL value; throws {@link QueryRejectedException} for types lake cannot return. */
  public static ArrowType toArrowType(String column, RelDataType type) {
    switch (type.getSqlTypeName()) {
      case BOOLEAN: return ArrowType.Bool.INSTANCE;
      case TINYINT: return new ArrowType.Int(8, true);
      case SMALLINT: return new ArrowType.Int(16, true);
      case INTEGER: return new ArrowType.Int(32, true);
      case BIGINT: return new ArrowType.Int(64, true);
      case DECIMAL: return new ArrowType.Decimal(type.getPrecision(), type.getScale(), 128);
      case REAL: return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case FLOAT:
      case DOUBLE:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case CHAR:
      case VARCHAR:
        return ArrowType.Utf8.INSTANCE;
      case BINARY:
      case VARBINARY:
        return ArrowType.Binary.INSTANCE;
      case DATE: return new ArrowType.Date(DateUnit.DAY);
      case TIME: {
        TimeUnit unit = unit(type.getPrecision());
        return new ArrowType.Time(unit, unit == TimeUnit.MILLISECOND ? 32 : 64);
      }
      case TIMESTAMP: return new ArrowType.Timestamp(unit(type.getPrecision()), null);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE: return new ArrowType.Timestamp(unit(type.getPrecision()), "UTC");
      case NULL: return ArrowType.Null.INSTANCE;
      default:
        throw new QueryRejectedException("result column '" + column + "' has SQL type " + type.getFullTypeString()
            + ", which lake cannot return yet; CAST it to VARCHAR, a number or a date/time type");
    }
  }

  /** An Arrow schema for a SQL row type (computed results). */
  public static Schema toSchema(RelDataType rowType) {
    List<Field> fields = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      fields.add(field(field.getName(), toArrowType(field.getName(), field.getType()),
          field.getType().isNullable()));
    }
    return new Schema(fields);
  }

  /** A flat field. */
  public static Field field(String name, ArrowType type, boolean nullable) {
    return new Field(name, new FieldType(nullable || type.getTypeID() == ArrowType.ArrowTypeID.Null, type, null),
        null);
  }
}
