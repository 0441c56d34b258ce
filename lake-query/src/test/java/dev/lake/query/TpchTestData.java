package dev.lake.query;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * TPC-H tables from the io.trino.tpch generators as lake stores them (identifiers BIGINT, integers INT, money and
 * quantities DECIMAL(15,2) from exact cents, dates DATE, text VARCHAR), and the jar's 22 query texts in lake's SQL.
 */
final class TpchTestData {
  private TpchTestData() {}

  static Schema schema(TpchTable<?> table) {
    List<Field> fields = new ArrayList<>();
    for (TpchColumn<?> column : table.getColumns()) {
      fields.add(Field.notNullable(column.getColumnName(), arrowType(column.getType())));
    }
    return new Schema(fields);
  }

  private static ArrowType arrowType(TpchColumnType type) {
    switch (type.getBase()) {
      case IDENTIFIER: return new ArrowType.Int(64, true);
      case INTEGER: return new ArrowType.Int(32, true);
      case DATE: return new ArrowType.Date(DateUnit.DAY);
      case DOUBLE: return new ArrowType.Decimal(15, 2, 128);
      default: return ArrowType.Utf8.INSTANCE;
    }
  }

  /** Every row of {@code table} at scale factor {@code scale}, as Java values. */
  static <E extends TpchEntity> List<List<Object>> rows(TpchTable<E> table, double scale) {
    List<List<Object>> rows = new ArrayList<>();
    for (E entity : table.createGenerator(scale, 1, 1)) {
      List<Object> row = new ArrayList<>();
      for (TpchColumn<E> column : table.getColumns()) {
        switch (column.getType().getBase()) {
          case IDENTIFIER: row.add(column.getIdentifier(entity)); break;
          case INTEGER: row.add(column.getInteger(entity)); break;
          case DATE: row.add(LocalDate.ofEpochDay(column.getDate(entity))); break;
          case DOUBLE: row.add(BigDecimal.valueOf(Math.round(column.getDouble(entity) * 100), 2)); break;
          default: row.add(column.getString(entity));
        }
      }
      rows.add(row);
    }
    return rows;
  }

  private static final Pattern VIEW = Pattern.compile(
      "(?is)CREATE\\s+OR\\s+REPLACE\\s+VIEW\\s+(\\w+)\\s+AS\\s+(.*?);\\s*(SELECT.*)");
  private static final Pattern DATE_CALL = Pattern.compile("(?i)\\bdate\\('([0-9-]+)'\\)");
  private static final Pattern VALUE = Pattern.compile("\\bvalue\\b");
  private static final Pattern SUBSTR = Pattern.compile("(?i)\\bsubstr\\((\\w+),\\s*(\\d+),\\s*(\\d+)\\)");

  /** TPC-H query {@code number} from the jar, in lake's SQL (Q15's view as a WITH query). */
  static String query(int number) {
    String text;
    try (InputStream in = TpchTable.class.getResourceAsStream("/io/trino/tpch/queries/q" + number + ".sql")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Matcher view = VIEW.matcher(text);
    if (view.find()) {
      text = "WITH " + view.group(1) + " AS (" + view.group(2) + ") " + view.group(3);
    }
    text = DATE_CALL.matcher(text).replaceAll("DATE '$1'");
    text = SUBSTR.matcher(text).replaceAll("substring($1 FROM $2 FOR $3)");
    text = VALUE.matcher(text).replaceAll("\"value\"");
    return text.strip().replaceAll(";$", "");
  }
}
