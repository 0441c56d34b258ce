package dev.lake.flight.metadata;

import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_BIGINT;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_BINARY;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_BIT;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_CHAR;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_DATE;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_DECIMAL;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_FLOAT;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_INTEGER;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_LONGVARBINARY;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_LONGVARCHAR;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_NUMERIC;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_REAL;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_SMALLINT;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_TIME;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_TIMESTAMP;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_TINYINT;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_VARBINARY;
import static org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert.SQL_CONVERT_VARCHAR;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert;

/**
 * The parts of lake's SQL surface that GetSqlInfo lists, as Calcite 1.41.0 (lake's parser and
 * validator) defines them: its JDBC keywords (those that are not SQL:2003 keywords), the JDBC escape
 * functions ({@code {fn ...}}) its parser accepts, and which explicit CASTs its validator allows.
 *
 * <p>These are data, kept here so that the flight layer does not call Calcite; a test compares them
 * with Calcite itself, so an upgrade that changes them fails loudly instead of lying to clients.
 */
final class CalciteSqlSurface {

  /** {@code SqlParser.Metadata.getJdbcKeywords()}: keywords that are not SQL:2003 keywords. */
  static final List<String> KEYWORDS =
      List.of(
          "ABS", "ALLOW", "ARRAY", "ARRAY_MAX_CARDINALITY", "ASENSITIVE", "ASOF", "ASYMMETRIC",
          "ATOMIC", "BEGIN_FRAME", "BEGIN_PARTITION", "BIGINT", "BINARY", "BLOB", "BOOLEAN",
          "CALLED", "CARDINALITY", "CEIL", "CEILING", "CLASSIFIER", "CLOB", "COLLECT", "CORR",
          "COVAR_POP", "COVAR_SAMP", "CUBE", "CUME_DIST", "CURRENT_CATALOG",
          "CURRENT_DEFAULT_TRANSFORM_GROUP", "CURRENT_ROLE", "CURRENT_ROW", "CURRENT_SCHEMA",
          "CURRENT_TRANSFORM_GROUP_FOR_TYPE", "CYCLE", "DATETIME", "DEFINE", "DENSE_RANK", "DEREF",
          "DISALLOW", "DYNAMIC", "EACH", "ELEMENT", "EMPTY", "END-EXEC", "END_FRAME",
          "END_PARTITION", "EQUALS", "EVERY", "EXP", "EXPLAIN", "EXTEND", "FILTER", "FIRST_VALUE",
          "FLOOR", "FRAME_ROW", "FREE", "FRIDAY", "FUSION", "GROUPING", "GROUPS", "HOLD", "IMPORT",
          "INITIAL", "INTERSECTION", "JSON_ARRAY", "JSON_ARRAYAGG", "JSON_EXISTS", "JSON_OBJECT",
          "JSON_OBJECTAGG", "JSON_QUERY", "JSON_SCOPE", "JSON_VALUE", "LAG", "LARGE", "LAST_VALUE",
          "LATERAL", "LEAD", "LIKE_REGEX", "LIMIT", "LN", "LOCALTIME", "LOCALTIMESTAMP", "MATCHES",
          "MATCH_CONDITION", "MATCH_NUMBER", "MATCH_RECOGNIZE", "MEASURE", "MEASURES", "MEMBER",
          "MERGE", "METHOD", "MINUS", "MOD", "MODIFIES", "MONDAY", "MULTISET", "NCLOB", "NEW",
          "NONE", "NORMALIZE", "NTH_VALUE", "NTILE", "OCCURRENCES_REGEX", "OFFSET", "OLD", "OMIT",
          "ONE", "ORDINAL", "OVER", "OVERLAY", "PARTITION", "PATTERN", "PER", "PERCENT",
          "PERCENTILE_CONT", "PERCENTILE_DISC", "PERCENT_RANK", "PERIOD", "PERMUTE", "PORTION",
          "POSITION_REGEX", "POWER", "PRECEDES", "PREV", "QUALIFY", "RANGE", "RANK", "READS",
          "RECURSIVE", "REF", "REFERENCING", "REGR_AVGX", "REGR_AVGY", "REGR_COUNT",
          "REGR_INTERCEPT", "REGR_R2", "REGR_SLOPE", "REGR_SXX", "REGR_SXY", "REGR_SYY", "RELEASE",
          "RESET", "RESULT", "ROLLUP", "ROW", "ROW_NUMBER", "RUNNING", "SAFE_CAST", "SAFE_OFFSET",
          "SAFE_ORDINAL", "SATURDAY", "SAVEPOINT", "SCOPE", "SEARCH", "SEEK", "SENSITIVE", "SHOW",
          "SIMILAR", "SKIP", "SPECIFICTYPE", "SQRT", "START", "STATIC", "STDDEV_POP", "STDDEV_SAMP",
          "STREAM", "SUBMULTISET", "SUBSET", "SUBSTRING_REGEX", "SUCCEEDS", "SUNDAY", "SYMMETRIC",
          "SYSTEM", "SYSTEM_TIME", "TABLESAMPLE", "THURSDAY", "TINYINT", "TRANSLATE_REGEX", "TREAT",
          "TRIGGER", "TRIM_ARRAY", "TRUNCATE", "TRY_CAST", "TUESDAY", "UESCAPE", "UNNEST",
          "UNSIGNED", "UPSERT", "UUID", "VALUE_OF", "VARBINARY", "VARIANT", "VAR_POP", "VAR_SAMP",
          "VERSIONING", "WEDNESDAY", "WIDTH_BUCKET", "WINDOW", "WITHIN", "WITHOUT");

