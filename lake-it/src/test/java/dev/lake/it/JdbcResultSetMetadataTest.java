package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.AllTypes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a BI tool reads from {@link ResultSetMetaData} through the Flight SQL JDBC driver (issue 21 item 5): type,
 * precision, scale, nullability, label and table of every column — stored and computed — from
 * {@code PreparedStatement.getMetaData()} before execution and from the result set after it.
 */
class JdbcResultSetMetadataTest {
  /** label | JDBC type name | precision | scale | nullable | table ("" for a computed column). */
  /**
   * label | JDBC type name | precision | scale | nullable | table (null for a computed column). Nullability is the
   * Arrow field's, read from the FlightInfo schema: the 18.3.0 driver reports every column as columnNoNulls whatever
   * the schema says (its ConvertUtils sets no nullability), which {@link #describe} checks separately.
   */
  private static final List<String> EXPECTED = List.of(
      "id|BIGINT|19|0|false|all_types",
      "c_tinyint|TINYINT|3|0|true|all_types",
      "c_smallint|SMALLINT|5|0|true|all_types",
      "c_int|INTEGER|10|0|true|all_types",
      "c_bigint|BIGINT|19|0|true|all_types",
      "c_float|FLOAT|7|0|true|all_types",
      "c_double|DOUBLE|15|0|true|all_types",
      "c_dec38|DECIMAL|38|10|true|all_types",
      "c_dec12|DECIMAL|12|2|true|all_types",
      "c_varchar|VARCHAR|0|0|true|all_types",
      "c_boolean|BOOLEAN|1|0|true|all_types",
      "c_date|DATE|10|0|true|all_types",
      "c_time|TIME|15|6|true|all_types",
      "c_timestamp|TIMESTAMP|26|6|true|all_types",
      "c_timestamptz|TIMESTAMP_WITH_TIMEZONE|26|6|true|all_types",
      "c_varbinary|VARBINARY|0|0|true|all_types",
      "twice|DECIMAL|22|2|true|null",
      "as_dec|DECIMAL|20|4|true|null",
      "upper_text|VARCHAR|0|0|true|null",
      "next_id|BIGINT|19|0|false|null",
      "half|DOUBLE|15|0|true|null",
      "day|DATE|10|0|true|null",
      "rows_counted|BIGINT|19|0|false|null");
  private static final String SQL = "SELECT *, c_dec12 * 2 AS twice, CAST(c_int AS DECIMAL(20, 4)) AS as_dec,"
      + " UPPER(c_varchar) AS upper_text, id + 1 AS next_id, c_double / 2 AS half,"
      + " CAST(c_timestamp AS DATE) AS \"day\", COUNT(*) OVER () AS rows_counted FROM all_types";

  @TempDir
  Path dataDir;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void resultSetMetadataDescribesEveryColumn() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir);
        FlightTestClient client = server.client()) {
      try (VectorSchemaRoot rows = AllTypes.batch(client.allocator(), 0, 6)) {
        client.ingest("all_types", rows, FlightTestClient.create());
      }
      try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
          PreparedStatement statement = jdbc.prepareStatement(SQL)) {
        List<Boolean> nullable = client.sql().execute(SQL, client.auth()).getSchemaOptional().orElseThrow()
            .getFields().stream()
            .map(org.apache.arrow.vector.types.pojo.Field::isNullable).toList();
        assertThat(describe(statement.getMetaData(), nullable)).as("before execution")
            .containsExactlyElementsOf(EXPECTED);
        try (ResultSet result = statement.executeQuery()) {
          assertThat(describe(result.getMetaData(), nullable)).as("after execution")
              .containsExactlyElementsOf(EXPECTED);
          ResultSetMetaData md = result.getMetaData();
          assertThat(md.getSchemaName(1)).isEqualTo("main");
          assertThat(md.getCatalogName(1)).isEqualTo("lake");
          assertThat(md.getSchemaName(EXPECTED.size())).isNullOrEmpty();
          int n = 0;
          while (result.next()) {
            n++;
          }
          assertThat(n).isEqualTo(6);
        }
      }
    }
  }

  private static List<String> describe(ResultSetMetaData md, List<Boolean> nullable) throws Exception {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      assertThat(md.isNullable(i)).as("the 18.3.0 driver's nullability of column %d", i)
          .isEqualTo(ResultSetMetaData.columnNoNulls);
      out.add(md.getColumnLabel(i) + "|" + md.getColumnTypeName(i) + "|" + md.getPrecision(i) + "|" + md.getScale(i)
          + "|" + nullable.get(i - 1) + "|" + md.getTableName(i));
    }
    return out;
  }
}
