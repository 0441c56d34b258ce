package dev.lake.query.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.query.model.QueryRejectedException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/design.md invariant 8, the part about locations: nothing in a statement can point lake at a storage location or
 * an external source; the rejection names what was refused.
 */
class LocationPolicyTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "SELECT * FROM \"s3://bucket/data.lance\"|'s3://bucket/data.lance' is not a table name: naming a storage location is not allowed",
      "SELECT * FROM \"/etc/passwd\"|'/etc/passwd' is not a table name",
      "SELECT * FROM \"file:t\"|'file:t' is not a table name",
      "SELECT * FROM \"../other/t\"|naming a storage location is not allowed",
      "SELECT * FROM \"t@/tmp/x\"|naming a storage location is not allowed",
      "SELECT * FROM \"C:\\data\\t\"|naming a storage location is not allowed",
      "SELECT * FROM \"https://example.com/t.parquet\" AS x|naming a storage location is not allowed",
      "SELECT * FROM \"s3://b/x\".main.t|'s3://b/x' is not a table name",
      "SELECT * FROM t JOIN \"gs://b/u\" ON true|'gs://b/u' is not a table name",
      "SELECT * FROM (SELECT * FROM \"/tmp/t\") s|'/tmp/t' is not a table name",
      "WITH x AS (SELECT * FROM \"/tmp/t\") SELECT * FROM x|naming a storage location is not allowed",
      "SELECT * FROM \"hdfs://nn/t\" FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00'|naming a storage location",
      "SELECT read_parquet('s3://bucket/x.parquet')|function READ_PARQUET is not allowed",
      "SELECT * FROM TABLE(read_csv('/etc/passwd'))|function READ_CSV is not allowed",
      "SELECT 1 FROM t WHERE v IN (SELECT pg_read_file('/etc/passwd'))|function PG_READ_FILE is not allowed",
      "SELECT * FROM t WHERE 1 = (SELECT COUNT(*) FROM TABLE(dblink('host=x', 'select 1')))|function DBLINK",
      "SELECT load_file('/etc/passwd')|function LOAD_FILE is not allowed",
      "SELECT * FROM TABLE(ramp(3))|table functions in FROM are not allowed",
      "SELECT * INTO OUTFILE '/tmp/x' FROM t|SELECT ... INTO OUTFILE/DUMPFILE statements are not allowed",
      "COPY t TO 's3://bucket/out'|COPY statements are not allowed",
      "ATTACH 's3://bucket/db' AS other|ATTACH statements are not allowed",
      "INSTALL httpfs|INSTALL statements are not allowed",
      "LOAD httpfs|LOAD statements are not allowed",
      "EXPORT DATABASE '/tmp/x'|EXPORT statements are not allowed",
      "UNLOAD ('SELECT 1') TO 's3://b/x'|UNLOAD statements are not allowed",
      "CREATE EXTERNAL TABLE x LOCATION 's3://b/x'|CREATE EXTERNAL statements are not allowed",
      "INSERT INTO t SELECT * FROM u|INSERT statements are not allowed",
  })
  void locationOrExternalSourceIsRejectedNamingIt(String sql, String message) {
    assertThatThrownBy(() -> StatementParser.parse(sql))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining(message);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT v FROM t",
      "SELECT v FROM \"t@v42\"",
      "SELECT v FROM \"t@2026-01-01T00:00:00Z\"",
      "SELECT v FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00'",
      "SELECT v FROM lake.main.t",
      "SELECT 's3://bucket/x' AS a_string_is_data",
      "SELECT v FROM t WHERE path = '/etc/passwd'",
      "EXPLAIN PLAN FOR SELECT v FROM t",
  })
  void tablesByNameAndStringsAsDataAreAccepted(String sql) {
    assertThatCode(() -> StatementParser.parse(sql)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"s3://b/x", "/x", "x/y", "file:x", "C:\\x", "..", "~x", "http://h"})
  void namesThatPointAtLocations(String name) {
    assertThat(SqlSurfacePolicy.namesLocation(name)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"t", "t@v42", "t@2026-01-01T00:00:00Z", "lake", "main", "T_1"})
  void namesThatAreTableReferences(String name) {
    assertThat(SqlSurfacePolicy.namesLocation(name)).isFalse();
  }
}