  /** {@code SqlJdbcFunctionCall.getNumericFunctions()}. */
  static final List<String> NUMERIC_FUNCTIONS =
      List.of(
          "ABS", "ACOS", "ASIN", "ATAN", "ATAN2", "CBRT", "CEILING", "COS", "COT", "DEGREES", "EXP",
          "FLOOR", "LOG", "LOG10", "MOD", "PI", "POWER", "RADIANS", "RAND", "ROUND", "SIGN", "SIN",
          "SQRT", "TAN", "TRUNCATE");

  /** {@code SqlJdbcFunctionCall.getStringFunctions()}. */
  static final List<String> STRING_FUNCTIONS =
      List.of(
          "ASCII", "CHAR", "CONCAT", "DIFFERENCE", "INSERT", "LCASE", "LEFT", "LENGTH", "LOCATE",
          "LTRIM", "REPEAT", "REPLACE", "RIGHT", "RTRIM", "SOUNDEX", "SPACE", "SUBSTRING", "UCASE");

  /** {@code SqlJdbcFunctionCall.getSystemFunctions()}. */
  static final List<String> SYSTEM_FUNCTIONS = List.of("CONVERT", "DATABASE", "IFNULL", "USER");

  /** {@code SqlJdbcFunctionCall.getTimeDateFunctions()}. */
  static final List<String> DATETIME_FUNCTIONS =
      List.of(
          "CONVERT_TIMEZONE", "CURDATE", "CURTIME", "DAYNAME", "DAYOFMONTH", "DAYOFWEEK",
          "DAYOFYEAR", "HOUR", "MINUTE", "MONTH", "MONTHNAME", "NOW", "QUARTER", "SECOND",
          "TIMESTAMPADD", "TIMESTAMPDIFF", "TO_DATE", "TO_TIMESTAMP", "WEEK", "YEAR");

  private static final Set<SqlSupportsConvert> NUMBERS =
      EnumSet.of(
          SQL_CONVERT_BIGINT,
          SQL_CONVERT_DECIMAL,
          SQL_CONVERT_FLOAT,
          SQL_CONVERT_INTEGER,
          SQL_CONVERT_NUMERIC,
          SQL_CONVERT_REAL,
          SQL_CONVERT_SMALLINT,
          SQL_CONVERT_TINYINT);
  private static final Set<SqlSupportsConvert> CHARACTERS =
      EnumSet.of(SQL_CONVERT_CHAR, SQL_CONVERT_VARCHAR, SQL_CONVERT_LONGVARCHAR);
  private static final Set<SqlSupportsConvert> BINARIES =
      EnumSet.of(SQL_CONVERT_BINARY, SQL_CONVERT_VARBINARY, SQL_CONVERT_LONGVARBINARY);
  private static final Set<SqlSupportsConvert> DATETIMES =
      EnumSet.of(SQL_CONVERT_DATE, SQL_CONVERT_TIME, SQL_CONVERT_TIMESTAMP);

  private CalciteSqlSurface() {}

  /**
   * The explicit CASTs Calcite's validator accepts (its type-coercion cast rule), keyed by the
   * source type; interval conversions are not listed.
   */
  static Map<SqlSupportsConvert, Set<SqlSupportsConvert>> conversions() {
    Map<SqlSupportsConvert, Set<SqlSupportsConvert>> map = new TreeMap<>();
    for (SqlSupportsConvert number : NUMBERS) {
      map.put(number, union(NUMBERS, CHARACTERS, EnumSet.of(SQL_CONVERT_BIT, SQL_CONVERT_TIMESTAMP)));
    }
    map.put(SQL_CONVERT_BIT, union(CHARACTERS, EnumSet.of(SQL_CONVERT_BIT)));
    for (SqlSupportsConvert character : CHARACTERS) {
      map.put(
          character,
          union(NUMBERS, CHARACTERS, BINARIES, DATETIMES, EnumSet.of(SQL_CONVERT_BIT)));
    }
    for (SqlSupportsConvert binary : BINARIES) {
      map.put(binary, union(BINARIES, CHARACTERS, DATETIMES));
    }
    map.put(SQL_CONVERT_DATE, union(CHARACTERS, EnumSet.of(SQL_CONVERT_DATE, SQL_CONVERT_TIMESTAMP)));
    map.put(SQL_CONVERT_TIME, union(CHARACTERS, EnumSet.of(SQL_CONVERT_TIME, SQL_CONVERT_TIMESTAMP)));
    map.put(SQL_CONVERT_TIMESTAMP, union(NUMBERS, CHARACTERS, DATETIMES));
    return Collections.unmodifiableMap(map);
  }

  @SafeVarargs
  private static Set<SqlSupportsConvert> union(Set<SqlSupportsConvert>... sets) {
    Set<SqlSupportsConvert> all = EnumSet.noneOf(SqlSupportsConvert.class);
    for (Set<SqlSupportsConvert> set : sets) {
      all.addAll(set);
    }
    return Collections.unmodifiableSet(all);
  }
}
