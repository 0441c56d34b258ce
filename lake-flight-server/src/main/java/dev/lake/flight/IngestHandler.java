package dev.lake.flight;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import dev.lake.flight.auth.Identity;
import dev.lake.flight.cluster.ForwardedWrite;
import dev.lake.flight.cluster.Forwarding;
import dev.lake.flight.cluster.InternalEndpoint;
import dev.lake.flight.limits.IdleStreams;
import dev.lake.flight.metrics.QueryEvents;
import dev.lake.metasrv.IngestRequest;
import dev.lake.metasrv.WriteCoordinator;
import dev.lake.metasrv.WriteResult;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Bulk ingest ({@code CommandStatementIngest} over DoPut): translates the command's table definition options
 * into an {@link IngestRequest} and streams the client's batches to the write coordinator. On a follower the stream
 * is forwarded to the leader as it arrives ({@link Forwarding}). The leader's internal endpoint runs forwarded
 * ingests through {@link #ingestHere}. Read-your-writes needs nothing here: the write coordinator (and on a
 * follower the forwarding client) tells the node's catalog.
 */
final class IngestHandler implements InternalEndpoint.LocalIngest {
  static final String IDEMPOTENCY_KEY = "lake.idempotency_key";
  private final WriteCoordinator writes;
  private final BufferAllocator allocator;
  private final long memoryLimit;
  private final Forwarding forwarding;
  private final QueryEvents events;
  private final IdleStreams idle;

  IngestHandler(WriteCoordinator writes, BufferAllocator allocator, long memoryLimit,
      Forwarding forwarding, QueryEvents events, IdleStreams idle) {
    this.events = events;
    this.idle = idle;
    this.writes = writes;
    this.allocator = allocator;
    this.memoryLimit = memoryLimit;
    this.forwarding = forwarding;
  }

  /** Runs the ingest here, or forwards it to the leader; returns the acknowledged row count. */
  long ingest(Identity caller, CommandStatementIngest command, FlightStream stream) {
    request(command); // a malformed command is refused here, before anything is forwarded
    Optional<Forwarding.Target> leader = forwarding.target();
    if (leader.isPresent()) {
      ForwardedWrite result = forwarding.ingest(leader.get(), caller, command, stream, idle);
      return result.rows();
    }
    return ingestHere(caller, command, stream).rowCount();
  }

  @Override
  public WriteResult ingestHere(Identity caller, CommandStatementIngest command, FlightStream stream) {
    IngestRequest request = request(command);
    // The batches move into this allocator as Lance pulls them: its limit bounds what one ingest holds at once.
    try (BufferAllocator ingestAllocator = allocator.newChildAllocator("ingest-" + request.table(), 0,
        memoryLimit)) {
      FlightStreamReader reader = new FlightStreamReader(stream, ingestAllocator, idle);
      WriteResult result = writes.ingest(request, reader);
      if (!result.replayed()) { // a replayed idempotent retry wrote nothing
        events.ingested(result.rowCount(), reader.bytesRead());
      }
      return result;
    }
  }

  static IngestRequest request(CommandStatementIngest command) {
    if (command.hasTransactionId()) {
      throw new LakeException(ErrorCode.UNIMPLEMENTED, "lake has no transactions; ingest without a transaction id");
    }
    if (command.getTemporary()) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "lake has no temporary tables");
    }
    if (command.hasCatalog() && !command.getCatalog().isEmpty() && !command.getCatalog().equalsIgnoreCase("lake")) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT,
          "unknown catalog '" + command.getCatalog() + "': lake has one, 'lake'");
    }
    if (command.hasSchema() && !command.getSchema().isEmpty() && !command.getSchema().equalsIgnoreCase("main")) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT,
          "unknown schema '" + command.getSchema() + "': lake has one, 'main'");
    }
    for (String key : command.getOptionsMap().keySet()) {
      if (key.startsWith("lake.") && !key.equals(IDEMPOTENCY_KEY)) {
        throw new LakeException(ErrorCode.INVALID_ARGUMENT,
            "unknown ingest option '" + key + "' (known: " + IDEMPOTENCY_KEY + ")");
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
