package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lake.flight.auth.Signer;
import dev.lake.flight.cluster.InternalTokens;
import dev.lake.it.support.ClusterNodes;
import dev.lake.it.support.ClusterSettings;
import dev.lake.it.support.ConfiguredServer;
import dev.lake.it.support.ConfiguredServer.TestUser;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.it.support.Status;
import dev.lake.it.support.TestCertificates;
import dev.lake.registry.dynamodb.Dynoxide;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: with TLS configured, the leader's internal endpoint speaks mutual TLS only; each internal token is good
 * once, for the one request it names; readers do not see internal addresses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InternalEndpointSecurityTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<TestUser> USERS = List.of(
      new TestUser("rita", "rita-pw", "reader"),
      new TestUser("walt", "walt-pw", "writer"),
      new TestUser("ada", "ada-pw", "admin"));

  @TempDir
  Path dir;

  private S3ProxyServer s3;
  private Dynoxide dynamoDb;

  @BeforeAll
  void startStandIns() throws Exception {
    s3 = S3ProxyServer.start("lake-internal-tls");
    dynamoDb = Dynoxide.start();
  }

  @AfterAll
  void stopStandIns() throws Exception {
    dynamoDb.close();
    s3.close();
  }

  @Test
  void internalEndpointUsesTlsAndBoundTokens() throws Exception {
    TestCertificates ca = TestCertificates.authority(dir.resolve("pki"), "lake-cluster");
    TestCertificates.Pem pem = ca.node("node"); // every node uses the same PEM files
    String registry = "lake-tls-" + UUID.randomUUID();
    try (ConfiguredServer a = node(registry, "node-a", pem);
        ConfiguredServer b = node(registry, "node-b", pem);
        BufferAllocator allocator = new RootAllocator()) {
      assertThat(a.server().isLeader()).isTrue();
      String internal = a.server().metaStore().lease().orElseThrow().internalAddress();
      int internalPort = Integer.parseInt(internal.substring(internal.lastIndexOf(':') + 1));

      // Forwarding works over mutual TLS: an ingest through the follower is committed by the leader.
      try (FlightClient viaB = b.tlsClient(allocator, ca.caFile(), Optional.empty())) {
        CredentialCallOption walt = viaB.authenticateBasicToken("walt", "walt-pw").orElseThrow();
        assertThat(ingest(new FlightSqlClient(viaB), walt, allocator, 10)).isEqualTo(10);
      }
      assertThat(a.server().metaStore().get("t").orElseThrow().version()).isEqualTo(1);

      // The internal port refuses plaintext, and TLS without a node certificate.
      String token = new InternalTokens(new Signer(ClusterSettings.SECRET.getBytes(StandardCharsets.UTF_8)),
          Clock.systemUTC()).issue("ada", "node-b", InternalTokens.actionRequest("lake.maintain_table",
              maintain("t")));
      try (FlightClient plaintext = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1",
          internalPort)).build()) {
        assertThat(Status.code(catchThrowable(() -> drain(plaintext.doAction(new Action("lake.maintain_table",
            maintain("t")), internalAuth(token)))))).isEqualTo("UNAVAILABLE");
      }
      try (FlightClient noCertificate = tls(allocator, ca.caFile(), internalPort, null)) {
        assertThat(Status.code(catchThrowable(() -> drain(noCertificate.doAction(new Action("lake.maintain_table",
            maintain("t")), internalAuth(token)))))).isEqualTo("UNAVAILABLE");
      }

      // A node's client: the token works once, for its own request; replayed, or for another request, it is refused.
      try (FlightClient peer = tls(allocator, ca.caFile(), internalPort, pem)) {
        JsonNode done = JSON.readTree(drain(peer.doAction(new Action("lake.maintain_table", maintain("t")),
            internalAuth(token))));
        assertThat(done.get("table").asText()).isEqualTo("t");
        Throwable replay = catchThrowable(() -> drain(peer.doAction(new Action("lake.maintain_table",
            maintain("t")), internalAuth(token))));
        assertThat(Status.code(replay)).isEqualTo("UNAUTHENTICATED");
        assertThat(replay).hasMessageContaining("already used");

        String forOther = new InternalTokens(new Signer(ClusterSettings.SECRET.getBytes(StandardCharsets.UTF_8)),
            Clock.systemUTC()).issue("ada", "node-b", InternalTokens.actionRequest("lake.maintain_table",
                maintain("other")));
        Throwable misused = catchThrowable(() -> drain(peer.doAction(new Action("lake.drop_table", maintain("t")),
            internalAuth(forOther))));
        assertThat(Status.code(misused)).isEqualTo("UNAUTHENTICATED");
        assertThat(misused).hasMessageContaining("another request");
        assertThat(a.server().metaStore().get("t")).as("the misused token dropped nothing").isPresent();
      }

      // lake.status shows internal addresses to admins only.
      try (FlightClient client = a.tlsClient(allocator, ca.caFile(), Optional.empty())) {
        JsonNode asReader = status(client, client.authenticateBasicToken("rita", "rita-pw").orElseThrow());
        assertThat(asReader.toString()).doesNotContain("internal_address").doesNotContain(":" + internalPort);
        assertThat(asReader.get("nodes")).isNotEmpty();
        JsonNode asAdmin = status(client, client.authenticateBasicToken("ada", "ada-pw").orElseThrow());
        assertThat(asAdmin.path("lease").path("internal_address").asText()).isEqualTo(internal);
      }
    }
  }

  private ConfiguredServer node(String registry, String nodeId, TestCertificates.Pem pem) throws Exception {
    Map<String, String> settings = new HashMap<>(ClusterNodes.node(s3, "tls", dynamoDb, registry, nodeId,
        ClusterNodes.SHORT_LEASE));
    settings.put("server.tls.cert-chain", pem.chain().toString());
    settings.put("server.tls.private-key", pem.key().toString());
    return ConfiguredServer.start(dir.resolve(registry).resolve(nodeId), USERS, settings, b -> {});
  }

  private static byte[] maintain(String table) {
    return ("{\"table\":\"" + table + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  private static HeaderCallOption internalAuth(String token) {
    FlightCallHeaders headers = new FlightCallHeaders();
    headers.insert("authorization", InternalTokens.SCHEME + " " + token);
    return new HeaderCallOption(headers);
  }

  private static byte[] drain(Iterator<Result> results) {
    byte[] first = null;
    while (results.hasNext()) {
      byte[] body = results.next().getBody();
      first = first == null ? body : first;
    }
    return first;
  }

  private static JsonNode status(FlightClient client, CredentialCallOption auth) throws Exception {
    return JSON.readTree(drain(client.doAction(new Action("lake.status", "{}".getBytes(StandardCharsets.UTF_8)),
        auth)));
  }

  /** A TLS client of {@code port} trusting {@code ca}, presenting {@code cert} when given. */
  private static FlightClient tls(BufferAllocator allocator, Path ca, int port, TestCertificates.Pem cert)
      throws Exception {
    FlightClient.Builder builder = FlightClient.builder(allocator, Location.forGrpcTls("127.0.0.1", port));
    try (InputStream trusted = Files.newInputStream(ca)) {
      builder.trustedCertificates(trusted);
      if (cert == null) {
        return builder.build();
      }
      try (InputStream chain = Files.newInputStream(cert.chain()); InputStream key = Files.newInputStream(cert.key())) {
        builder.clientCertificate(chain, key);
        return builder.build();
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
      return sql.executeIngest(root, new FlightSqlClient.ExecuteIngestOptions("t", options, null, null, Map.of()),
          auth);
    }
  }
}
