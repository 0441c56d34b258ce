package dev.lake.flight.metadata;

import com.google.protobuf.ProtocolMessageEnum;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlNullOrdering;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlOuterJoinsSupportLevel;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedGroupBy;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedResultSetConcurrency;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedResultSetType;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedSubqueries;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedUnions;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlTransactionIsolationLevel;
import org.apache.arrow.flight.sql.impl.FlightSql.SupportedAnsi92SqlGrammarLevel;
import org.apache.arrow.flight.sql.impl.FlightSql.SupportedSqlGrammar;
import org.apache.arrow.flight.sql.util.SqlInfoOptionsUtils;

/**
 * lake's answer to every {@link SqlInfo} key: one catalog, one schema, a read-only Calcite SQL
 * surface, bulk ingest but no transactions, case-insensitive identifiers quoted with {@code "}.
 *
 * <p>Each key is encoded as Arrow Java's {@code SqlInfoBuilder} encodes it, because the Flight SQL
 * JDBC driver reads it that way: the case sensitivities, the null ordering and the default isolation
 * level are int64, the outer-join level is a bitmask. {@code SqlInfoBuilder} itself is not used: it
 * has no setter for the four {@code SQL_SUPPORTED_CONCURRENCIES_FOR_RESULT_SET_*} keys.
 */
final class LakeSqlInfo {

  /** Longest table name lake accepts ({@code [A-Za-z_][A-Za-z0-9_]{0,127}}). */
  static final long MAX_TABLE_NAME_LENGTH = 128;

  private static final String FALLBACK_ARROW_VERSION = "18.3.0";

  private LakeSqlInfo() {}

  /**
   * Every key's answer.
   *
   * @param productVersion lake's version, reported as the server version
   * @return an unmodifiable map with an entry for every {@link SqlInfo} except UNRECOGNIZED
   */
  static Map<SqlInfo, SqlInfoValue> answers(String productVersion) {
    Objects.requireNonNull(productVersion, "productVersion");
    Map<SqlInfo, SqlInfoValue> a = new EnumMap<>(SqlInfo.class);
    server(a, productVersion);
    identifiers(a);
    grammar(a);
    limits(a);
    transactions(a);
    return Collections.unmodifiableMap(a);
  }

  /** The Arrow version lake runs with, from the flight-sql jar's manifest. */
  static String arrowVersion() {
    String version = FlightSqlProducer.class.getPackage().getImplementationVersion();
    return version == null ? FALLBACK_ARROW_VERSION : version;
  }

