package dev.lake.query.plan;

import dev.lake.query.plan.lance.LanceTable;
import dev.lake.query.plan.types.ArrowTypeMapping;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * The Arrow schema of a statement's results, the same whichever execution path runs it: a result column that is a
 * stored column, unchanged, keeps the stored Arrow type (unit, zone, decimal precision, large string and binary
 * types; view types become Utf8/Binary, which the JDBC driver reads); any other column gets the Arrow type of its SQL
 * type. Names are the statement's column names. Every field carries the Flight SQL column metadata
 * ({@link ResultColumnMetadata}: type name, precision, scale, and catalog/schema/table for a stored column). A
 * result whose columns are all stored columns of one table, unchanged and under their stored names (a pass-through
 * scan, with or without filters, sorts or limits), also carries that table's schema-level metadata (e.g. pandas'
 * {@code pandas} key, which makes {@code to_pandas()} restore nullable integer dtypes).
 */
public final class ResultSchemas {
  /** The schema of EXPLAIN: one non-null VARCHAR column {@code plan}. */
  public static final Schema EXPLAIN = new Schema(List.of(described(
      ArrowTypeMapping.field("plan", ArrowType.Utf8.INSTANCE, false), null)));

  private ResultSchemas() {}

  /** The result schema of a converted statement (before any rewrite moved columns around). */
  public static Schema of(RelRoot root, RelDataTypeFactory typeFactory) {
    RelNode projected = root.project();
    RelMetadataQuery metadata = projected.getCluster().getMetadataQuery();
    List<Field> fields = new ArrayList<>();
    List<RelDataTypeField> columns = root.validatedRowType.getFieldList();
    Set<LanceTable> tables = new HashSet<>();
    boolean allStored = !columns.isEmpty();
    for (int i = 0; i < columns.size(); i++) {
      RelDataTypeField column = columns.get(i);
      Stored stored = storedColumn(metadata, projected, i, column.getType(), typeFactory);
      ArrowType type = stored != null ? ArrowTypeMapping.resultType(stored.field().getType())
          : ArrowTypeMapping.toArrowType(column.getName(), column.getType());
      Field field = ArrowTypeMapping.field(column.getName(), type, column.getType().isNullable());
      fields.add(described(field, stored == null ? null : stored.table().name()));
      if (stored == null || !stored.field().getName().equals(column.getName())) {
        allStored = false;
      } else {
        tables.add(stored.table());
      }
    }
    Map<String, String> tableMetadata = allStored && tables.size() == 1
        ? tables.iterator().next().schemaMetadata() : Map.of();
    return new Schema(fields, tableMetadata.isEmpty() ? null : tableMetadata);
  }

  /** {@code field} with the Flight SQL column metadata of its type (and table, for a stored column). */
  static Field described(Field field, String table) {
    return new Field(field.getName(), new FieldType(field.isNullable(), field.getType(), null,
        ResultColumnMetadata.of(field.getType(), table)), field.getChildren());
  }

  /** A stored column: the table it belongs to and its stored field. */
  private record Stored(LanceTable table, Field field) {}

  /** The stored column behind result column {@code index}, when it is one stored column passed unchanged. */
  private static Stored storedColumn(RelMetadataQuery metadata, RelNode rel, int index, RelDataType type,
      RelDataTypeFactory typeFactory) {
    Set<RelColumnOrigin> origins = metadata.getColumnOrigins(rel, index);
    if (origins == null || origins.size() != 1) {
      return null;
    }
    RelColumnOrigin origin = origins.iterator().next();
    LanceTable table = origin.isDerived() ? null : origin.getOriginTable().unwrap(LanceTable.class);
    if (table == null) {
      return null;
    }
    Field field = table.fields().get(origin.getOriginColumnOrdinal());
    RelDataType storedSqlType = ArrowTypeMapping.toSqlType(field.getType(), typeFactory);
    return storedSqlType != null && SqlTypeUtil.equalSansNullability(typeFactory, storedSqlType, type)
        ? new Stored(table, field) : null;
  }
}
