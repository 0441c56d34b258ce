package dev.lake.query;

import dev.lake.query.model.QueryRejectedException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** SQL as users type it (issue 21 item 6): common words are names, and syntax errors say where. */
class SqlTextTest extends LakeTestSupport {
  private static final Schema WORDS = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("value", new ArrowType.Int(64, true)),
      Field.nullable("dec", new ArrowType.Int(64, true)),
      Field.nullable("running", new ArrowType.Int(64, true)),
      Field.nullable("year", new ArrowType.Int(64, true)),
      Field.nullable("position", ArrowType.Utf8.INSTANCE),
      Field.nullable("language", ArrowType.Utf8.INSTANCE),
      Field.nullable("result", ArrowType.Utf8.INSTANCE)));

  @Override
  void createTables() {
    createTable("words", WORDS, List.of(Rows.row(1L, 10L, 100L, 1000L, 2026L, "a", "en", "ok"),
        Rows.row(2L, 20L, 200L, 2000L, 2025L, "b", "de", "ko")));
  }

  @Test
  void commonWordsAreNotReserved() {
    Result aliases = query("SELECT 1 AS one, 2 AS dec, 3 AS running, 4 AS value, 5 AS year, 6 AS result");
    assertThat(aliases.schema().getFields()).extracting(Field::getName)
        .containsExactly("one", "dec", "running", "value", "year", "result");
    assertThat(aliases.rows()).containsExactly(List.of(1, 2, 3, 4, 5, 6));

    Result columns = query("SELECT value, dec, running, year, position, language, result FROM words "
        + "WHERE value > 10 ORDER BY running");
    assertThat(columns.rows()).containsExactly(List.of(20L, 200L, 2000L, 2025L, "b", "de", "ko"));
    Result qualified = query("SELECT one.value, one.dec FROM words AS one WHERE one.running = 1000");
    assertThat(qualified.rows()).containsExactly(List.of(10L, 100L));
    Result grouped = query("SELECT language, SUM(value) AS total, MAX(year) AS y FROM words GROUP BY language"
        + " ORDER BY language");
    assertThat(grouped.rows()).containsExactly(List.of("de", 20L, 2025L), List.of("en", 10L, 2026L));

    // The read-only surface is unchanged: statements are still refused by kind, reserved words stay reserved.
    assertThatThrownBy(() -> service.prepare("DELETE FROM words WHERE value = 1"))
        .isInstanceOf(QueryRejectedException.class).hasMessageStartingWith("DELETE statements are not allowed");
    assertThatThrownBy(() -> service.prepare("SELECT 1 AS select"))
        .isInstanceOf(QueryRejectedException.class).hasMessage("syntax error at line 1, column 13 near \"select\"");
  }

  @Test
  void syntaxErrorsNameLineColumnAndToken() {
    assertThatThrownBy(() -> service.prepare("SELEC 1"))
        .isInstanceOf(QueryRejectedException.class).hasMessage("syntax error at line 1, column 1 near \"SELEC\"");
    assertThatThrownBy(() -> service.prepare("SELECT id\nFROM words\nWHERE id = = 1"))
        .isInstanceOf(QueryRejectedException.class).hasMessage("syntax error at line 3, column 10 near \"=\"");
    assertThatThrownBy(() -> service.prepare("SELECT id FROM words WHERE"))
        .isInstanceOf(QueryRejectedException.class).hasMessageStartingWith("syntax error at line 1, column");
    // a word read as a name before the real error does not shift the column reported
    assertThatThrownBy(() -> service.prepare("SELECT 1 AS one, 2 AS two FROM words WHERE id ) 1"))
        .isInstanceOf(QueryRejectedException.class).hasMessage("syntax error at line 1, column 47 near \")\"");
    assertThatThrownBy(() -> service.prepare("SELECT 'unterminated FROM words"))
        .isInstanceOf(QueryRejectedException.class).hasMessageStartingWith("syntax error at line 1, column");
  }
}
