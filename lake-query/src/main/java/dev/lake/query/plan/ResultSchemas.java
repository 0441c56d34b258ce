package dev.lake.query.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
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
 * stored column, unchanged, keeps the stored Arrow type (unit, zone, decimal precision; view and large types
 * downcast); any other column gets the Arrow type of its SQL type. Names are the statement's column names.
 */
public final class ResultSchemas {
  /** The schema of EXPLAIN: one non-null VARCHAR column {@code plan}. */
  public static final Schema EXPLAIN =
      new Schema(List.of(ArrowTypeMapping.field("plan", ArrowType.Utf8.INSTANCE, false)));

  private ResultSchemas() {}

  /** The result schema of a converted statement (before any rewrite moved columns around). */
  public static Schema of(RelRoot root, RelDataTypeFactory typeFactory) {
    RelNode projected = root.project();
    RelMetadataQuery metadata = projected.getCluster().getMetadataQuery();
    List<Field> fields = new ArrayList<>();
    List<RelDataTypeField> columns = root.validatedRowType.getFieldList();
    for (int i = 0; i < columns.size(); i++) {
      RelDataTypeField column = columns.get(i);
      ArrowType stored = storedType(metadata, projected, i, column.getType(), typeFactory);
      ArrowType type = stored != null ? ArrowTypeMapping.resultType(stored)
          : ArrowTypeMapping.toArrowType(column.getName(), column.getType());
      fields.add(ArrowTypeMapping.field(column.getName(), type, column.getType().isNullable()));
    }
    return new Schema(fields);
  }

  /** The stored Arrow type behind result column {@code index}, when it is one stored column passed unchanged. */
  private static ArrowType storedType(RelMetadataQuery metadata, RelNode rel, int index, RelDataType type,
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
        ? field.getType() : null;
  }
}
