package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.flight.LakeServer;
import dev.lake.flight.config.LakeConfig;
import dev.lake.flight.security.SecuritySettings;
import dev.lake.flight.security.TransportSecurity;
import dev.lake.it.support.ConfiguredServer;
import dev.lake.it.support.ConfiguredServer.TestUser;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Status;
import dev.lake.it.support.TestCertificates;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10: TLS from PEM files (test certificates minted here), plaintext only on loopback, mutual TLS. */
class TlsTest {
  private static final List<TestUser> USERS = List.of(
      new TestUser("rita", "rita-pw", "reader"),
      new TestUser("walt", "walt-pw", "writer"));

  @TempDir
  Path dir;

  @Test
  void jdbcConnectsOverTls() throws Exception {
    TestCertificates ca = TestCertificates.authority(dir.resolve("pki"), "lake-test");
    TestCertificates.Pem server = ca.server("server");
    try (ConfiguredServer lake = ConfiguredServer.start(dir.resolve("data"), USERS, Map.of(
            "server.tls.cert-chain", server.chain().toString(),
            "server.tls.private-key", server.key().toString()), b -> {});
        BufferAllocator allocator = new RootAllocator()) {
      try (FlightClient walt = lake.tlsClient(allocator, ca.caFile(), Optional.empty())) {
        CredentialCallOption auth = walt.authenticateBasicToken("walt", "walt-pw").orElseThrow();
        ingest(new FlightSqlClient(walt), auth, allocator, 1000);
      }

      String url = "jdbc:arrow-flight-sql://localhost:" + lake.port() + "/?useEncryption=true&tlsRootCerts="
          + URLEncoder.encode(ca.caFile().toString(), StandardCharsets.UTF_8) + "&user=rita&password=rita-pw";
      try (Connection jdbc = DriverManager.getConnection(url);
          Statement st = jdbc.createStatement();
          ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(v) FROM t")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(1000);
        assertThat(rs.getLong(2)).isEqualTo(999L * 1000 / 2);
      }

      // A plaintext client cannot talk to the TLS port, and a client that does not trust the CA is refused.
      try (FlightClient plaintext = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1",
          lake.port())).build()) {
        Throwable failure = catchThrowable(() -> plaintext.authenticateBasicToken("rita", "rita-pw"));
        assertThat(failure).isNotNull();
        assertThat(Status.code(failure)).isIn("UNAVAILABLE", "INTERNAL", "UNKNOWN");
      }
      TestCertificates stranger = TestCertificates.authority(dir.resolve("pki-other"), "someone-else");
      try (FlightClient untrusting = lake.tlsClient(allocator, stranger.caFile(), Optional.empty())) {
        Throwable failure = catchThrowable(() -> untrusting.authenticateBasicToken("rita", "rita-pw"));
        assertThat(Status.code(failure)).isEqualTo("UNAVAILABLE");
      }
    }
  }

  @Test
  void plaintextRefusedOffLoopbackByDefault() throws Exception {
    List<String> offLoopback = new ArrayList<>(List.of("0.0.0.0"));
    siteAddress().ifPresent(offLoopback::add);
    for (String host : offLoopback) {
      LakeConfig config = ConfiguredServer.config(dir.resolve("data-" + host.replace('.', '-')), USERS,
          Map.of("server.host", host));
      assertThatThrownBy(() -> LakeServer.builder(config).build().close())
          .as("plaintext on %s", host)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("refusing to serve plaintext on " + host)
          .hasMessageContaining("server.tls.cert-chain")
          .hasMessageContaining("server.allow-plaintext");
    }
    // Loopback is fine without TLS (every other test), and so are the explicit ways out; checked without binding.
    SecuritySettings allowed = SecuritySettings.fromKeys(Map.of("server.allow-plaintext", "true"));
    assertThatCode(() -> TransportSecurity.checkListenAddress("0.0.0.0", allowed)).doesNotThrowAnyException();
    TestCertificates ca = TestCertificates.authority(dir.resolve("pki"), "lake-test");
    TestCertificates.Pem server = ca.server("server");
    SecuritySettings tls = SecuritySettings.fromKeys(Map.of("server.tls.cert-chain", server.chain().toString(),
        "server.tls.private-key", server.key().toString()));
    assertThatCode(() -> TransportSecurity.checkListenAddress("0.0.0.0", tls)).doesNotThrowAnyException();
    assertThatCode(() -> TransportSecurity.checkListenAddress("127.0.0.1", SecuritySettings.plaintext()))
        .doesNotThrowAnyException();
    assertThatCode(() -> TransportSecurity.checkListenAddress("localhost", SecuritySettings.plaintext()))
        .doesNotThrowAnyException();

    // Half a TLS configuration, or a key in the wrong format, is refused at start-up with a message saying so.
    assertThatThrownBy(() -> SecuritySettings.fromKeys(Map.of("server.tls.cert-chain", server.chain().toString())))
        .hasMessageContaining("server.tls.private-key");
    assertThatThrownBy(() -> ConfiguredServer.start(dir.resolve("data-badkey"), USERS, Map.of(
            "server.tls.cert-chain", server.chain().toString(), "server.tls.private-key", server.chain().toString()),
        b -> {}))
        .hasMessageContaining("server.tls.private-key").hasMessageContaining("PKCS#8");
  }

  @Test
  void mutualTlsAuthenticatesByClientCertificate() throws Exception {
    TestCertificates ca = TestCertificates.authority(dir.resolve("pki"), "lake-test");
    TestCertificates.Pem server = ca.server("server");
    try (ConfiguredServer lake = ConfiguredServer.start(dir.resolve("data"), USERS, Map.of(
            "server.tls.cert-chain", server.chain().toString(),
            "server.tls.private-key", server.key().toString(),
            "server.tls.client-ca", ca.caFile().toString()), b -> {});
        BufferAllocator allocator = new RootAllocator()) {
      // walt logs in by certificate alone: no password, no token
      try (FlightClient walt = lake.tlsClient(allocator, ca.caFile(), Optional.of(ca.client("walt")))) {
        assertThat(ingest(new FlightSqlClient(walt), null, allocator, 10)).isEqualTo(10);
      }
      // rita by certificate is a reader: she reads, she may not ingest
      try (FlightClient rita = lake.tlsClient(allocator, ca.caFile(), Optional.of(ca.client("rita")))) {
        FlightSqlClient sql = new FlightSqlClient(rita);
        long rows = 0;
        try (FlightStream stream = sql.getStream(sql.execute("SELECT v FROM t").getEndpoints().get(0).getTicket())) {
          while (stream.next()) {
            rows += stream.getRoot().getRowCount();
          }
        }
        assertThat(rows).isEqualTo(10);
        assertThat(Status.code(catchThrowable(() -> ingest(sql, null, allocator, 1)))).isEqualTo("PERMISSION_DENIED");
      }
      // a certificate of the right CA naming nobody configured
      try (FlightClient nobody = lake.tlsClient(allocator, ca.caFile(), Optional.of(ca.client("nobody")))) {
        assertThat(Status.code(catchThrowable(() -> new FlightSqlClient(nobody).execute("SELECT 1"))))
            .isEqualTo("UNAUTHENTICATED");
      }
      // no client certificate at all: the TLS handshake itself fails
      try (FlightClient anonymous = lake.tlsClient(allocator, ca.caFile(), Optional.empty())) {
        assertThat(Status.code(catchThrowable(() -> anonymous.authenticateBasicToken("rita", "rita-pw"))))
            .isEqualTo("UNAVAILABLE");
      }
      // a certificate of another CA
      TestCertificates stranger = TestCertificates.authority(dir.resolve("pki-other"), "someone-else");
      try (FlightClient forged = lake.tlsClient(allocator, ca.caFile(), Optional.of(stranger.client("walt")))) {
        assertThat(Status.code(catchThrowable(() -> new FlightSqlClient(forged).execute("SELECT 1"))))
            .isEqualTo("UNAVAILABLE");
      }
    }
  }

  private static long ingest(FlightSqlClient sql, CredentialCallOption auth, BufferAllocator allocator, int rows) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(LongTable.SCHEMA, allocator)) {
      root.allocateNew();
      BigIntVector v = (BigIntVector) root.getVector(0);
      for (int i = 0; i < rows; i++) {
        v.setSafe(i, i);
      }
      root.setRowCount(rows);
      TableDefinitionOptions options = TableDefinitionOptions.newBuilder()
          .setIfNotExist(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE)
          .setIfExists(TableExistsOption.TABLE_EXISTS_OPTION_APPEND).build();
      FlightSqlClient.ExecuteIngestOptions ingest = new FlightSqlClient.ExecuteIngestOptions("t", options, null,
          null, Map.of());
      return auth == null ? sql.executeIngest(root, ingest) : sql.executeIngest(root, ingest, auth);
    }
  }

  /** A non-loopback IPv4 address of this machine, if it has one. */
  private static Optional<String> siteAddress() throws Exception {
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (!nic.isUp() || nic.isLoopback()) {
        continue;
      }
      for (InetAddress a : Collections.list(nic.getInetAddresses())) {
        if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
          return Optional.of(a.getHostAddress());
        }
      }
    }
    return Optional.empty();
  }
}
