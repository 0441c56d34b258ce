package dev.lake.flight.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.ByteArrayInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A logged-in Flight SQL connection for the client commands: basic credentials exchanged for a bearer token, then
 * lake's actions, queries, catalog listing and bulk ingest with that token.
 */
public final class LakeClient implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final BufferAllocator allocator;
  private final FlightClient flight;
  private final FlightSqlClient sql;
  private final CallOption auth;

  private LakeClient(BufferAllocator allocator, FlightClient flight, CallOption auth) {
    this.allocator = allocator;
    this.flight = flight;
    this.sql = new FlightSqlClient(flight);
    this.auth = auth;
  }

  public static LakeClient connect(ConnectionOptions.Endpoint endpoint) {
    BufferAllocator allocator = new RootAllocator();
    FlightClient flight = null;
    try {
      FlightClient.Builder builder = FlightClient.builder(allocator, endpoint.tls()
          ? Location.forGrpcTls(endpoint.host(), endpoint.port())
          : Location.forGrpcInsecure(endpoint.host(), endpoint.port()));
      if (endpoint.rootCerts() != null) {
        // build() reads the stream, so it must stay open until then: hand over the file's bytes
        builder.trustedCertificates(new ByteArrayInputStream(Files.readAllBytes(endpoint.rootCerts())));
      }
      flight = builder.build();
      CallOption auth = flight.authenticateBasicToken(endpoint.user(), endpoint.password())
          .orElseThrow(() -> new IllegalStateException("the server at " + endpoint + " returned no bearer token"));
      return new LakeClient(allocator, flight, auth);
    } catch (IOException e) {
      closeQuietly(flight, allocator);
      throw new UsageException("cannot read --tls-root-certs " + endpoint.rootCerts() + ": " + e.getMessage());
    } catch (RuntimeException e) {
      closeQuietly(flight, allocator);
      throw e;
    }
  }

  public BufferAllocator allocator() {
    return allocator;
  }

  /** Runs one of lake's actions with a JSON body; its single JSON result. */
  public JsonNode action(String type, Map<String, String> body) {
    try {
      Iterator<Result> results = flight.doAction(new Action(type, JSON.writeValueAsBytes(body)), auth);
      JsonNode out = null;
      while (results.hasNext()) {
        out = JSON.readTree(results.next().getBody());
      }
      if (out == null) {
        throw new IllegalStateException("the server returned no result for " + type);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("the server's answer to " + type + " is not JSON", e);
    }
  }

  /** Runs a query and hands every batch to {@code consumer}. */
  public void query(String query, Consumer<VectorSchemaRoot> consumer) {
    FlightInfo info = sql.execute(query, auth);
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      readAll(sql.getStream(endpoint.getTicket(), auth), consumer);
    }
  }

  /** Every row of the query's result, as {@code getObject} values. */
  public List<List<Object>> rows(String query) {
    List<List<Object>> rows = new ArrayList<>();
    query(query, root -> {
      for (int r = 0; r < root.getRowCount(); r++) {
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < root.getFieldVectors().size(); c++) {
          row.add(root.getVector(c).getObject(r));
        }
        rows.add(row);
      }
    });
    return rows;
  }

  /** The names of the tables the server lists (Flight SQL GetTables). */
  public List<String> tables() {
    List<String> names = new ArrayList<>();
    FlightInfo info = sql.getTables(null, null, null, null, false, auth);
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      readAll(sql.getStream(endpoint.getTicket(), auth), root -> {
        for (int r = 0; r < root.getRowCount(); r++) {
          names.add(String.valueOf(root.getVector("table_name").getObject(r)));
        }
      });
    }
    return names;
  }

  /**
   * Streams {@code data} into {@code table} with Flight SQL bulk ingest ({@link BulkIngestPut}: waits for the
   * transport without spinning); the server's acknowledged row count.
   */
  public long ingest(String table, ArrowReader data, TableDefinitionOptions options) {
    return BulkIngestPut.send(flight, table, options, Map.of(), data, auth);
  }

  private static void readAll(FlightStream stream, Consumer<VectorSchemaRoot> consumer) {
    try (FlightStream s = stream) {
      while (s.next()) {
        consumer.accept(s.getRoot());
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("reading the result failed: " + e.getMessage(), e);
    }
  }

  private static void closeQuietly(FlightClient flight, BufferAllocator allocator) {
    try {
      if (flight != null) {
        flight.close();
      }
    } catch (Exception ignored) {
      // the connection failed already; the original error is what the user needs
    }
    allocator.close();
  }

  @Override
  public void close() throws InterruptedException {
    flight.close();
    // Arrow's Flight client can keep a few buffers after a call that failed mid-stream: never mask the real error
    if (allocator.getAllocatedMemory() == 0) {
      allocator.close();
    }
  }
}
