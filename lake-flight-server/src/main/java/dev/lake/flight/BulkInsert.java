package dev.lake.flight;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;

/**
 * A bulk append spelled as SQL: a prepared {@code INSERT INTO <table> VALUES (?, ..., ?)} whose parameter batches
 * are the rows, which is how the ADBC Java Flight SQL driver (0.20.0) ingests ({@code AdbcConnection.bulkIngest}
 * with {@code APPEND}). It runs exactly as a bulk ingest with "append, fail if missing" ({@link IngestHandler}:
 * streamed, forwarded to the leader on a follower, columns matched by name). Only this exact shape is recognized —
 * parameter markers only, one tuple, no column list, no expressions; every other INSERT, and CREATE TABLE, stays
 * refused by the read-only SQL surface.
 *
 * @param table the target table as written (a SQL identifier, optionally qualified by {@code lake.main.} or
 *     {@code main.}, optionally double-quoted)
 */
record BulkInsert(String table) {
  private static final String IDENTIFIER = "(?:[A-Za-z_][A-Za-z0-9_]{0,127}|\"[A-Za-z_][A-Za-z0-9_]{0,127}\")";
  private static final Pattern SHAPE = Pattern.compile("\\s*INSERT\\s+INTO\\s+((?:" + IDENTIFIER + "\\s*\\.\\s*){0,2}"
      + IDENTIFIER + ")\\s+VALUES\\s*\\(\\s*\\?(?:\\s*,\\s*\\?){0,9999}\\s*\\)\\s*;?\\s*",
      Pattern.CASE_INSENSITIVE);
  private static final int MAX_SQL = 100_000;

  /** The bulk append {@code sql} spells, if it is exactly that shape. */
  static Optional<BulkInsert> parse(String sql) {
    if (sql == null || sql.length() > MAX_SQL) {
      return Optional.empty();
    }
    Matcher m = SHAPE.matcher(sql);
    if (!m.matches()) {
      return Optional.empty();
    }
    String[] parts = m.group(1).split("\\s*\\.\\s*");
    if (parts.length == 3 && !unquote(parts[0]).equalsIgnoreCase("lake")
        || parts.length >= 2 && !unquote(parts[parts.length - 2]).equalsIgnoreCase("main")) {
      return Optional.empty();
    }
    return Optional.of(new BulkInsert(unquote(parts[parts.length - 1]).toLowerCase(Locale.ROOT)));
  }

  /** The equivalent ingest command: append to the table, which must exist. */
  CommandStatementIngest command() {
    return CommandStatementIngest.newBuilder().setTable(table)
        .setTableDefinitionOptions(TableDefinitionOptions.newBuilder()
            .setIfNotExist(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL)
            .setIfExists(TableExistsOption.TABLE_EXISTS_OPTION_APPEND))
        .build();
  }

  private static String unquote(String identifier) {
    return identifier.startsWith("\"") ? identifier.substring(1, identifier.length() - 1) : identifier;
  }
}
