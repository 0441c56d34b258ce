package dev.lake.flight.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.sql.FlightSqlColumnMetadata;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ColumnMetadataTest {

  private static FlightSqlColumnMetadata column(Schema schema, String name) {
    return new FlightSqlColumnMetadata(schema.findField(name).getMetadata());
  }

  private static Schema annotate(String table, Field... fields) {
    return FlightSqlMetadata.withColumnMetadata(table, new Schema(List.of(fields)));
  }

  @Test
  void tableColumnsNameTheirCatalogSchemaAndTable() {
    Schema schema = annotate("trips", Field.nullable("id", new ArrowType.Int(64, true)));
    FlightSqlColumnMetadata id = column(schema, "id");
    assertThat(id.getCatalogName()).isEqualTo("lake");
    assertThat(id.getSchemaName()).isEqualTo("main");
    assertThat(id.getTableName()).isEqualTo("trips");
    assertThat(id.getTypeName()).isEqualTo("BIGINT");
    assertThat(id.getPrecision()).isEqualTo(19);
    assertThat(id.getScale()).isZero();
    assertThat(id.isReadOnly()).isTrue();
    assertThat(id.isAutoIncrement()).isFalse();
    assertThat(id.isSearchable()).isTrue();
    assertThat(id.isCaseSensitive()).isFalse();
  }

  @Test
  void computedColumnsCarryTypeInformationButNoTable() {
    FlightSqlColumnMetadata total =
        column(annotate(null, Field.nullable("total", new ArrowType.Decimal(20, 4, 128))), "total");
    assertThat(total.getTableName()).isNull();
    assertThat(total.getCatalogName()).isNull();
    assertThat(total.getTypeName()).isEqualTo("DECIMAL");
    assertThat(total.getPrecision()).isEqualTo(20);
    assertThat(total.getScale()).isEqualTo(4);
  }

  @Test
  void eachLakeArrowTypeGetsItsSqlTypeName() {
    Schema schema =
        annotate(
            "t",
            Field.nullable("i8", new ArrowType.Int(8, true)),
            Field.nullable("i16", new ArrowType.Int(16, true)),
            Field.nullable("i32", new ArrowType.Int(32, true)),
            Field.nullable("f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
            Field.nullable("f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            Field.nullable("s", ArrowType.Utf8.INSTANCE),
            Field.nullable("b", ArrowType.Bool.INSTANCE),
            Field.nullable("d", new ArrowType.Date(DateUnit.DAY)),
            Field.nullable("t", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
            Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
            Field.nullable("tz", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
            Field.nullable("bin", ArrowType.Binary.INSTANCE),
            Field.nullable("fixed", new ArrowType.FixedSizeBinary(16)),
            Field.nullable("u8", new ArrowType.Int(8, false)));
    assertThat(
            schema.getFields().stream()
                .map(f -> new FlightSqlColumnMetadata(f.getMetadata()).getTypeName())
                .toList())
        .containsExactly(
            "TINYINT", "SMALLINT", "INTEGER", "REAL", "DOUBLE", "VARCHAR", "BOOLEAN", "DATE",
            "TIME", "TIMESTAMP", "TIMESTAMP WITH LOCAL TIME ZONE", "VARBINARY", "BINARY", null);
    assertThat(column(schema, "s").isCaseSensitive()).isTrue();
    assertThat(column(schema, "s").getPrecision()).isNull();
    assertThat(column(schema, "t").getPrecision()).isEqualTo(15);
    assertThat(column(schema, "t").getScale()).isEqualTo(6);
    assertThat(column(schema, "ts").getPrecision()).isEqualTo(26);
    assertThat(column(schema, "tz").getPrecision()).isEqualTo(23);
    assertThat(column(schema, "tz").getScale()).isEqualTo(3);
    assertThat(column(schema, "fixed").getPrecision()).isEqualTo(16);
    assertThat(column(schema, "u8").getPrecision()).isNull();
  }

  @Test
  void existingMetadataNullabilityAndChildrenAreKept() {
    Field item = Field.nullable("item", new ArrowType.Int(32, true));
    Field list =
        new Field(
            "xs",
            new FieldType(false, ArrowType.List.INSTANCE, null, Map.of("origin", "ingest")),
            List.of(item));
    Schema original = new Schema(List.of(list), Map.of("lake.version", "7"));
    Schema annotated = FlightSqlMetadata.withColumnMetadata("t", original);
    Field xs = annotated.findField("xs");
    assertThat(xs.isNullable()).isFalse();
    assertThat(xs.getChildren()).containsExactly(item);
    assertThat(xs.getMetadata())
        .containsEntry("origin", "ingest")
        .containsEntry("ARROW:FLIGHT:SQL:TABLE_NAME", "t");
    assertThat(new FlightSqlColumnMetadata(xs.getMetadata()).getTypeName()).isNull();
    assertThat(annotated.getCustomMetadata()).containsEntry("lake.version", "7");
  }
}