  private static void server(Map<SqlInfo, SqlInfoValue> a, String productVersion) {
    a.put(SqlInfo.FLIGHT_SQL_SERVER_NAME, utf8("lake"));
    a.put(SqlInfo.FLIGHT_SQL_SERVER_VERSION, utf8(productVersion));
    a.put(SqlInfo.FLIGHT_SQL_SERVER_ARROW_VERSION, utf8(arrowVersion()));
    // Not read-only: bulk ingest creates, appends to and replaces tables (the SQL surface itself is read-only;
    // docs/api.md, "Tier 1: interactive queries").
    a.put(SqlInfo.FLIGHT_SQL_SERVER_READ_ONLY, bool(false));
    a.put(SqlInfo.FLIGHT_SQL_SERVER_SQL, bool(true));
    a.put(SqlInfo.FLIGHT_SQL_SERVER_SUBSTRAIT, bool(false));
    // The spec says "null if Substrait is not supported"; the union's string member is not
    // nullable, so the empty string stands for "no version".
    a.put(SqlInfo.FLIGHT_SQL_SERVER_SUBSTRAIT_MIN_VERSION, utf8(""));
    a.put(SqlInfo.FLIGHT_SQL_SERVER_SUBSTRAIT_MAX_VERSION, utf8(""));
    a.put(
        SqlInfo.FLIGHT_SQL_SERVER_TRANSACTION,
        int32(SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE_VALUE));
    // CancelFlightInfo and the older CancelQuery action (routed to it) stop running queries.
    a.put(SqlInfo.FLIGHT_SQL_SERVER_CANCEL, bool(true));
    a.put(SqlInfo.FLIGHT_SQL_SERVER_BULK_INGESTION, bool(true));
    a.put(SqlInfo.FLIGHT_SQL_SERVER_INGEST_TRANSACTIONS_SUPPORTED, bool(false));
    a.put(SqlInfo.FLIGHT_SQL_SERVER_STATEMENT_TIMEOUT, int32(0));
    a.put(SqlInfo.FLIGHT_SQL_SERVER_TRANSACTION_TIMEOUT, int32(0));
    a.put(SqlInfo.SQL_DDL_CATALOG, bool(false));
    a.put(SqlInfo.SQL_DDL_SCHEMA, bool(false));
    a.put(SqlInfo.SQL_DDL_TABLE, bool(false));
    a.put(SqlInfo.SQL_ALL_TABLES_ARE_SELECTABLE, bool(true));
    a.put(SqlInfo.SQL_SCHEMA_TERM, utf8("schema"));
    a.put(SqlInfo.SQL_PROCEDURE_TERM, utf8("procedure"));
    a.put(SqlInfo.SQL_CATALOG_TERM, utf8("catalog"));
    a.put(SqlInfo.SQL_CATALOG_AT_START, bool(true));
    a.put(SqlInfo.SQL_SCHEMAS_SUPPORTED_ACTIONS, bitmask());
    a.put(SqlInfo.SQL_CATALOGS_SUPPORTED_ACTIONS, bitmask());
    a.put(SqlInfo.SQL_SUPPORTED_POSITIONED_COMMANDS, bitmask());
    a.put(SqlInfo.SQL_SELECT_FOR_UPDATE_SUPPORTED, bool(false));
    a.put(SqlInfo.SQL_STORED_PROCEDURES_SUPPORTED, bool(false));
    a.put(SqlInfo.SQL_BATCH_UPDATES_SUPPORTED, bool(false));
    a.put(SqlInfo.SQL_NAMED_PARAMETERS_SUPPORTED, bool(false));
    a.put(SqlInfo.SQL_LOCATORS_UPDATE_COPY, bool(false));
    a.put(SqlInfo.SQL_STORED_FUNCTIONS_USING_CALL_SYNTAX_SUPPORTED, bool(false));
    a.put(
        SqlInfo.SQL_SUPPORTED_RESULT_SET_TYPES,
        bitmask(SqlSupportedResultSetType.SQL_RESULT_SET_TYPE_FORWARD_ONLY));
    SqlInfoValue readOnly =
        bitmask(SqlSupportedResultSetConcurrency.SQL_RESULT_SET_CONCURRENCY_READ_ONLY);
    a.put(SqlInfo.SQL_SUPPORTED_CONCURRENCIES_FOR_RESULT_SET_UNSPECIFIED, readOnly);
    a.put(SqlInfo.SQL_SUPPORTED_CONCURRENCIES_FOR_RESULT_SET_FORWARD_ONLY, readOnly);
    a.put(SqlInfo.SQL_SUPPORTED_CONCURRENCIES_FOR_RESULT_SET_SCROLL_SENSITIVE, bitmask());
    a.put(SqlInfo.SQL_SUPPORTED_CONCURRENCIES_FOR_RESULT_SET_SCROLL_INSENSITIVE, bitmask());
  }

  private static void identifiers(Map<SqlInfo, SqlInfoValue> a) {
    long caseInsensitive = SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE_VALUE;
    a.put(SqlInfo.SQL_IDENTIFIER_CASE, bigint(caseInsensitive));
    a.put(SqlInfo.SQL_QUOTED_IDENTIFIER_CASE, bigint(caseInsensitive));
    a.put(SqlInfo.SQL_IDENTIFIER_QUOTE_CHAR, utf8("\""));
    a.put(SqlInfo.SQL_SEARCH_STRING_ESCAPE, utf8("\\"));
    // Calcite's unquoted identifiers may also contain '$' (besides letters, digits and '_').
    a.put(SqlInfo.SQL_EXTRA_NAME_CHARACTERS, utf8("$"));
    a.put(SqlInfo.SQL_KEYWORDS, strings(CalciteSqlSurface.KEYWORDS));
    a.put(SqlInfo.SQL_NUMERIC_FUNCTIONS, strings(CalciteSqlSurface.NUMERIC_FUNCTIONS));
    a.put(SqlInfo.SQL_STRING_FUNCTIONS, strings(CalciteSqlSurface.STRING_FUNCTIONS));
    a.put(SqlInfo.SQL_SYSTEM_FUNCTIONS, strings(CalciteSqlSurface.SYSTEM_FUNCTIONS));
    a.put(SqlInfo.SQL_DATETIME_FUNCTIONS, strings(CalciteSqlSurface.DATETIME_FUNCTIONS));
  }

