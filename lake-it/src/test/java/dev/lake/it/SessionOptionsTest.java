package dev.lake.it;

import static dev.lake.it.support.SessionFlightClient.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.SessionFlightClient;
import java.nio.file.Path;
import java.util.Map;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
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
          assertThat(other.sql().setSessionOptions(new SetSessionOptionsRequest(Map.of()), other.auth())
              .hasErrors()).isFalse();
          assertThat(other.options()).isEmpty();
        }

        // CloseSession ends it: the client drops the cookie, and the options are gone.
        assertThat(sql.closeSession(new CloseSessionRequest(), client.auth()).getStatus())
            .isEqualTo(CloseSessionResult.Status.CLOSED);
        assertThatThrownBy(client::options).isInstanceOfSatisfying(FlightRuntimeException.class,
            e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND));
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
   * Flight's session rules (issue 21 item 7): GetSessionOptions and CloseSession without a session are NOT_FOUND;
   * after CloseSession, every session action with that session's cookie is NOT_FOUND (the spec: "subsequent requests
   * with the same session produce a NOT_FOUND error"), while queries go on with the default session.
   */
  @Test
  void sessionOptionsFollowTheSpec() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir);
        FlightTestClient writer = server.client();
        BufferAllocator allocator = new RootAllocator()) {
      LongTable.ingest(writer, "sales", 0, 3, FlightTestClient.create());
      // A cookie jar that keeps what it is told to drop: a client that sends a closed session's cookie again.
      StickyCookies sticky = new StickyCookies();
      try (SessionFlightClient client = SessionFlightClient.connect(allocator, server.port(), sticky)) {
        FlightSqlClient sql = client.sql();
        assertNotFound(client::options, "no session");
        assertNotFound(() -> sql.closeSession(new CloseSessionRequest(), client.auth()), "no session");

        assertThat(sql.setSessionOptions(new SetSessionOptionsRequest(options("schema", "main")), client.auth())
            .hasErrors()).isFalse();
        assertThat(client.options()).containsOnly(Map.entry("schema", "main"));
        assertThat(sql.closeSession(new CloseSessionRequest(), client.auth()).getStatus())
            .isEqualTo(CloseSessionResult.Status.CLOSED);
        assertThat(sticky.cookie).as("the closed session's cookie, kept by this client").isNotNull();
        assertNotFound(client::options, "closed");
        assertNotFound(() -> sql.closeSession(new CloseSessionRequest(), client.auth()), "closed");
        assertNotFound(() -> sql.setSessionOptions(new SetSessionOptionsRequest(options("schema", "main")),
            client.auth()), "closed");
        assertThat(client.count("SELECT COUNT(*) FROM sales")).as("queries are not refused").isEqualTo(3);
      }
    }
  }

  private static void assertNotFound(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String why) {
    assertThatThrownBy(call).isInstanceOfSatisfying(FlightRuntimeException.class, e -> {
      assertThat(e.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
      assertThat(e.getMessage()).contains(why.equals("closed") ? "closed" : "no session");
    });
  }

  /** Sends back the first session cookie it was given, whatever the server says later. */
  private static final class StickyCookies implements org.apache.arrow.flight.FlightClientMiddleware.Factory {
    volatile String cookie;

    @Override
    public org.apache.arrow.flight.FlightClientMiddleware onCallStarted(org.apache.arrow.flight.CallInfo info) {
      return new org.apache.arrow.flight.FlightClientMiddleware() {
        @Override
        public void onBeforeSendingHeaders(org.apache.arrow.flight.CallHeaders outgoing) {
          if (cookie != null) {
            outgoing.insert("cookie", cookie);
          }
        }

        @Override
        public void onHeadersReceived(org.apache.arrow.flight.CallHeaders incoming) {
          Iterable<String> set = incoming.getAll("set-cookie");
          if (set == null) {
            return;
          }
          for (String header : set) {
            String pair = header.split(";", 2)[0].strip();
            if (cookie == null && pair.startsWith("arrow_flight_session_id=") && pair.length() > 24) {
              cookie = pair;
            }
          }
        }

        @Override
        public void onCallCompleted(org.apache.arrow.flight.CallStatus status) {}
      };
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
