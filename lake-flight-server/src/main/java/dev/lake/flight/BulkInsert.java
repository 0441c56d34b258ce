package dev.lake.flight;

import dev.lake.query.sql.BulkAppend;
import java.util.Optional;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;

/**
 * A bulk append spelled as SQL ({@link BulkAppend}, recognized by the SQL layer's parser): a prepared
 * {@code INSERT INTO <table> VALUES (?, ..., ?)} whose parameter batches are the rows, as the ADBC Java Flight SQL
 * driver ingests. It runs exactly as a bulk ingest with "append, fail if missing" ({@link IngestHandler}: streamed,
 * forwarded to the leader on a follower, columns matched by name).
 *
 * @param table the target table, normalized
 */
record BulkInsert(String table) {
  /** The bulk append {@code sql} spells, if it is exactly that shape. */
  static Optional<BulkInsert> parse(String sql) {
    return BulkAppend.target(sql).map(BulkInsert::new);
  }

  /** The equivalent ingest command: append to the table, which must exist. */
  CommandStatementIngest command() {
    return CommandStatementIngest.newBuilder().setTable(table)
        .setTableDefinitionOptions(TableDefinitionOptions.newBuilder()
            .setIfNotExist(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL)
            .setIfExists(TableExistsOption.TABLE_EXISTS_OPTION_APPEND))
        .build();
  }
}
