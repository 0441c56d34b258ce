package dev.lake.it.tpch;

import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The 22 TPC-H queries as the io.trino.tpch 1.2 jar ships them ({@code queries/qN.sql}, written for Presto), in SQL
 * both lake and DuckDB read, with what comparing their answers needs: the columns of each query's ORDER BY.
 *
 * <p>Rewrites, all syntactic: Q15's {@code CREATE OR REPLACE VIEW revenue AS ...; SELECT ...} becomes one
 * {@code WITH revenue AS (...) SELECT ...} (lake's surface is read-only); Presto's {@code date('1994-01-01')} becomes
 * the literal {@code DATE '1994-01-01'}; {@code substr(c, 1, 2)} becomes {@code substring(c FROM 1 FOR 2)}; the
 * column alias {@code value} (a reserved word in lake's SQL) is quoted. The jar's texts carry no parameters: their
 * substitution values (e.g. {@code 'BUILDING'}, {@code DATE '1995-03-15'}) are already in place.
 */
public final class TpchQueries {
  private static final Pattern VIEW =
      Pattern.compile("(?is)CREATE\\s+OR\\s+REPLACE\\s+VIEW\\s+(\\w+)\\s+AS\\s+(.*?);\\s*(SELECT.*)");
  private static final Pattern DATE_CALL = Pattern.compile("(?i)\\bdate\\('([0-9-]+)'\\)");
  private static final Pattern SUBSTR = Pattern.compile("(?i)\\bsubstr\\((\\w+),\\s*(\\d+),\\s*(\\d+)\\)");
  private static final Pattern VALUE = Pattern.compile("\\bvalue\\b");

  /** The output columns (0-based) of each query's ORDER BY, in order. */
  private static final Map<Integer, List<Integer>> ORDER_BY = Map.ofEntries(
      Map.entry(1, List.of(0, 1)), Map.entry(2, List.of(0, 2, 1, 3)), Map.entry(3, List.of(1, 2)),
      Map.entry(4, List.of(0)), Map.entry(5, List.of(1)), Map.entry(6, List.of()), Map.entry(7, List.of(0, 1, 2)),
      Map.entry(8, List.of(0)), Map.entry(9, List.of(0, 1)), Map.entry(10, List.of(2)), Map.entry(11, List.of(1)),
      Map.entry(12, List.of(0)), Map.entry(13, List.of(1, 0)), Map.entry(14, List.of()), Map.entry(15, List.of(0)),
      Map.entry(16, List.of(3, 0, 1, 2)), Map.entry(17, List.of()), Map.entry(18, List.of(4, 3)),
      Map.entry(19, List.of()), Map.entry(20, List.of(0)), Map.entry(21, List.of(1, 0)), Map.entry(22, List.of(0)));


  private TpchQueries() {}

  /** Query {@code number} (1 to 22). */
  public static String sql(int number) {
    String text;
    try (InputStream in = TpchTable.class.getResourceAsStream("/io/trino/tpch/queries/q" + number + ".sql")) {
      if (in == null) {
        throw new IllegalArgumentException("the tpch jar has no query " + number);
      }
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
    text = text.strip();
    return text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
  }

  public static List<Integer> orderBy(int number) {
    return ORDER_BY.get(number);
  }
}
