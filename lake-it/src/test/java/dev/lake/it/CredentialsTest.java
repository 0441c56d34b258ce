package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.ConfiguredServer;
import dev.lake.it.support.ConfiguredServer.TestUser;
import dev.lake.it.support.Status;
import dev.lake.it.support.TestCertificates;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17: bearer tokens die with the credentials they were issued for; ambiguous client certificates are refused. */
class CredentialsTest {
  @TempDir
  Path dir;

  @Test
  void passwordChangeRevokesTokens() throws Exception {
    Path data = dir.resolve("data");
    List<TestUser> before = List.of(new TestUser("rita", "old-pw", "reader"), new TestUser("walt", "walt-pw", "admin"));
    CredentialCallOption ritaToken;
    CredentialCallOption waltToken;
    try (ConfiguredServer lake = ConfiguredServer.start(data, before, Map.of(), b -> {});
        BufferAllocator allocator = new RootAllocator();
        FlightClient client = lake.anonymous(allocator)) {
      ritaToken = client.authenticateBasicToken("rita", "old-pw").orElseThrow();
      waltToken = client.authenticateBasicToken("walt", "walt-pw").orElseThrow();
      assertThat(new FlightSqlClient(client).execute("SELECT 1", ritaToken).getEndpoints()).hasSize(1);
    }
    // The same node (same data directory, same cluster secret) restarted with rita's password changed and walt
    // demoted: both tokens are refused; a token issued now works, and so does the new password.
    List<TestUser> after = List.of(new TestUser("rita", "new-pw", "reader"), new TestUser("walt", "walt-pw", "reader"));
    try (ConfiguredServer lake = ConfiguredServer.start(data, after, Map.of(), b -> {});
        BufferAllocator allocator = new RootAllocator();
        FlightClient client = lake.anonymous(allocator)) {
      FlightSqlClient sql = new FlightSqlClient(client);
      Throwable rita = catchThrowable(() -> sql.execute("SELECT 1", ritaToken));
      assertThat(Status.code(rita)).isEqualTo("UNAUTHENTICATED");
      assertThat(rita).hasMessageContaining("log in again");
      assertThat(Status.code(catchThrowable(() -> sql.execute("SELECT 1", waltToken)))).isEqualTo("UNAUTHENTICATED");
      CredentialCallOption fresh = client.authenticateBasicToken("rita", "new-pw").orElseThrow();
      assertThat(sql.execute("SELECT 1", fresh).getEndpoints()).hasSize(1);
      CredentialCallOption demoted = client.authenticateBasicToken("walt", "walt-pw").orElseThrow();
      assertThat(sql.execute("SELECT 1", demoted).getEndpoints()).hasSize(1);
      assertThat(Status.code(catchThrowable(() -> client.authenticateBasicToken("rita", "old-pw"))))
          .isEqualTo("UNAUTHENTICATED");
    }
  }

  @Test
  void multiCnCertificatesAreRefused() throws Exception {
    TestCertificates ca = TestCertificates.authority(dir.resolve("pki"), "lake-test");
    TestCertificates.Pem server = ca.server("server");
    List<TestUser> users = List.of(new TestUser("rita", "rita-pw", "reader"), new TestUser("walt", "walt-pw", "admin"));
    try (ConfiguredServer lake = ConfiguredServer.start(dir.resolve("data"), users, Map.of(
            "server.tls.cert-chain", server.chain().toString(),
            "server.tls.private-key", server.key().toString(),
            "server.tls.client-ca", ca.caFile().toString()), b -> {});
        BufferAllocator allocator = new RootAllocator()) {
      // One CN: logs in as that user.
      try (FlightClient rita = lake.tlsClient(allocator, ca.caFile(), Optional.of(ca.client("rita")))) {
        assertThat(new FlightSqlClient(rita).execute("SELECT 1").getEndpoints()).hasSize(1);
      }
      // Two CN attributes, as two RDNs either way round and as one multi-valued RDN: never mapped to either user,
      // and refused even with a valid password.
      for (String subject : List.of("CN=rita,CN=walt", "CN=walt,CN=rita", "CN=walt+CN=rita", "O=x,CN=rita,CN=walt")) {
        TestCertificates.Pem two = ca.clientWithSubject("two-" + Math.abs(subject.hashCode()), subject);
        try (FlightClient client = lake.tlsClient(allocator, ca.caFile(), Optional.of(two))) {
          Throwable byCertificate = catchThrowable(() -> new FlightSqlClient(client).execute("SELECT 1"));
          assertThat(Status.code(byCertificate)).as(subject).isEqualTo("UNAUTHENTICATED");
          assertThat(byCertificate).as(subject).hasMessageContaining("2 CNs");
          Throwable withPassword = catchThrowable(() -> client.authenticateBasicToken("rita", "rita-pw"));
          assertThat(withPassword).as(subject).isInstanceOf(FlightRuntimeException.class);
          assertThat(Status.code(withPassword)).as(subject).isEqualTo("UNAUTHENTICATED");
        }
      }
    }
  }
}