  private static void grammar(Map<SqlInfo, SqlInfoValue> a) {
    a.put(SqlInfo.SQL_NULL_ORDERING, bigint(SqlNullOrdering.SQL_NULLS_SORTED_HIGH_VALUE));
    a.put(SqlInfo.SQL_SUPPORTS_COLUMN_ALIASING, bool(true));
    a.put(SqlInfo.SQL_NULL_PLUS_NULL_IS_NULL, bool(true));
    a.put(SqlInfo.SQL_SUPPORTS_CONVERT, conversions());
    a.put(SqlInfo.SQL_SUPPORTS_TABLE_CORRELATION_NAMES, bool(true));
    a.put(SqlInfo.SQL_SUPPORTS_DIFFERENT_TABLE_CORRELATION_NAMES, bool(false));
    a.put(SqlInfo.SQL_SUPPORTS_EXPRESSIONS_IN_ORDER_BY, bool(true));
    a.put(SqlInfo.SQL_SUPPORTS_ORDER_BY_UNRELATED, bool(true));
    a.put(
        SqlInfo.SQL_SUPPORTED_GROUP_BY,
        bitmask(
            SqlSupportedGroupBy.SQL_GROUP_BY_UNRELATED,
            SqlSupportedGroupBy.SQL_GROUP_BY_BEYOND_SELECT));
    a.put(SqlInfo.SQL_SUPPORTS_LIKE_ESCAPE_CLAUSE, bool(true));
    a.put(SqlInfo.SQL_SUPPORTS_NON_NULLABLE_COLUMNS, bool(true));
    a.put(SqlInfo.SQL_SUPPORTED_GRAMMAR, bitmask(SupportedSqlGrammar.SQL_MINIMUM_GRAMMAR));
    a.put(
        SqlInfo.SQL_ANSI92_SUPPORTED_LEVEL,
        bitmask(SupportedAnsi92SqlGrammarLevel.ANSI92_ENTRY_SQL));
    a.put(SqlInfo.SQL_SUPPORTS_INTEGRITY_ENHANCEMENT_FACILITY, bool(false));
    // JDBC: full outer joins imply limited ones, and the driver tests each bit.
    a.put(
        SqlInfo.SQL_OUTER_JOINS_SUPPORT_LEVEL,
        bitmask(
            SqlOuterJoinsSupportLevel.SQL_LIMITED_OUTER_JOINS,
            SqlOuterJoinsSupportLevel.SQL_FULL_OUTER_JOINS));
    a.put(
        SqlInfo.SQL_SUPPORTED_SUBQUERIES,
        bitmask(
            SqlSupportedSubqueries.SQL_SUBQUERIES_IN_COMPARISONS,
            SqlSupportedSubqueries.SQL_SUBQUERIES_IN_EXISTS,
            SqlSupportedSubqueries.SQL_SUBQUERIES_IN_INS,
            SqlSupportedSubqueries.SQL_SUBQUERIES_IN_QUANTIFIEDS));
    a.put(SqlInfo.SQL_CORRELATED_SUBQUERIES_SUPPORTED, bool(true));
    a.put(
        SqlInfo.SQL_SUPPORTED_UNIONS,
        bitmask(SqlSupportedUnions.SQL_UNION, SqlSupportedUnions.SQL_UNION_ALL));
  }

