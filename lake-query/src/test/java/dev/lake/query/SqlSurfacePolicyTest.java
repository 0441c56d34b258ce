package dev.lake.query;

import dev.lake.query.model.QueryRejectedException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The public SQL surface is read-only (docs/design.md invariant 8); rejections name the statement kind. */
class SqlSurfacePolicyTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  @Override
  void createTables() {
    createTable("t", SCHEMA, List.of(Rows.row(1L, "one"), Rows.row(2L, "two")));
  }

  @ParameterizedTest(name = "{1} rejected: {0}")
  @CsvSource(delimiter = '|', value = {
      "INSERT INTO t VALUES (3, 'three')|INSERT",
      "UPSERT INTO t VALUES (3, 'three')|UPSERT",
      "UPDATE t SET name = 'x' WHERE id = 1|UPDATE",
      "DELETE FROM t WHERE id = 1|DELETE",
      "MERGE INTO t USING t AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = s.name|MERGE",
      "CREATE TABLE x (a INTEGER)|CREATE TABLE",
      "CREATE VIEW v AS SELECT * FROM t|CREATE VIEW",
      "DROP TABLE t|DROP TABLE",
      "TRUNCATE TABLE t|TRUNCATE TABLE",
      "SET lake.x = 1|SET",
      "RESET lake.x|RESET",
      "ALTER SESSION SET lake.x = 1|ALTER SESSION SET",
      "GRANT SELECT ON t TO somebody|GRANT",
      "COPY t TO '/tmp/x'|COPY",
      "/* a comment first */ DELETE FROM t|DELETE",
  })
  void disallowedStatementIsRejectedNamingItsKind(String sql, String kind) {
    assertThatThrownBy(() -> service.prepare(sql))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageStartingWith(kind + " statements are not allowed: lake's SQL surface is read-only");
  }

  @Test
  void explainOfADisallowedStatementIsRejected() {
    assertThatThrownBy(() -> service.prepare("EXPLAIN PLAN FOR INSERT INTO t VALUES (3, 'x')"))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("INSERT statements are not allowed");
  }

  @Test
  void tableFunctionInFromIsRejected() {
    assertThatThrownBy(() -> service.prepare("SELECT * FROM TABLE(ramp(3))"))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("table functions in FROM are not allowed");
  }

  @Test
  void pathAsTableNameIsRejectedNotLookedUp() {
    assertThatThrownBy(() -> service.prepare("SELECT * FROM \"s3://bucket/data.lance\""))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("is not a table name");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT id FROM t",
      "select ID from T where Id > 0",
      "SELECT id FROM lake.main.t",
      "SELECT id FROM main.t",
      "SELECT id FROM \"t\"",
      "EXPLAIN PLAN FOR SELECT id FROM t",
      "WITH x AS (SELECT id FROM t) SELECT id FROM x",
      "VALUES (1, 'a'), (2, 'b')",
      "SELECT id FROM t UNION SELECT id FROM t",
      "SELECT id FROM t UNION ALL SELECT id FROM t",
      "SELECT id FROM t INTERSECT SELECT id FROM t",
      "SELECT id FROM t EXCEPT SELECT id FROM t WHERE id = 1",
      "SELECT id FROM t ORDER BY id DESC",
      "SELECT id FROM t;",
  })
  void readOnlyStatementIsAcceptedAndRuns(String sql) {
    Result result = query(sql);
    assertThat(result.rows()).isNotEmpty();
  }
}
