package dev.lake.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/** A real {@link FlightSqlClient} logged in with basic auth (exchanged for a bearer token). */
public final class FlightTestClient implements AutoCloseable {
  private final BufferAllocator allocator;
  private final FlightClient flight;
  private final FlightSqlClient sql;
  private final CallOption auth;

  private FlightTestClient(BufferAllocator allocator, FlightClient flight, CallOption auth) {
    this.allocator = allocator;
    this.flight = flight;
    this.sql = new FlightSqlClient(flight);
    this.auth = auth;
  }

  public static FlightTestClient connect(int port, String user, String password) {
    BufferAllocator allocator = new RootAllocator();
    FlightClient flight = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port)).build();
    CredentialCallOption auth = flight.authenticateBasicToken(user, password)
        .orElseThrow(() -> new IllegalStateException("the server returned no bearer token"));
    return new FlightTestClient(allocator, flight, auth);
  }

  public BufferAllocator allocator() {
    return allocator;
  }

  public FlightSqlClient sql() {
    return sql;
  }

  public FlightClient flight() {
    return flight;
  }

  public CallOption auth() {
    return auth;
  }

  /** The {@code authorization} header value of this client's calls ({@code Bearer <token>}), or null. */
  public String authorization() {
    if (!(auth instanceof CredentialCallOption credentials)) {
      return null;
    }
    org.apache.arrow.flight.FlightCallHeaders headers = new org.apache.arrow.flight.FlightCallHeaders();
    try {
      java.lang.reflect.Field writer = CredentialCallOption.class.getDeclaredField("credentialWriter");
      writer.setAccessible(true);
      @SuppressWarnings("unchecked")
      java.util.function.Consumer<org.apache.arrow.flight.CallHeaders> write =
          (java.util.function.Consumer<org.apache.arrow.flight.CallHeaders>) writer.get(credentials);
      write.accept(headers);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Arrow's CredentialCallOption has no credential writer field", e);
    }
    for (String key : headers.keys()) {
      if (key.equalsIgnoreCase("authorization")) {
        return headers.get(key);
      }
    }
    return null;
  }

  public static TableDefinitionOptions mode(TableNotExistOption ifMissing, TableExistsOption ifExists) {
    return TableDefinitionOptions.newBuilder().setIfNotExist(ifMissing).setIfExists(ifExists).build();
  }

  public static TableDefinitionOptions create() {
    return mode(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE, TableExistsOption.TABLE_EXISTS_OPTION_FAIL);
  }

  public static TableDefinitionOptions append() {
    return mode(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL, TableExistsOption.TABLE_EXISTS_OPTION_APPEND);
  }

  /** Ingests every batch of {@code data} and closes it. */
  public long ingest(String table, ArrowReader data, TableDefinitionOptions options, Map<String, String> extra) {
    try (ArrowReader reader = data) {
      return sql.executeIngest(reader, new FlightSqlClient.ExecuteIngestOptions(table, options, null, null, extra),
          auth);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public long ingest(String table, VectorSchemaRoot data, TableDefinitionOptions options) {
    return sql.executeIngest(data, new FlightSqlClient.ExecuteIngestOptions(table, options, null, null, Map.of()),
        auth);
  }

  /** Runs a statement and hands every batch to {@code consumer} (rows are read before the next batch). */
  public void query(String query, java.util.function.Consumer<VectorSchemaRoot> consumer) throws Exception {
    FlightInfo info = sql.execute(query, auth);
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      try (FlightStream stream = sql.getStream(endpoint.getTicket(), auth)) {
        while (stream.next()) {
          consumer.accept(stream.getRoot());
        }
      }
    }
  }

  /** Every row of the result as a list of {@code getObject} values. */
  public List<List<Object>> rows(String query) throws Exception {
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

  public long count(String table) throws Exception {
    return ((Number) rows("SELECT COUNT(*) FROM " + table).get(0).get(0)).longValue();
  }

  /**
   * Closes the client. Arrow Java's Flight client keeps a few buffers after a call that failed mid-stream (an
   * ingest whose source threw, a DoGet answered with an error); that is the client library's, not the server's,
   * so leaks here are reported on stderr rather than failing the test. Server-side memory is checked by the tests
   * that are about it.
   */
  @Override
  public void close() throws Exception {
    flight.close();
    long leaked = allocator.getAllocatedMemory();
    if (leaked > 0) {
      System.err.println("FlightTestClient: the Flight client library still holds " + leaked + " bytes");
      return;
    }
    allocator.close();
  }
}
