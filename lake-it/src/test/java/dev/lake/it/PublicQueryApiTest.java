package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 / docs/design.md invariant 8: the public SQL surface is read-only and reaches no location but the registered
 * tables; every refusal is INVALID_ARGUMENT naming what was refused, through Flight SQL statements, prepared
 * statements, updates and the JDBC driver.
 */
class PublicQueryApiTest {
  @TempDir
  Path dir;

  @Test
  void publicQueryApiRejectsUnsafeStatements() throws Exception {
    Path secret = Files.writeString(dir.resolve("secret.txt"), "do not read me");
    Map<String, String> refused = new LinkedHashMap<>();
    // DDL
    refused.put("CREATE TABLE x (a INTEGER)", "CREATE TABLE statements are not allowed");
    refused.put("CREATE VIEW v AS SELECT v FROM t", "CREATE VIEW statements are not allowed");
    refused.put("DROP TABLE t", "DROP TABLE statements are not allowed");
    refused.put("ALTER TABLE t ADD COLUMN b INTEGER", "ALTER TABLE statements are not allowed");
    refused.put("TRUNCATE TABLE t", "TRUNCATE TABLE statements are not allowed");
    // DML
    refused.put("INSERT INTO t VALUES (1)", "INSERT statements are not allowed");
    refused.put("UPDATE t SET v = 0", "UPDATE statements are not allowed");
    refused.put("DELETE FROM t", "DELETE statements are not allowed");
    refused.put("MERGE INTO t USING t AS s ON t.v = s.v WHEN MATCHED THEN DELETE", "MERGE statements are not allowed");
    // session and other statements
    refused.put("SET lake.x = 1", "SET statements are not allowed");
    refused.put("GRANT SELECT ON t TO mallory", "GRANT statements are not allowed");
    // COPY-like
    refused.put("COPY t TO '/tmp/out.csv'", "COPY statements are not allowed");
    refused.put("COPY t FROM '" + secret + "'", "COPY statements are not allowed");
    refused.put("SELECT * INTO OUTFILE '/tmp/out' FROM t", "INTO OUTFILE/DUMPFILE statements are not allowed");
    refused.put("EXPORT DATABASE '/tmp/db'", "EXPORT statements are not allowed");
    refused.put("ATTACH 's3://other-bucket/db' AS o", "ATTACH statements are not allowed");
    refused.put("LOAD httpfs", "LOAD statements are not allowed");
    // location-reading functions and locations named as tables
    refused.put("SELECT * FROM read_parquet('s3://other-bucket/x.parquet')", "function READ_PARQUET is not allowed");
    refused.put("SELECT read_csv('" + secret + "')", "function READ_CSV is not allowed");
    refused.put("SELECT * FROM TABLE(read_parquet('s3://other-bucket/x.parquet'))",
        "function READ_PARQUET is not allowed");
    refused.put("SELECT pg_read_file('" + secret + "')", "function PG_READ_FILE is not allowed");
    refused.put("SELECT v FROM t WHERE v IN (SELECT load_file('/etc/passwd'))", "function LOAD_FILE is not allowed");
    refused.put("SELECT * FROM TABLE(dblink('host=evil', 'select 1'))", "function DBLINK is not allowed");
    refused.put("SELECT * FROM \"" + secret + "\"", "is not a table name: naming a storage location is not allowed");
    refused.put("SELECT * FROM \"s3://other-bucket/t/abc\"", "is not a table name");
    refused.put("SELECT * FROM \"file:///etc/passwd\"", "is not a table name");
    refused.put("SELECT * FROM \"t@../../other\"", "is not a table name");
    refused.put("SELECT * FROM \"t@v1/../../x\"", "is not a table name");
    refused.put("SELECT * FROM \"../t\"", "is not a table name");
    refused.put("SELECT * FROM TABLE(ramp(3))", "table functions in FROM are not allowed");

    try (LakeTestServer server = LakeTestServer.start(dir.resolve("data"));
        FlightTestClient client = server.client()) {
      LongTable.ingest(client, "t", 0, 5, FlightTestClient.create());
      Map<String, String> answers = new LinkedHashMap<>();
      for (Map.Entry<String, String> e : refused.entrySet()) {
        String sql = e.getKey();
        Throwable statement = catchThrowable(() -> client.sql().execute(sql, client.auth()));
        Throwable prepared = catchThrowable(() -> client.sql().prepare(sql, client.auth()));
        Throwable update = catchThrowable(() -> client.sql().executeUpdate(sql, client.auth()));
        for (Map.Entry<String, Throwable> kind : Map.of("statement", statement, "prepared", prepared, "update",
            update).entrySet()) {
          Throwable failure = kind.getValue();
          String answer = failure == null ? "ACCEPTED" : Status.code(failure);
          answers.put(kind.getKey() + ": " + sql, answer);
          if (failure != null) {
            assertThat(failure).as(kind.getKey() + ": " + sql).hasMessageContaining(e.getValue());
          }
        }
      }
      assertThat(answers).allSatisfy((sql, code) -> assertThat(code).as(sql).isEqualTo("INVALID_ARGUMENT"));

      // SELECT and EXPLAIN are allowed (and so are WITH, VALUES, set operations, time travel by name)
      for (String sql : List.of("SELECT v FROM t", "EXPLAIN PLAN FOR SELECT v FROM t",
          "WITH x AS (SELECT v FROM t) SELECT v FROM x", "VALUES (1), (2)",
          "SELECT v FROM t UNION ALL SELECT v FROM \"t@v1\"", "SELECT 's3://a/string/is/data' AS s")) {
        assertThat(client.rows(sql)).as(sql).isNotEmpty();
      }

      // the JDBC driver (prepared statements underneath) gets the same answers
      try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
          Statement st = jdbc.createStatement()) {
        Throwable dml = catchThrowable(() -> st.executeQuery("DELETE FROM t"));
        assertThat(dml).isInstanceOf(SQLException.class).hasMessageContaining("DELETE statements are not allowed");
        Throwable file = catchThrowable(() -> st.executeQuery("SELECT read_csv('/etc/passwd')"));
        assertThat(file).isInstanceOf(SQLException.class).hasMessageContaining("function READ_CSV is not allowed");
        try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(5);
        }
      }
      assertThat(client.count("t")).as("nothing was written").isEqualTo(5);
    }
  }
}
