package dev.lake.query.plan.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The SQL type of one column a pushed-down subtree returns, as much of it as the row runtime needs to represent its
 * values: Lance's SQL engine may answer with another Arrow type (a narrower decimal precision, a 32-bit EXTRACT, a
 * view string), and its values are converted to this type's Java representation before Calcite sees them.
 *
 * @param scale the decimal scale, or the fractional-second precision of TIME and TIMESTAMP (the unit their values are
 *     held in); 0 for other types
 */
public record ColumnType(SqlTypeName type, int scale) {
  public ColumnType {
    Objects.requireNonNull(type, "type");
  }

  public static ColumnType of(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case DECIMAL:
        return new ColumnType(type.getSqlTypeName(), type.getScale());
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return new ColumnType(type.getSqlTypeName(), type.getPrecision());
      default:
        return new ColumnType(type.getSqlTypeName(), 0);
    }
  }

  /** The fractional-second precision of a TIME or TIMESTAMP column. */
  public int precision() {
    return scale;
  }

  public static List<ColumnType> of(List<RelDataTypeField> fields) {
    List<ColumnType> types = new ArrayList<>(fields.size());
    fields.forEach(field -> types.add(of(field.getType())));
    return types;
  }
}
