package dev.lake.flight;

import dev.lake.metasrv.IngestRequest;
import dev.lake.metasrv.WriteCoordinator;
import dev.lake.metasrv.WriteResult;
import dev.lake.query.Catalog;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Bulk ingest ({@code CommandStatementIngest} over DoPut): translates the command's table definition options
 * into an {@link IngestRequest}, streams the client's batches to the write coordinator, and hands the
 * acknowledged registration to this node's catalog (read-your-writes).
 */
final class IngestHandler {
  static final String IDEMPOTENCY_KEY = "lake.idempotency_key";
  private final WriteCoordinator writes;
  private final Catalog catalog;
  private final BufferAllocator allocator;
  private final long memoryLimit;

  IngestHandler(WriteCoordinator writes, Catalog catalog, BufferAllocator allocator, long memoryLimit) {
    this.writes = writes;
    this.catalog = catalog;
    this.allocator = allocator;
    this.memoryLimit = memoryLimit;
  }

  long ingest(CommandStatementIngest command, FlightStream stream) {
    IngestRequest request = request(command);
    // The batches move into this allocator as Lance pulls them: its limit bounds what one ingest holds at once.
    try (BufferAllocator ingestAllocator = allocator.newChildAllocator("ingest-" + request.table(), 0,
        memoryLimit)) {
      WriteResult result = writes.ingest(request, new FlightStreamReader(stream, ingestAllocator));
      catalog.accept(result.registration());
      return result.rowCount();
    }
  }

  static IngestRequest request(CommandStatementIngest command) {
    if (command.hasTransactionId()) {
      throw new UnsupportedOperationException("lake has no transactions; ingest without a transaction id");
    }
    if (command.getTemporary()) {
      throw new IllegalArgumentException("lake has no temporary tables");
    }
    if (command.hasCatalog() && !command.getCatalog().isEmpty() && !command.getCatalog().equalsIgnoreCase("lake")) {
      throw new IllegalArgumentException("unknown catalog '" + command.getCatalog() + "': lake has one, 'lake'");
    }
    if (command.hasSchema() && !command.getSchema().isEmpty() && !command.getSchema().equalsIgnoreCase("main")) {
      throw new IllegalArgumentException("unknown schema '" + command.getSchema() + "': lake has one, 'main'");
    }
    for (String key : command.getOptionsMap().keySet()) {
      if (key.startsWith("lake.") && !key.equals(IDEMPOTENCY_KEY)) {
        throw new IllegalArgumentException("unknown ingest option '" + key + "' (known: " + IDEMPOTENCY_KEY + ")");
      }
    }
    TableDefinitionOptions options = command.getTableDefinitionOptions();
    IngestRequest.IfMissing ifMissing = switch (options.getIfNotExist()) {
      case TABLE_NOT_EXIST_OPTION_FAIL -> IngestRequest.IfMissing.FAIL;
      default -> IngestRequest.IfMissing.CREATE;
    };
    IngestRequest.IfExists ifExists = switch (options.getIfExists()) {
      case TABLE_EXISTS_OPTION_APPEND -> IngestRequest.IfExists.APPEND;
      case TABLE_EXISTS_OPTION_REPLACE -> IngestRequest.IfExists.REPLACE;
      default -> IngestRequest.IfExists.FAIL;
    };
    Map<String, String> opts = command.getOptionsMap();
    return new IngestRequest(command.getTable(), ifMissing, ifExists, Optional.ofNullable(opts.get(IDEMPOTENCY_KEY)));
  }
}
