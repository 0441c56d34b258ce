package dev.lake.flight.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetSqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlNullOrdering;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlOuterJoinsSupportLevel;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportsConvert;
import org.apache.arrow.flight.sql.util.SqlInfoOptionsUtils;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SqlInfoTest {
  private final BufferAllocator allocator = new RootAllocator();
  private final FlightSqlMetadata metadata = new FlightSqlMetadata(List::of, "1.2.3-test");

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  private static List<SqlInfo> allKeys() {
    return Arrays.stream(SqlInfo.values()).filter(k -> k != SqlInfo.UNRECOGNIZED).toList();
  }

  private Map<Integer, SqlInfoValue> stream(CommandGetSqlInfo command) {
    try (CollectingListener listener = new CollectingListener(allocator)) {
      metadata.stream(command, allocator, listener);
      assertThat(listener.isCompleted()).isTrue();
      assertThat(listener.schema()).isEqualTo(Schemas.GET_SQL_INFO_SCHEMA);
      return SqlInfoDecoder.decodeAll(listener.batches());
    }
  }

  private Map<Integer, SqlInfoValue> all() {
    return stream(CommandGetSqlInfo.getDefaultInstance());
  }

  @Test
  void everySqlInfoKeyHasAnAnswer() {
    Map<SqlInfo, SqlInfoValue> answers = LakeSqlInfo.answers("1.2.3-test");
    assertThat(allKeys()).allSatisfy(key -> assertThat(answers).containsKey(key));
  }

  @Test
  void requestingNothingStreamsEveryKeyWithTheAnswerItWasGiven() {
    Map<Integer, SqlInfoValue> streamed = all();
    Map<SqlInfo, SqlInfoValue> answers = LakeSqlInfo.answers("1.2.3-test");
    assertThat(streamed.keySet())
        .containsExactlyElementsOf(allKeys().stream().map(SqlInfo::getNumber).sorted().toList());
    for (SqlInfo key : allKeys()) {
      assertThat(streamed.get(key.getNumber())).as(key.name()).isEqualTo(answers.get(key));
    }
  }

  @Test
  void requestedKeysComeBackInTheOrderAskedAndUnknownOnesAreLeftOut() {
    CommandGetSqlInfo command =
        CommandGetSqlInfo.newBuilder()
            .addInfo(SqlInfo.SQL_KEYWORDS_VALUE)
            .addInfo(99_999)
            .addInfo(SqlInfo.FLIGHT_SQL_SERVER_NAME_VALUE)
            .addInfo(SqlInfo.SQL_SUPPORTS_CONVERT_VALUE)
            .build();
    assertThat(stream(command).keySet())
        .containsExactly(
            SqlInfo.SQL_KEYWORDS_VALUE,
            SqlInfo.FLIGHT_SQL_SERVER_NAME_VALUE,
            SqlInfo.SQL_SUPPORTS_CONVERT_VALUE);
  }

  @Test
  void serverIdentityIsLakeWithItsVersionAndArrowVersion() {
    Map<Integer, SqlInfoValue> info = all();
    assertThat(info.get(SqlInfo.FLIGHT_SQL_SERVER_NAME_VALUE)).isEqualTo(new SqlInfoValue.Utf8("lake"));
    assertThat(info.get(SqlInfo.FLIGHT_SQL_SERVER_VERSION_VALUE))
        .isEqualTo(new SqlInfoValue.Utf8("1.2.3-test"));
    assertThat(((SqlInfoValue.Utf8) info.get(SqlInfo.FLIGHT_SQL_SERVER_ARROW_VERSION_VALUE)).value())
        .matches("\\d+\\.\\d+\\.\\d+.*");
  }

  @Test
  void lakeAcceptsBulkIngestAndCancelWithoutTransactionsOrSubstrait() {
    Map<Integer, SqlInfoValue> info = all();
    assertThat(info)
        .containsEntry(SqlInfo.FLIGHT_SQL_SERVER_READ_ONLY_VALUE, new SqlInfoValue.Bool(false))
        .containsEntry(SqlInfo.FLIGHT_SQL_SERVER_SQL_VALUE, new SqlInfoValue.Bool(true))
        .containsEntry(SqlInfo.FLIGHT_SQL_SERVER_SUBSTRAIT_VALUE, new SqlInfoValue.Bool(false))
        .containsEntry(SqlInfo.FLIGHT_SQL_SERVER_CANCEL_VALUE, new SqlInfoValue.Bool(true))
        .containsEntry(SqlInfo.FLIGHT_SQL_SERVER_BULK_INGESTION_VALUE, new SqlInfoValue.Bool(true))
        .containsEntry(
            SqlInfo.FLIGHT_SQL_SERVER_INGEST_TRANSACTIONS_SUPPORTED_VALUE,
            new SqlInfoValue.Bool(false))
        .containsEntry(
            SqlInfo.FLIGHT_SQL_SERVER_TRANSACTION_VALUE,
            new SqlInfoValue.Int32(SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE_VALUE))
        .containsEntry(SqlInfo.FLIGHT_SQL_SERVER_STATEMENT_TIMEOUT_VALUE, new SqlInfoValue.Int32(0))
        .containsEntry(SqlInfo.SQL_TRANSACTIONS_SUPPORTED_VALUE, new SqlInfoValue.Bool(false))
        .containsEntry(SqlInfo.SQL_SAVEPOINTS_SUPPORTED_VALUE, new SqlInfoValue.Bool(false))
        .containsEntry(SqlInfo.SQL_DEFAULT_TRANSACTION_ISOLATION_VALUE, new SqlInfoValue.BigInt(0))
        .containsEntry(SqlInfo.SQL_DDL_CATALOG_VALUE, new SqlInfoValue.Bool(false))
        .containsEntry(SqlInfo.SQL_DDL_SCHEMA_VALUE, new SqlInfoValue.Bool(false))
        .containsEntry(SqlInfo.SQL_DDL_TABLE_VALUE, new SqlInfoValue.Bool(false))
        .containsEntry(SqlInfo.SQL_ALL_TABLES_ARE_SELECTABLE_VALUE, new SqlInfoValue.Bool(true));
  }

  @Test
  void identifiersAreDoubleQuotedAndCaseInsensitiveAndNullsSortHigh() {
    long caseInsensitive = SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE_VALUE;
    assertThat(all())
        .containsEntry(SqlInfo.SQL_IDENTIFIER_QUOTE_CHAR_VALUE, new SqlInfoValue.Utf8("\""))
        .containsEntry(SqlInfo.SQL_IDENTIFIER_CASE_VALUE, new SqlInfoValue.BigInt(caseInsensitive))
        .containsEntry(
            SqlInfo.SQL_QUOTED_IDENTIFIER_CASE_VALUE, new SqlInfoValue.BigInt(caseInsensitive))
        .containsEntry(SqlInfo.SQL_SEARCH_STRING_ESCAPE_VALUE, new SqlInfoValue.Utf8("\\"))
        .containsEntry(
            SqlInfo.SQL_NULL_ORDERING_VALUE,
            new SqlInfoValue.BigInt(SqlNullOrdering.SQL_NULLS_SORTED_HIGH_VALUE))
        .containsEntry(SqlInfo.SQL_CATALOG_TERM_VALUE, new SqlInfoValue.Utf8("catalog"))
        .containsEntry(SqlInfo.SQL_SCHEMA_TERM_VALUE, new SqlInfoValue.Utf8("schema"))
        .containsEntry(SqlInfo.SQL_PROCEDURE_TERM_VALUE, new SqlInfoValue.Utf8("procedure"));
  }

  @Test
  void fullOuterJoinsAreReportedAsABitmaskThatAlsoCoversLimitedOnes() {
    int mask = ((SqlInfoValue.Int32) all().get(SqlInfo.SQL_OUTER_JOINS_SUPPORT_LEVEL_VALUE)).value();
    assertThat(
            SqlInfoOptionsUtils.doesBitmaskTranslateToEnum(
                SqlOuterJoinsSupportLevel.SQL_FULL_OUTER_JOINS, mask))
        .isTrue();
    assertThat(
            SqlInfoOptionsUtils.doesBitmaskTranslateToEnum(
                SqlOuterJoinsSupportLevel.SQL_LIMITED_OUTER_JOINS, mask))
        .isTrue();
  }

  @Test
  void castMapSaysVarcharConvertsToDateButBooleanDoesNot() {
    SqlInfoValue.IntListMap convert =
        (SqlInfoValue.IntListMap) all().get(SqlInfo.SQL_SUPPORTS_CONVERT_VALUE);
    assertThat(convert.values().get(SqlSupportsConvert.SQL_CONVERT_VARCHAR_VALUE))
        .contains(SqlSupportsConvert.SQL_CONVERT_DATE_VALUE);
    assertThat(convert.values().get(SqlSupportsConvert.SQL_CONVERT_BIT_VALUE))
        .doesNotContain(SqlSupportsConvert.SQL_CONVERT_DATE_VALUE);
  }
}
