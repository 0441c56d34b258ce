package dev.lake.query.plan;

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
 * @param scale the decimal scale (0 for other types)
 */
public record ColumnType(SqlTypeName type, int scale) {
  public ColumnType {
    Objects.requireNonNull(type, "type");
  }

  static ColumnType of(RelDataType type) {
    return new ColumnType(type.getSqlTypeName(), type.getSqlTypeName() == SqlTypeName.DECIMAL ? type.getScale() : 0);
  }

  static List<ColumnType> of(List<RelDataTypeField> fields) {
    List<ColumnType> types = new ArrayList<>(fields.size());
    fields.forEach(field -> types.add(of(field.getType())));
    return types;
  }
}
