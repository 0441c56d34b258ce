package dev.lake.query.sql;

import dev.lake.registry.TableNames;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * A bulk append spelled as SQL, recognized by the SQL layer's parser: a prepared
 * {@code INSERT INTO <table> VALUES (?, ..., ?)} whose parameter batches are the rows, which is how the ADBC Java
 * Flight SQL driver (0.20.0) ingests ({@code AdbcConnection.bulkIngest} with {@code APPEND}). The flight layer runs
 * it as a bulk ingest with "append, fail if missing". Only this exact shape is recognized — one tuple of parameter
 * markers only, no column list, no expressions, the table in {@code lake.main} (unqualified, {@code main.t} or
 * {@code lake.main.t}, quoted or not); every other INSERT, UPSERT, and CREATE TABLE stays refused by the read-only
 * SQL surface ({@link SqlSurfacePolicy}).
 */
public final class BulkAppend {
  private static final int MAX_SQL = 100_000;
  private static final int MAX_COLUMNS = 10_000;

  private BulkAppend() {}

  /** The table (normalized) that {@code sql} appends to, if it is exactly that shape. */
  public static Optional<String> target(String sql) {
    if (sql == null || sql.length() > MAX_SQL || !sql.strip().regionMatches(true, 0, "INSERT", 0, 6)) {
      return Optional.empty(); // not an INSERT: no parse needed
    }
    SqlNode parsed;
    try {
      parsed = LenientParser.parse(withoutTrailingSemicolon(sql), StatementParser.CONFIG);
    } catch (LenientParser.SyntaxError | SqlParseException | RuntimeException | StackOverflowError e) {
      return Optional.empty();
    }
    if (!(parsed instanceof SqlInsert insert) || insert.isUpsert() || insert.getTargetColumnList() != null
        || !(insert.getTargetTable() instanceof SqlIdentifier target) || !onlyParameters(insert.getSource())) {
      return Optional.empty();
    }
    return table(target.names);
  }

  /** {@code VALUES (?, ..., ?)}: one row of parameter markers. */
  private static boolean onlyParameters(SqlNode source) {
    if (!(source instanceof SqlBasicCall values) || source.getKind() != SqlKind.VALUES
        || values.operandCount() != 1 || !(values.operand(0) instanceof SqlBasicCall row)
        || row.getKind() != SqlKind.ROW || row.operandCount() == 0 || row.operandCount() > MAX_COLUMNS) {
      return false;
    }
    return row.getOperandList().stream().allMatch(SqlDynamicParam.class::isInstance);
  }

  private static Optional<String> table(List<String> names) {
    int n = names.size();
    if (n > 3 || n == 3 && !names.get(0).equalsIgnoreCase("lake")
        || n >= 2 && !names.get(n - 2).equalsIgnoreCase("main")) {
      return Optional.empty();
    }
    String table = names.get(n - 1);
    return TableNames.isValid(table) ? Optional.of(table.toLowerCase(Locale.ROOT)) : Optional.empty();
  }

  private static String withoutTrailingSemicolon(String sql) {
    String s = sql.strip();
    return s.endsWith(";") ? s.substring(0, s.length() - 1) : s;
  }
}
