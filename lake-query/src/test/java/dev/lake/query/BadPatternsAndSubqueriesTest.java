package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * A pattern, an escape or a function argument that Calcite's runtime cannot use, and a scalar subquery of many rows,
 * are the client's mistakes: INVALID_ARGUMENT with a message naming what is wrong, never an internal error
 * (docs/api.md, "Errors").
 */
class BadPatternsAndSubqueriesTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE)));

  @Override
  void createTables() {
    createTable("p", SCHEMA, List.of(Arrays.asList(1, "a"), Arrays.asList(2, "é€"), Arrays.asList(null, null)));
  }

  @Test
  void invalidEscapesAndPatternsAreTheClientsError() {
    refused("SELECT * FROM p WHERE s LIKE 'a' ESCAPE 'ab'", "ESCAPE 'ab'", "one character");
    refused("SELECT * FROM p WHERE s NOT LIKE 'a' ESCAPE 'ab'", "ESCAPE 'ab'", "one character");
    refused("SELECT * FROM p WHERE s LIKE 'a' ESCAPE ''", "ESCAPE ''", "one character");
    refused("SELECT 'a' LIKE 'a' ESCAPE 'ab'", "ESCAPE 'ab'", "one character");
    refused("SELECT * FROM p WHERE s LIKE 'a' ESCAPE s", "LIKE pattern 'a'", "escape character 'a'");
    refused("SELECT * FROM p WHERE s LIKE 'x' ESCAPE s AND i = 2", "ESCAPE 'é€'", "one character");
    refused("SELECT * FROM p WHERE s LIKE 'a\\' ESCAPE '\\'", "LIKE pattern 'a\\'", "must be followed by");
    refused("SELECT * FROM p WHERE s LIKE 'a\\b' ESCAPE '\\'", "LIKE pattern 'a\\b'", "must be followed by");
    refused("SELECT * FROM p WHERE s SIMILAR TO '(a'", "SIMILAR TO pattern '(a'", "group");
    refused("SELECT 'a' SIMILAR TO '(a'", "SIMILAR TO pattern '(a'", "group");
    refused("SELECT * FROM p WHERE s SIMILAR TO '[a'", "SIMILAR TO pattern '[a'");
    refused("SELECT * FROM p WHERE s SIMILAR TO 'a{2,1}'", "SIMILAR TO pattern 'a{2,1}'");
    refused("SELECT * FROM p WHERE s SIMILAR TO '*a'", "SIMILAR TO pattern '*a'");
    refused("SELECT * FROM p WHERE s SIMILAR TO 'a\\' ESCAPE '\\'", "SIMILAR TO pattern 'a\\'");
    refused("SELECT * FROM p WHERE s SIMILAR TO 'a' ESCAPE 'ab'", "ESCAPE 'ab'", "one character");
    refused("SELECT * FROM p WHERE s SIMILAR TO 'a' ESCAPE ''", "ESCAPE ''", "one character");
    refused("SELECT OVERLAY(s PLACING 'x' FROM 0) FROM p", "OVERLAY", "FROM");
    refused("SELECT OVERLAY(s PLACING 'x' FROM 1 FOR -2) FROM p", "OVERLAY", "FOR");
    refused("SELECT OVERLAY('abc' PLACING 'xy' FROM 3)", "OVERLAY", "FROM");
    // what already was the client's error stays so
    refused("SELECT SUBSTRING(s FROM 1 FOR -1) FROM p", "negative substring length");
    refused("SELECT POSITION('a' IN s FROM 0) FROM p", "POSITION");
    refused("SELECT TRIM(BOTH 'ab' FROM s) FROM p", "'ab'");
    // good patterns and escapes still match
    assertThat(query("SELECT i FROM p WHERE s LIKE 'a%' ESCAPE '\\'").rows()).containsExactly(List.of(1));
    assertThat(query("SELECT i FROM p WHERE s SIMILAR TO '(a|b)'").rows()).containsExactly(List.of(1));
    assertThat(query("SELECT OVERLAY(s PLACING 'x' FROM 1) FROM p WHERE i = 1").rows()).containsExactly(List.of("x"));
  }

  @Test
  void scalarSubqueryOfManyRowsIsTheClientsError() {
    for (String sql : List.of("SELECT (SELECT i FROM p)", "SELECT (SELECT i FROM p) FROM p",
        "SELECT i FROM p WHERE i = (SELECT i FROM p)")) {
      refused(sql, "more than one row returned by a subquery used as an expression");
    }
    assertThat(query("SELECT (SELECT i FROM p WHERE i = 1)").rows()).containsExactly(List.of(1));
  }

  private void refused(String sql, String... parts) {
    assertThatThrownBy(() -> query(sql)).as(sql)
        .isInstanceOf(CodedFailure.class)
        .satisfies(e -> assertThat(((CodedFailure) e).errorCode()).as(sql + ": " + e.getMessage())
            .isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .satisfies(e -> assertThat(e.getMessage()).as(sql).contains(parts).doesNotContain("java.")
            .doesNotContain("bug in lake"));
  }
}
