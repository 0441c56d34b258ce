package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.AllTypes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo;
import org.apache.arrow.flight.sql.util.TableRef;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a BI tool sees through the Flight SQL JDBC driver's {@link DatabaseMetaData}: every getter answers, and the
 * answers about lake's namespace, types and capabilities are true.
 */
class JdbcMetadataTest {
  private static final String SMALL = "small_table";

  @TempDir
  Path dataDir;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void allDatabaseMetaDataGettersAnswer() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir);
        FlightTestClient client = server.client()) {
      try (VectorSchemaRoot rows = AllTypes.batch(client.allocator(), 0, 6)) {
        assertThat(client.ingest("all_types", rows, FlightTestClient.create())).isEqualTo(6);
      }
      try (VectorSchemaRoot rows = smallTable(client)) {
        assertThat(client.ingest(SMALL, rows, FlightTestClient.create())).isEqualTo(3);
      }

      try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
        DatabaseMetaData md = jdbc.getMetaData();

        // 1. Every no-argument getter returns (result sets are read to the end); all failures in one message.
        Map<String, Object> answers = new HashMap<>();
        List<String> failures = callEveryNoArgumentGetter(md, answers);
        assertThat(failures).as("DatabaseMetaData getters that threw (%d of %d called):%n%s", failures.size(),
            answers.size() + failures.size(), String.join("\n", failures)).isEmpty();
        assertThat(answers).as("getters called").hasSizeGreaterThan(130);

        // 2. The truthful capability answers (the driver reads these from the server's SqlInfo).
        assertThat(md.isReadOnly()).as("isReadOnly: bulk ingest writes").isFalse();
        assertThat(md.supportsTransactions()).as("supportsTransactions").isFalse();
        assertThat(md.getDefaultTransactionIsolation()).isEqualTo(Connection.TRANSACTION_NONE);
        assertThat(md.getIdentifierQuoteString()).isEqualTo("\"");
        assertThat(md.getDatabaseProductName()).isEqualTo("lake");
        assertThat(md.getDatabaseProductVersion()).isNotBlank();
        assertThat(md.getSearchStringEscape()).isEqualTo("\\");
        assertThat(md.getMaxTableNameLength()).isEqualTo(128);

        // 3. Identifier case. The server's SqlInfo says: unquoted and quoted identifiers are case-insensitive.
        Map<Integer, Object> info = sqlInfo(client, SqlInfo.SQL_IDENTIFIER_CASE, SqlInfo.SQL_QUOTED_IDENTIFIER_CASE);
        long insensitive = SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE_VALUE;
        assertThat(((Number) info.get(SqlInfo.SQL_IDENTIFIER_CASE_VALUE)).longValue())
            .as("SqlInfo SQL_IDENTIFIER_CASE").isEqualTo(insensitive);
        assertThat(((Number) info.get(SqlInfo.SQL_QUOTED_IDENTIFIER_CASE_VALUE)).longValue())
            .as("SqlInfo SQL_QUOTED_IDENTIFIER_CASE").isEqualTo(insensitive);
        // ... and SQL behaves that way, quoted or not, whatever the case.
        assertThat(ids(jdbc, "SELECT ID FROM ALL_TYPES ORDER BY Id")).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(ids(jdbc, "SELECT \"ID\" FROM \"All_Types\" ORDER BY \"id\"")).containsExactly(0L, 1L, 2L, 3L,
            4L, 5L);
        // The 18.3.0 driver never reads SQL_IDENTIFIER_CASE / SQL_QUOTED_IDENTIFIER_CASE: these getters are
        // Avatica's AvaticaDatabaseMetaData, answering from connection-internal defaults (CASE_SENSITIVE=true,
        // UNQUOTED_CASING=TO_UPPER, QUOTED_CASING=UNCHANGED) that the Flight driver never fills in. Only
        // supportsMixedCaseIdentifiers=false matches lake; the others are pinned as the driver answers them, so a
        // driver that starts reading the server's answer makes this test say so. (Truth for lake: stores mixed case,
        // case-insensitive, quoted or not.)
        assertThat(md.supportsMixedCaseIdentifiers()).as("supportsMixedCaseIdentifiers").isFalse();
        assertThat(List.of(md.storesUpperCaseIdentifiers(), md.storesLowerCaseIdentifiers(),
            md.storesMixedCaseIdentifiers(), md.supportsMixedCaseQuotedIdentifiers(),
            md.storesUpperCaseQuotedIdentifiers(), md.storesLowerCaseQuotedIdentifiers(),
            md.storesMixedCaseQuotedIdentifiers()))
            .as("driver's Avatica defaults: storesUpper, storesLower, storesMixed, supportsMixedQuoted, "
                + "storesUpperQuoted, storesLowerQuoted, storesMixedQuoted")
            .containsExactly(true, false, false, true, false, false, false);

        // 4. Tables: both, in lake.main, of type TABLE; an upper-cased name (as BI tools send it) still finds one.
        assertThat(rows(md.getTables(null, null, "%", null), "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME",
            "TABLE_TYPE")).containsExactly(
                List.of("lake", "main", "all_types", "TABLE"),
                List.of("lake", "main", SMALL, "TABLE"));
        assertThat(rows(md.getTables(null, null, "ALL_TYPES", null), "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME",
            "TABLE_TYPE")).containsExactly(List.of("lake", "main", "all_types", "TABLE"));
        assertThat(rows(md.getTables("lake", "main", "%", new String[] {"TABLE"}), "TABLE_NAME"))
            .containsExactly(List.of("all_types"), List.of(SMALL));
        assertThat(rows(md.getTables(null, null, "no_such_%", null), "TABLE_NAME")).isEmpty();

        // 5. Columns: every column, in order, with its JDBC type, size, scale and nullability.
        assertColumns(md);
        // ResultSetMetaData cannot carry it: the 18.3.0 driver reports every result column NOT NULL, whatever the
        // field's nullability in the result schema. Pinned so a fixed driver shows up; getColumns above is the truth.
        try (Statement st = jdbc.createStatement();
            ResultSet rs = st.executeQuery("SELECT id, c_int FROM all_types WHERE id = 2")) {
          ResultSetMetaData rsmd = rs.getMetaData();
          assertThat(List.of(rsmd.isNullable(1), rsmd.isNullable(2))).as("18.3.0 driver: isNullable(id, c_int)")
              .containsExactly(ResultSetMetaData.columnNoNulls, ResultSetMetaData.columnNoNulls);
          assertThat(rs.next()).isTrue();
          rs.getInt(2);
          assertThat(rs.wasNull()).as("c_int of row 2 is NULL all the same").isTrue();
        }

        // 6. The namespace and the key-less tables.
        assertThat(rows(md.getSchemas(), "TABLE_SCHEM", "TABLE_CATALOG")).containsExactly(List.of("main", "lake"));
        assertThat(rows(md.getCatalogs(), "TABLE_CAT")).containsExactly(List.of("lake"));
        assertThat(rows(md.getTableTypes(), "TABLE_TYPE")).containsExactly(List.of("TABLE"));
        // getPrimaryKeys: lake tables have no keys. The server answers with the exact Flight SQL schema and no
        // rows (read with a plain FlightSqlClient) ...
        List<List<Object>> pkRows = new ArrayList<>();
        Schema pkSchema = stream(client, client.sql().getPrimaryKeys(TableRef.of(null, null, "all_types"),
            client.auth()), pkRows);
        assertThat(pkSchema.getFields()).extracting(Field::getName)
            .containsExactlyElementsOf(FlightSqlProducer.Schemas.GET_PRIMARY_KEYS_SCHEMA.getFields().stream()
                .map(Field::getName).toList());
        assertThat(pkRows).as("GetPrimaryKeys rows").isEmpty();
        // ... and the driver gives a valid, empty result set. The 18.3.0 driver drops every endpoint whose first
        // batch has no rows (FlightEndpointDataQueue), and the schema with it, so an empty metadata result has no
        // columns at all; that is pinned here so a driver that keeps the schema shows up.
        try (ResultSet pk = md.getPrimaryKeys(null, null, "all_types")) {
          assertThat(pk.getMetaData().getColumnCount()).as("18.3.0 driver: columns of an empty getPrimaryKeys")
              .isZero();
          assertThat(pk.next()).as("lake tables have no primary key").isFalse();
        }
      }
    }
  }

  private static void assertColumns(DatabaseMetaData md) throws SQLException {
    record Col(String name, List<Integer> dataTypes, List<String> typeNames, Integer size, Integer digits,
        int nullable) {}
    int nullable = DatabaseMetaData.columnNullable;
    int notNull = DatabaseMetaData.columnNoNulls;
    List<Col> expected = List.of(
        new Col("id", List.of(Types.BIGINT), List.of("BIGINT"), null, 0, notNull),
        new Col("c_tinyint", List.of(Types.TINYINT), List.of("TINYINT"), null, 0, nullable),
        new Col("c_smallint", List.of(Types.SMALLINT), List.of("SMALLINT"), null, 0, nullable),
        new Col("c_int", List.of(Types.INTEGER), List.of("INTEGER"), null, 0, nullable),
        new Col("c_bigint", List.of(Types.BIGINT), List.of("BIGINT"), null, 0, nullable),
        // The 18.3.0 driver maps float32 to Types.FLOAT (JDBC's single-precision type is REAL); the server's
        // TYPE_NAME says REAL.
        new Col("c_float", List.of(Types.REAL, Types.FLOAT), List.of("REAL"), null, null, nullable),
        new Col("c_double", List.of(Types.DOUBLE), List.of("DOUBLE"), null, null, nullable),
        new Col("c_dec38", List.of(Types.DECIMAL), List.of("DECIMAL"), 38, 10, nullable),
        new Col("c_dec12", List.of(Types.DECIMAL), List.of("DECIMAL"), 12, 2, nullable),
        new Col("c_varchar", List.of(Types.VARCHAR), List.of("VARCHAR"), null, null, nullable),
        new Col("c_boolean", List.of(Types.BOOLEAN, Types.BIT), List.of("BOOLEAN"), null, null, nullable),
        new Col("c_date", List.of(Types.DATE), List.of("DATE"), null, null, nullable),
        new Col("c_time", List.of(Types.TIME), List.of("TIME"), null, null, nullable),
        new Col("c_timestamp", List.of(Types.TIMESTAMP), List.of("TIMESTAMP"), null, null, nullable),
        // TYPE_NAME is the server's SQL name for a zoned timestamp; Calcite spells it WITH LOCAL TIME ZONE.
        new Col("c_timestamptz", List.of(Types.TIMESTAMP_WITH_TIMEZONE),
            List.of("TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITH LOCAL TIME ZONE"), null, null, nullable),
        new Col("c_varbinary", List.of(Types.VARBINARY), List.of("VARBINARY"), null, null, nullable));

    List<String> names = new ArrayList<>();
    try (ResultSet rs = md.getColumns(null, null, "all_types", "%")) {
      int position = 0;
      while (rs.next()) {
        position++;
        String name = rs.getString("COLUMN_NAME");
        names.add(name);
        if (position > expected.size()) {
          continue;
        }
        Col col = expected.get(position - 1);
        String what = "column " + position + " (" + name + ")";
        assertThat(name).as(what + " COLUMN_NAME").isEqualTo(col.name());
        assertThat(rs.getString("TABLE_CAT")).as(what + " TABLE_CAT").isEqualTo("lake");
        assertThat(rs.getString("TABLE_SCHEM")).as(what + " TABLE_SCHEM").isEqualTo("main");
        assertThat(rs.getString("TABLE_NAME")).as(what + " TABLE_NAME").isEqualTo("all_types");
        assertThat(rs.getInt("ORDINAL_POSITION")).as(what + " ORDINAL_POSITION").isEqualTo(position);
        assertThat(rs.getInt("DATA_TYPE")).as(what + " DATA_TYPE").isIn(col.dataTypes());
        assertThat(rs.getString("TYPE_NAME")).as(what + " TYPE_NAME").isIn(col.typeNames());
        if (col.size() != null) {
          assertThat(rs.getInt("COLUMN_SIZE")).as(what + " COLUMN_SIZE").isEqualTo(col.size());
        }
        if (col.digits() != null) {
          assertThat(rs.getInt("DECIMAL_DIGITS")).as(what + " DECIMAL_DIGITS").isEqualTo(col.digits());
        }
        // getColumns, unlike ResultSetMetaData.isNullable (always columnNoNulls in the 18.3.0 driver), carries
        // the nullability of the table schema the server sends in GetTables(include_schema=true).
        assertThat(rs.getInt("NULLABLE")).as(what + " NULLABLE").isEqualTo(col.nullable());
        assertThat(rs.getString("IS_NULLABLE")).as(what + " IS_NULLABLE")
            .isEqualTo(col.nullable() == nullable ? "YES" : "NO");
      }
    }
    assertThat(names).as("getColumns(all_types, any column) names in order")
        .containsExactlyElementsOf(expected.stream().map(Col::name).toList());

    // A column-name pattern narrows the list; the table-name pattern is matched case-insensitively.
    assertThat(rows(md.getColumns(null, null, "ALL_TYPES", "c_dec%"), "COLUMN_NAME", "COLUMN_SIZE",
        "DECIMAL_DIGITS")).containsExactly(List.of("c_dec38", "38", "10"), List.of("c_dec12", "12", "2"));
    assertThat(rows(md.getColumns(null, null, SMALL, "%"), "COLUMN_NAME", "NULLABLE"))
        .containsExactly(List.of("id", "0"), List.of("name", "1"));
  }

  /** Calls every public no-argument getter of {@link DatabaseMetaData}; returns one line per failure. */
  private static List<String> callEveryNoArgumentGetter(DatabaseMetaData md, Map<String, Object> answers) {
    List<String> failures = new ArrayList<>();
    List<Method> getters = Arrays.stream(DatabaseMetaData.class.getMethods())
        .filter(m -> m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers()))
        .sorted(Comparator.comparing(Method::getName))
        .toList();
    for (Method m : getters) {
      try {
        Object value = m.invoke(md);
        if (value instanceof ResultSet rs) {
          try (rs) {
            value = readAll(rs);
          }
        }
        answers.put(m.getName(), value);
      } catch (InvocationTargetException e) {
        failures.add("  " + m.getName() + "(): " + describe(e.getCause()));
      } catch (Exception | Error e) {
        failures.add("  " + m.getName() + "(): " + describe(e));
      }
    }
    return failures;
  }

  private static String describe(Throwable t) {
    StringBuilder out = new StringBuilder(t.getClass().getName() + ": " + t.getMessage());
    Throwable cause = t.getCause();
    while (cause != null && cause != cause.getCause()) {
      out.append(" <- ").append(cause.getClass().getName()).append(": ").append(cause.getMessage());
      cause = cause.getCause();
    }
    return out.toString();
  }

  /** Every row of a result set, every column read with getObject. */
  private static List<List<Object>> readAll(ResultSet rs) throws SQLException {
    int columns = rs.getMetaData().getColumnCount();
    List<List<Object>> out = new ArrayList<>();
    while (rs.next()) {
      List<Object> row = new ArrayList<>();
      for (int c = 1; c <= columns; c++) {
        row.add(rs.getObject(c));
      }
      out.add(row);
    }
    return out;
  }

  /** The named columns of every row, as strings (null stays null); closes the result set. */
  private static List<List<String>> rows(ResultSet rs, String... columns) throws SQLException {
    List<List<String>> out = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (String c : columns) {
          row.add(rs.getString(c));
        }
        out.add(row);
      }
    }
    return out;
  }

  private static List<Long> ids(Connection jdbc, String sql) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (Statement st = jdbc.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getLong(1));
      }
    }
    return out;
  }

  /** The server's own SqlInfo answers (info_name -> value), read with a plain FlightSqlClient. */
  private static Map<Integer, Object> sqlInfo(FlightTestClient client, SqlInfo... keys) throws Exception {
    Map<Integer, Object> out = new HashMap<>();
    FlightInfo flightInfo = client.sql().getSqlInfo(keys, client.auth());
    for (FlightEndpoint endpoint : flightInfo.getEndpoints()) {
      try (FlightStream stream = client.sql().getStream(endpoint.getTicket(), client.auth())) {
        while (stream.next()) {
          VectorSchemaRoot root = stream.getRoot();
          UInt4Vector names = (UInt4Vector) root.getVector("info_name");
          DenseUnionVector values = (DenseUnionVector) root.getVector("value");
          for (int r = 0; r < root.getRowCount(); r++) {
            out.put(names.get(r), values.getObject(r));
          }
        }
      }
    }
    return out;
  }

  /** Reads every batch of a metadata command's answer into {@code rows}; returns the stream's schema. */
  private static Schema stream(FlightTestClient client, FlightInfo flightInfo, List<List<Object>> rows)
      throws Exception {
    Schema schema = flightInfo.getSchemaOptional().orElseThrow();
    for (FlightEndpoint endpoint : flightInfo.getEndpoints()) {
      try (FlightStream stream = client.sql().getStream(endpoint.getTicket(), client.auth())) {
        schema = stream.getSchema();
        while (stream.next()) {
          VectorSchemaRoot root = stream.getRoot();
          for (int r = 0; r < root.getRowCount(); r++) {
            List<Object> row = new ArrayList<>();
            for (FieldVector v : root.getFieldVectors()) {
              row.add(v.getObject(r));
            }
            rows.add(row);
          }
        }
      }
    }
    return schema;
  }

  private static VectorSchemaRoot smallTable(FlightTestClient client) {
    Schema schema = new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        Field.nullable("name", new ArrowType.Utf8())));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator());
    root.allocateNew();
    for (int i = 0; i < 3; i++) {
      ((BigIntVector) root.getVector("id")).setSafe(i, i + 1);
      ((VarCharVector) root.getVector("name")).setSafe(i, ("name " + (i + 1)).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(3);
    return root;
  }
}
