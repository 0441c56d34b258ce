package dev.lake.flight.metadata;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetXdbcTypeInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.Nullable;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;

/**
 * The GetXdbcTypeInfo result: one row per {@link LakeSqlType}, ordered by data type and then type
 * name as Flight SQL asks, optionally restricted to one data type.
 */
final class XdbcTypeInfo {

  private XdbcTypeInfo() {}

  /** The rows the command asks for. */
  static List<LakeSqlType> select(CommandGetXdbcTypeInfo command) {
    return Arrays.stream(LakeSqlType.values())
        .filter(t -> !command.hasDataType() || t.dataType() == command.getDataType())
        .sorted(Comparator.comparingInt(LakeSqlType::dataType).thenComparing(LakeSqlType::typeName))
        .toList();
  }

  /** Writes rows into a freshly allocated {@code GET_TYPE_INFO_SCHEMA} root. */
  static void fill(VectorSchemaRoot root, List<LakeSqlType> rows) {
    for (int i = 0; i < rows.size(); i++) {
      LakeSqlType t = rows.get(i);
      text(root, "type_name", i, t.typeName());
      integer(root, "data_type", i, t.dataType());
      integer(root, "column_size", i, t.columnSize());
      text(root, "literal_prefix", i, t.literalPrefix());
      text(root, "literal_suffix", i, t.literalSuffix());
      createParams(root, i, t.createParams());
      integer(root, "nullable", i, Nullable.NULLABILITY_NULLABLE_VALUE);
      bit(root, "case_sensitive", i, t.caseSensitive());
      integer(root, "searchable", i, t.searchable());
      bit(root, "unsigned_attribute", i, t.numeric() ? Boolean.FALSE : null);
      bit(root, "fixed_prec_scale", i, false);
      bit(root, "auto_increment", i, t.numeric() ? Boolean.FALSE : null);
      text(root, "local_type_name", i, t.typeName());
      integer(root, "minimum_scale", i, t.minimumScale());
      integer(root, "maximum_scale", i, t.maximumScale());
      integer(root, "sql_data_type", i, t.sqlDataType());
      integer(root, "datetime_subcode", i, t.datetimeSubcode());
      integer(root, "num_prec_radix", i, t.numPrecRadix());
      integer(root, "interval_precision", i, null);
    }
    root.setRowCount(rows.size());
  }

  private static void text(VectorSchemaRoot root, String column, int index, String value) {
    VarCharVector vector = (VarCharVector) root.getVector(column);
    if (value == null) {
      vector.setNull(index);
    } else {
      vector.setSafe(index, value.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void integer(VectorSchemaRoot root, String column, int index, Integer value) {
    IntVector vector = (IntVector) root.getVector(column);
    if (value == null) {
      vector.setNull(index);
    } else {
      vector.setSafe(index, value);
    }
  }

  private static void bit(VectorSchemaRoot root, String column, int index, Boolean value) {
    BitVector vector = (BitVector) root.getVector(column);
    if (value == null) {
      vector.setNull(index);
    } else {
      vector.setSafe(index, value ? 1 : 0);
    }
  }

  private static void createParams(VectorSchemaRoot root, int index, List<String> params) {
    ListVector list = (ListVector) root.getVector("create_params");
    if (params == null) {
      list.setNull(index);
      return;
    }
    int start = list.startNewValue(index);
    VarCharVector items = (VarCharVector) list.getDataVector();
    for (int k = 0; k < params.size(); k++) {
      items.setSafe(start + k, params.get(k).getBytes(StandardCharsets.UTF_8));
    }
    list.endValue(index, params.size());
  }
}
