package dev.lake.flight.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.plan.types.ArrowTypeMapping;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetXdbcTypeInfo;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * GetXdbcTypeInfo is complete: every Arrow type lake's SQL can read (lake-query's one mapping decides) has a row, with
 * the type name of the SQL type it maps to; every type it cannot read has none.
 */
class XdbcTypeInfoCompletenessTest {
  private static final List<ArrowType> CANDIDATES = List.of(
      new ArrowType.Int(8, true), new ArrowType.Int(16, true), new ArrowType.Int(32, true),
      new ArrowType.Int(64, true), new ArrowType.Int(8, false), new ArrowType.Int(32, false),
      new ArrowType.Int(64, false), new ArrowType.FloatingPoint(FloatingPointPrecision.HALF),
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), new ArrowType.Decimal(38, 10, 128),
      new ArrowType.Decimal(12, 2, 128), new ArrowType.Decimal(5, 0, 128), ArrowType.Utf8.INSTANCE,
      ArrowType.LargeUtf8.INSTANCE, ArrowType.Utf8View.INSTANCE, ArrowType.Binary.INSTANCE,
      ArrowType.LargeBinary.INSTANCE, ArrowType.BinaryView.INSTANCE, new ArrowType.FixedSizeBinary(16),
      ArrowType.Bool.INSTANCE, new ArrowType.Date(DateUnit.DAY), new ArrowType.Date(DateUnit.MILLISECOND),
      new ArrowType.Time(TimeUnit.SECOND, 32), new ArrowType.Time(TimeUnit.MILLISECOND, 32),
      new ArrowType.Time(TimeUnit.MICROSECOND, 64), new ArrowType.Time(TimeUnit.NANOSECOND, 64),
      new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), new ArrowType.Timestamp(TimeUnit.NANOSECOND, null),
      new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC"), new ArrowType.Timestamp(TimeUnit.MICROSECOND,
          "Europe/Paris"), new ArrowType.Interval(IntervalUnit.DAY_TIME), new ArrowType.Duration(TimeUnit.SECOND),
      ArrowType.Null.INSTANCE, new ArrowType.List(), new ArrowType.Struct());

  @Test
  void everyReadableArrowTypeHasATypeInfoRowNamedForItsSqlType() {
    JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    List<LakeSqlType> rows = XdbcTypeInfo.select(CommandGetXdbcTypeInfo.getDefaultInstance());
    for (ArrowType arrow : CANDIDATES) {
      RelDataType sql = ArrowTypeMapping.toSqlType(arrow, types);
      Optional<LakeSqlType> row = LakeSqlType.of(arrow);
      if (sql == null) {
        assertThat(row).as("lake cannot read %s, so type info must not offer it", arrow).isEmpty();
        continue;
      }
      assertThat(row).as("type info for readable %s", arrow).isPresent();
      assertThat(rows).contains(row.get());
      String expected = sql.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
          ? "TIMESTAMP WITH LOCAL TIME ZONE" : sql.getSqlTypeName().getName();
      assertThat(row.get().typeName()).as("type name for %s", arrow).isEqualTo(expected);
    }
  }

  @Test
  void everyTypeInfoRowIsReadableByLake() {
    JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    for (LakeSqlType row : XdbcTypeInfo.select(CommandGetXdbcTypeInfo.getDefaultInstance())) {
      assertThat(CANDIDATES.stream().filter(a -> LakeSqlType.of(a).equals(Optional.of(row)))
          .anyMatch(a -> ArrowTypeMapping.toSqlType(a, types) != null)).as("%s is readable", row).isTrue();
    }
  }
}
