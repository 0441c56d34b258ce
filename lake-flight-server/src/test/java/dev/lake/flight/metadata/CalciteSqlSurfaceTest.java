package dev.lake.flight.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlJdbcFunctionCall;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.junit.jupiter.api.Test;

/** Pins the SQL surface GetSqlInfo lists to what the Calcite on the classpath really accepts. */
class CalciteSqlSurfaceTest {

  private static List<String> split(String commaSeparated) {
    return Arrays.asList(commaSeparated.split(","));
  }

  @Test
  void keywordsAreCalcitesJdbcKeywords() {
    assertThat(CalciteSqlSurface.KEYWORDS)
        .containsExactlyElementsOf(split(SqlParser.create("").getMetadata().getJdbcKeywords()));
  }

  @Test
  void functionListsAreCalcitesJdbcEscapeFunctions() {
    assertThat(CalciteSqlSurface.NUMERIC_FUNCTIONS)
        .containsExactlyElementsOf(split(SqlJdbcFunctionCall.getNumericFunctions()));
    assertThat(CalciteSqlSurface.STRING_FUNCTIONS)
        .containsExactlyElementsOf(split(SqlJdbcFunctionCall.getStringFunctions()));
    assertThat(CalciteSqlSurface.SYSTEM_FUNCTIONS)
        .containsExactlyElementsOf(split(SqlJdbcFunctionCall.getSystemFunctions()));
    assertThat(CalciteSqlSurface.DATETIME_FUNCTIONS)
        .containsExactlyElementsOf(split(SqlJdbcFunctionCall.getTimeDateFunctions()));
  }

  @Test
  void conversionsAreExactlyTheCastsCalcitesValidatorAllows() {
    Map<SqlSupportsConvert, SqlTypeName> calciteType = new EnumMap<>(SqlSupportsConvert.class);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_BIGINT, SqlTypeName.BIGINT);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_BINARY, SqlTypeName.BINARY);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_BIT, SqlTypeName.BOOLEAN);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_CHAR, SqlTypeName.CHAR);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_DATE, SqlTypeName.DATE);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_DECIMAL, SqlTypeName.DECIMAL);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_FLOAT, SqlTypeName.FLOAT);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_INTEGER, SqlTypeName.INTEGER);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_LONGVARBINARY, SqlTypeName.VARBINARY);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_LONGVARCHAR, SqlTypeName.VARCHAR);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_NUMERIC, SqlTypeName.DECIMAL);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_REAL, SqlTypeName.REAL);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_SMALLINT, SqlTypeName.SMALLINT);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_TIME, SqlTypeName.TIME);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_TIMESTAMP, SqlTypeName.TIMESTAMP);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_TINYINT, SqlTypeName.TINYINT);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_VARBINARY, SqlTypeName.VARBINARY);
    calciteType.put(SqlSupportsConvert.SQL_CONVERT_VARCHAR, SqlTypeName.VARCHAR);

    RelDataTypeFactory types = new JavaTypeFactoryImpl();
    Map<SqlSupportsConvert, Set<SqlSupportsConvert>> expected =
        new EnumMap<>(SqlSupportsConvert.class);
    calciteType.forEach(
        (from, fromType) -> {
          Set<SqlSupportsConvert> targets = EnumSet.noneOf(SqlSupportsConvert.class);
          calciteType.forEach(
              (to, toType) -> {
                if (SqlTypeUtil.canCastFrom(
                    types.createSqlType(toType), types.createSqlType(fromType), true)) {
                  targets.add(to);
                }
              });
          expected.put(from, targets);
        });

    assertThat(CalciteSqlSurface.conversions()).isEqualTo(expected);
  }
}
