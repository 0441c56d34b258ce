package dev.lake.flight;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BulkInsertTest {
  @Test
  void recognizesTheAdbcAppendShapeAsAnAppend() {
    assertThat(BulkInsert.parse("INSERT INTO events VALUES (?, ?)")).contains(new BulkInsert("events"));
    assertThat(BulkInsert.parse(" insert into LAKE.main.\"Events\" values(?) ; ")).contains(new BulkInsert("events"));
    assertThat(BulkInsert.parse("INSERT INTO main.t VALUES (?)")).contains(new BulkInsert("t"));
    var command = BulkInsert.parse("INSERT INTO t VALUES (?)").orElseThrow().command();
    assertThat(command.getTable()).isEqualTo("t");
    assertThat(command.getTableDefinitionOptions().getIfNotExist())
        .isEqualTo(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL);
    assertThat(command.getTableDefinitionOptions().getIfExists())
        .isEqualTo(TableExistsOption.TABLE_EXISTS_OPTION_APPEND);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "INSERT INTO t VALUES (1)",
      "INSERT INTO t VALUES (?, 1)",
      "INSERT INTO t (a, b) VALUES (?, ?)",
      "INSERT INTO t VALUES (?), (?)",
      "INSERT INTO t SELECT * FROM u",
      "INSERT INTO other.t VALUES (?)",
      "INSERT INTO x.main.t VALUES (?)",
      "INSERT INTO t VALUES (?); DROP TABLE t",
      "INSERT INTO 't' VALUES (?)",
      "UPSERT INTO t VALUES (?)",
      "SELECT ? FROM t",
      ""})
  void refusesEverythingElse(String sql) {
    assertThat(BulkInsert.parse(sql)).isEqualTo(Optional.empty());
  }
}
