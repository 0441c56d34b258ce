package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.GetSessionOptionsRequest;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpSessionOptionValueVisitor;
import org.apache.arrow.flight.SessionOptionValue;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 11 (BI tools): Flight session options for catalog and schema, kept by the client's session cookie. */
class SessionOptionsTest {
  private static final String SECRET = "session-test-cluster-secret-0123456789abcdefghijklmnop";

  @TempDir
  Path dataDir;

  @TempDir
  Path otherDataDir;

  @Test
  void sessionSchemaOptionIsHonoured() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir);
        FlightTestClient writer = server.client();
        BufferAllocator allocator = new RootAllocator()) {
      LongTable.ingest(writer, "sales", 0, 10, FlightTestClient.create());
      ClientCookieMiddleware.Factory cookies = new ClientCookieMiddleware.Factory();
      try (SessionClient client = SessionClient.connect(allocator, server.port(), cookies)) {
        FlightSqlClient sql = client.sql;
        // No session yet: no options set.
        assertThat(client.options()).isEmpty();

        SetSessionOptionsResult set = sql.setSessionOptions(new SetSessionOptionsRequest(
            options("catalog", "LAKE", "schema", "Main")), client.auth);
        assertThat(set.hasErrors()).isFalse();
        // The session sticks across calls (the cookie): the options come back, normalized.
        assertThat(client.options()).containsOnly(Map.entry("catalog", "lake"), Map.entry("schema", "main"));

        // Unqualified names resolve against the session schema, through statements and prepared statements.
        assertThat(client.count("SELECT COUNT(*) FROM sales")).isEqualTo(10);
        try (FlightSqlClient.PreparedStatement prepared = sql.prepare("SELECT COUNT(*) FROM sales", client.auth)) {
          assertThat(client.count(prepared.execute(client.auth))).isEqualTo(10);
          prepared.close(client.auth);
        }

        // An unknown schema (and an unknown option) is refused, per option; the session keeps its schema.
        SetSessionOptionsResult bad = sql.setSessionOptions(new SetSessionOptionsRequest(
            options("schema", "warehouse", "colour", "blue")), client.auth);
        assertThat(bad.getErrors()).containsOnlyKeys("schema", "colour");
        assertThat(bad.getErrors().get("schema").value).isEqualTo(SetSessionOptionsResult.ErrorValue.INVALID_VALUE);
        assertThat(bad.getErrors().get("colour").value).isEqualTo(SetSessionOptionsResult.ErrorValue.INVALID_NAME);
        assertThat(client.options()).containsEntry("schema", "main");

        // An empty value resets an option to its default.
        assertThat(sql.setSessionOptions(new SetSessionOptionsRequest(Map.of("catalog",
            SessionOptionValueFactory.makeEmptySessionOptionValue())), client.auth).hasErrors()).isFalse();
        assertThat(client.options()).containsOnly(Map.entry("schema", "main"));

        // Another client (no cookie) has a session of its own.
        try (SessionClient other = SessionClient.connect(allocator, server.port(),
            new ClientCookieMiddleware.Factory())) {
          assertThat(other.options()).isEmpty();
        }

        // CloseSession ends it: the client drops the cookie, and the options are gone.
        assertThat(sql.closeSession(new CloseSessionRequest(), client.auth).getStatus())
            .isEqualTo(CloseSessionResult.Status.CLOSED);
        assertThat(client.options()).isEmpty();
        assertThat(client.count("SELECT COUNT(*) FROM sales")).isEqualTo(10);
      }
    }
  }

  @Test
  void anotherNodeWithTheClusterSecretReadsTheSameSession() throws Exception {
    Map<String, String> settings = Map.of("cluster.secret", SECRET);
    try (LakeTestServer first = LakeTestServer.start(dataDir, b -> {}, settings);
        LakeTestServer second = LakeTestServer.start(otherDataDir, b -> {}, settings);
        BufferAllocator allocator = new RootAllocator()) {
      // One cookie jar for both connections: the session set through the first node is sent to the second.
      ClientCookieMiddleware.Factory cookies = new ClientCookieMiddleware.Factory();
      try (SessionClient a = SessionClient.connect(allocator, first.port(), cookies);
          SessionClient b = SessionClient.connect(allocator, second.port(), cookies)) {
        assertThat(a.sql.setSessionOptions(new SetSessionOptionsRequest(options("schema", "main")), a.auth)
            .hasErrors()).isFalse();
        assertThat(b.options()).containsOnly(Map.entry("schema", "main"));
      }
    }
  }

  /**
   * Pins the README's note on the JDBC driver 18.3.0: with {@code catalog=} in the URL it sets the session catalog
   * (lake accepts {@code lake}) and queries work, but {@code Connection.close()} throws (apache/arrow-java#66).
   */
  @Test
  void jdbcCatalogInTheUrlWorksUntilTheDriverFailsItsOwnClose() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir); FlightTestClient writer = server.client()) {
      LongTable.ingest(writer, "sales", 0, 10, FlightTestClient.create());
      java.sql.Connection connection = java.sql.DriverManager.getConnection(server.jdbcUrl() + "&catalog=lake");
      try (java.sql.Statement statement = connection.createStatement();
          java.sql.ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM sales")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getLong(1)).isEqualTo(10);
      }
      org.assertj.core.api.Assertions.assertThatThrownBy(connection::close)
          .isInstanceOf(java.sql.SQLException.class);
      // Without catalog= the same connection closes cleanly (the README's workaround).
      try (java.sql.Connection plain = java.sql.DriverManager.getConnection(server.jdbcUrl());
          java.sql.Statement statement = plain.createStatement();
          java.sql.ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM lake.main.sales")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getLong(1)).isEqualTo(10);
      }
    }
  }

  private static Map<String, SessionOptionValue> options(String... pairs) {
    Map<String, SessionOptionValue> out = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.put(pairs[i], SessionOptionValueFactory.makeSessionOptionValue(pairs[i + 1]));
    }
    return out;
  }

  /** A FlightSqlClient with Arrow's client cookie middleware (as the JDBC driver and ADBC have), logged in. */
  private static final class SessionClient implements AutoCloseable {
    private final FlightClient flight;
    private final FlightSqlClient sql;
    private final CallOption auth;

    private SessionClient(FlightClient flight, CallOption auth) {
      this.flight = flight;
      this.sql = new FlightSqlClient(flight);
      this.auth = auth;
    }

    static SessionClient connect(BufferAllocator allocator, int port, ClientCookieMiddleware.Factory cookies) {
      FlightClient flight = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port))
          .intercept(cookies).build();
      return new SessionClient(flight, flight.authenticateBasicToken("lake", "lake").orElseThrow());
    }

    Map<String, String> options() {
      Map<String, String> out = new LinkedHashMap<>();
      sql.getSessionOptions(new GetSessionOptionsRequest(), auth).getSessionOptions()
          .forEach((name, value) -> out.put(name, value.acceptVisitor(new NoOpSessionOptionValueVisitor<>() {
            @Override
            public String visit(String v) {
              return v;
            }
          })));
      return out;
    }

    long count(String query) throws Exception {
      return count(sql.execute(query, auth));
    }

    long count(FlightInfo info) throws Exception {
      long count = -1;
      for (FlightEndpoint endpoint : info.getEndpoints()) {
        try (FlightStream stream = sql.getStream(endpoint.getTicket(), auth)) {
          while (stream.next()) {
            if (stream.getRoot().getRowCount() > 0) {
              count = ((BigIntVector) stream.getRoot().getVector(0)).get(0);
            }
          }
        }
      }
      return count;
    }

    @Override
    public void close() throws Exception {
      flight.close();
    }
  }
}
