package dev.lake.flight.metadata;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.sql.FlightSqlColumnMetadata;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Adds Flight SQL column metadata ({@link FlightSqlColumnMetadata}) to the top-level fields of a
 * schema, so that the JDBC driver's {@code getColumns} and {@code ResultSetMetaData} report lake's
 * SQL type names, precision and scale, and the table a column comes from.
 */
final class ColumnMetadata {

  private ColumnMetadata() {}

  /**
   * Returns {@code schema} with Flight SQL column metadata on each top-level field. Existing field
   * metadata is kept; the Flight SQL keys are overwritten. Nested children are left as they are.
   *
   * @param table the table the columns belong to, or null for computed query results (then catalog,
   *     schema and table name are left out)
   * @param schema the schema to annotate
   * @return the annotated schema (the schema-level metadata is kept)
   */
  static Schema withColumnMetadata(String table, Schema schema) {
    List<Field> fields = schema.getFields().stream().map(f -> annotate(table, f)).toList();
    return new Schema(fields, schema.getCustomMetadata());
  }

  private static Field annotate(String table, Field field) {
    FlightSqlColumnMetadata.Builder builder =
        new FlightSqlColumnMetadata.Builder().isAutoIncrement(false).isReadOnly(true);
    if (table != null) {
      builder
          .catalogName(FlightSqlMetadata.CATALOG)
          .schemaName(FlightSqlMetadata.SCHEMA)
          .tableName(table);
    }
    ArrowType type = field.getType();
    Optional<LakeSqlType> sqlType = LakeSqlType.of(type);
    if (sqlType.isPresent()) {
      LakeSqlType t = sqlType.get();
      builder.typeName(t.typeName()).isCaseSensitive(t.caseSensitive()).isSearchable(true);
      Integer precision = precision(t, type);
      if (precision != null) {
        builder.precision(precision);
      }
      Integer scale = scale(t, type);
      if (scale != null) {
        builder.scale(scale);
      }
    }
    Map<String, String> metadata = new HashMap<>();
    if (field.getMetadata() != null) {
      metadata.putAll(field.getMetadata());
    }
    metadata.putAll(builder.build().getMetadataMap());
    FieldType fieldType =
        new FieldType(field.isNullable(), type, field.getDictionary(), metadata);
    return new Field(field.getName(), fieldType, field.getChildren());
  }

  /** The column's precision (JDBC COLUMN_SIZE), or null for variable-length types. */
  private static Integer precision(LakeSqlType sqlType, ArrowType type) {
    return switch (sqlType) {
      case VARCHAR, VARBINARY -> null;
      case DECIMAL -> ((ArrowType.Decimal) type).getPrecision();
      case BINARY -> ((ArrowType.FixedSizeBinary) type).getByteWidth();
      case TIME -> withFraction(8, fractionDigits(((ArrowType.Time) type).getUnit()));
      case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          withFraction(19, fractionDigits(((ArrowType.Timestamp) type).getUnit()));
      default -> sqlType.columnSize();
    };
  }

  /** The column's scale (JDBC DECIMAL_DIGITS), or null where it does not apply. */
  private static Integer scale(LakeSqlType sqlType, ArrowType type) {
    return switch (sqlType) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> 0;
      case DECIMAL -> ((ArrowType.Decimal) type).getScale();
      case TIME -> fractionDigits(((ArrowType.Time) type).getUnit());
      case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          fractionDigits(((ArrowType.Timestamp) type).getUnit());
      default -> null;
    };
  }

  private static int withFraction(int wholeSeconds, int digits) {
    return digits == 0 ? wholeSeconds : wholeSeconds + 1 + digits;
  }

  private static int fractionDigits(TimeUnit unit) {
    return switch (unit) {
      case SECOND -> 0;
      case MILLISECOND -> 3;
      case MICROSECOND -> 6;
      case NANOSECOND -> 9;
    };
  }
}
