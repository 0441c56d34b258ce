package dev.lake.it;

import static dev.lake.it.support.SessionFlightClient.options;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.SessionFlightClient;
import java.nio.file.Path;
import java.util.Map;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
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
      try (SessionFlightClient client = SessionFlightClient.connect(allocator, server.port(), cookies)) {
        FlightSqlClient sql = client.sql();
        // No session yet: no options set.
        assertThat(client.options()).isEmpty();

        SetSessionOptionsResult set = sql.setSessionOptions(new SetSessionOptionsRequest(
            options("catalog", "LAKE", "schema", "Main")), client.auth());
        assertThat(set.hasErrors()).isFalse();
        // The session sticks across calls (the cookie): the options come back, normalized.
        assertThat(client.options()).containsOnly(Map.entry("catalog", "lake"), Map.entry("schema", "main"));

        // Unqualified names resolve against the session schema, through statements and prepared statements.
        assertThat(client.count("SELECT COUNT(*) FROM sales")).isEqualTo(10);
        try (FlightSqlClient.PreparedStatement prepared = sql.prepare("SELECT COUNT(*) FROM sales", client.auth())) {
          assertThat(client.count(prepared.execute(client.auth()))).isEqualTo(10);
          prepared.close(client.auth());
        }

        // An unknown schema (and an unknown option) is refused, per option; the session keeps its schema.
        SetSessionOptionsResult bad = sql.setSessionOptions(new SetSessionOptionsRequest(
            options("schema", "warehouse", "colour", "blue")), client.auth());
        assertThat(bad.getErrors()).containsOnlyKeys("schema", "colour");
        assertThat(bad.getErrors().get("schema").value).isEqualTo(SetSessionOptionsResult.ErrorValue.INVALID_VALUE);
        assertThat(bad.getErrors().get("colour").value).isEqualTo(SetSessionOptionsResult.ErrorValue.INVALID_NAME);
        assertThat(client.options()).containsEntry("schema", "main");

        // An empty value resets an option to its default.
        assertThat(sql.setSessionOptions(new SetSessionOptionsRequest(Map.of("catalog",
            SessionOptionValueFactory.makeEmptySessionOptionValue())), client.auth()).hasErrors()).isFalse();
        assertThat(client.options()).containsOnly(Map.entry("schema", "main"));

        // Another client (no cookie) has a session of its own.
        try (SessionFlightClient other = SessionFlightClient.connect(allocator, server.port(),
            new ClientCookieMiddleware.Factory())) {
          assertThat(other.options()).isEmpty();
        }

        // CloseSession ends it: the client drops the cookie, and the options are gone.
        assertThat(sql.closeSession(new CloseSessionRequest(), client.auth()).getStatus())
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
      try (SessionFlightClient a = SessionFlightClient.connect(allocator, first.port(), cookies);
          SessionFlightClient b = SessionFlightClient.connect(allocator, second.port(), cookies)) {
        assertThat(a.sql().setSessionOptions(new SetSessionOptionsRequest(options("schema", "main")), a.auth())
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

}