  /** 0 means "no limit or not known"; lake's only fixed limit is the table name's length. */
  private static void limits(Map<SqlInfo, SqlInfoValue> a) {
    for (SqlInfo key :
        List.of(
            SqlInfo.SQL_MAX_BINARY_LITERAL_LENGTH,
            SqlInfo.SQL_MAX_CHAR_LITERAL_LENGTH,
            SqlInfo.SQL_MAX_COLUMN_NAME_LENGTH,
            SqlInfo.SQL_MAX_COLUMNS_IN_GROUP_BY,
            SqlInfo.SQL_MAX_COLUMNS_IN_INDEX,
            SqlInfo.SQL_MAX_COLUMNS_IN_ORDER_BY,
            SqlInfo.SQL_MAX_COLUMNS_IN_SELECT,
            SqlInfo.SQL_MAX_COLUMNS_IN_TABLE,
            SqlInfo.SQL_MAX_CONNECTIONS,
            SqlInfo.SQL_MAX_CURSOR_NAME_LENGTH,
            SqlInfo.SQL_MAX_INDEX_LENGTH,
            SqlInfo.SQL_DB_SCHEMA_NAME_LENGTH,
            SqlInfo.SQL_MAX_PROCEDURE_NAME_LENGTH,
            SqlInfo.SQL_MAX_CATALOG_NAME_LENGTH,
            SqlInfo.SQL_MAX_ROW_SIZE,
            SqlInfo.SQL_MAX_STATEMENT_LENGTH,
            SqlInfo.SQL_MAX_STATEMENTS,
            SqlInfo.SQL_MAX_TABLES_IN_SELECT,
            SqlInfo.SQL_MAX_USERNAME_LENGTH)) {
      a.put(key, bigint(0));
    }
    a.put(SqlInfo.SQL_MAX_TABLE_NAME_LENGTH, bigint(MAX_TABLE_NAME_LENGTH));
    a.put(SqlInfo.SQL_MAX_ROW_SIZE_INCLUDES_BLOBS, bool(false));
  }

  private static void transactions(Map<SqlInfo, SqlInfoValue> a) {
    a.put(SqlInfo.SQL_TRANSACTIONS_SUPPORTED, bool(false));
    a.put(
        SqlInfo.SQL_DEFAULT_TRANSACTION_ISOLATION,
        bigint(SqlTransactionIsolationLevel.SQL_TRANSACTION_NONE_VALUE));
    a.put(
        SqlInfo.SQL_SUPPORTED_TRANSACTIONS_ISOLATION_LEVELS,
        bitmask(SqlTransactionIsolationLevel.SQL_TRANSACTION_NONE));
    a.put(SqlInfo.SQL_DATA_DEFINITION_CAUSES_TRANSACTION_COMMIT, bool(false));
    a.put(SqlInfo.SQL_DATA_DEFINITIONS_IN_TRANSACTIONS_IGNORED, bool(false));
    a.put(SqlInfo.SQL_SAVEPOINTS_SUPPORTED, bool(false));
  }

  private static SqlInfoValue conversions() {
    Map<Integer, List<Integer>> map = new TreeMap<>();
    CalciteSqlSurface.conversions()
        .forEach(
            (from, targets) ->
                map.put(
                    from.getNumber(),
                    targets.stream().map(ProtocolMessageEnum::getNumber).sorted().toList()));
    return new SqlInfoValue.IntListMap(map);
  }

  private static SqlInfoValue utf8(String value) {
    return new SqlInfoValue.Utf8(value);
  }

  private static SqlInfoValue bool(boolean value) {
    return new SqlInfoValue.Bool(value);
  }

  private static SqlInfoValue bigint(long value) {
    return new SqlInfoValue.BigInt(value);
  }

  private static SqlInfoValue int32(int value) {
    return new SqlInfoValue.Int32(value);
  }

  private static SqlInfoValue strings(List<String> values) {
    return new SqlInfoValue.StringList(values);
  }

  private static SqlInfoValue bitmask(ProtocolMessageEnum... values) {
    return int32((int) SqlInfoOptionsUtils.createBitmaskFromEnums(values));
  }
}
