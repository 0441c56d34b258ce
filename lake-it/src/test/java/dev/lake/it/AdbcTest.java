package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.TestCertificates;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.adbc.core.AdbcConnection;
import org.apache.arrow.adbc.core.AdbcDatabase;
import org.apache.arrow.adbc.core.AdbcDriver;
import org.apache.arrow.adbc.core.AdbcException;
import org.apache.arrow.adbc.core.AdbcStatement;
import org.apache.arrow.adbc.core.AdbcStatusCode;
import org.apache.arrow.adbc.core.BulkIngestMode;
import org.apache.arrow.adbc.driver.flightsql.FlightSqlConnectionProperties;
import org.apache.arrow.adbc.driver.flightsql.FlightSqlDriver;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 (ADBC): the ADBC Java Flight SQL driver 0.20.0 against a real server. Its bulk ingest is not Flight SQL's
 * CommandStatementIngest: APPEND prepares {@code INSERT INTO t VALUES (?, ...)} and sends the bound batch as the
 * parameters (lake runs that as a bulk append); CREATE first sends {@code CREATE TABLE}, which lake's read-only SQL
 * surface refuses — tables are created by Flight bulk ingest (pyarrow/ADBC C, FlightSqlClient, bin/lake ingest).
 *
 * <p>The driver authenticates with call options, and its bulk ingest sends the prepared statement's update (and close)
 * without them: with password login the append is refused as UNAUTHENTICATED and nothing is written. Mutual TLS
 * authenticates every call by the client certificate, so the driver works end to end there.
 */
class AdbcTest {
  @TempDir
  Path dir;

  @Test
  void adbcDriverIngestsAndQueries() throws Exception {
    TestCertificates ca = TestCertificates.authority(dir.resolve("pki"), "lake-test");
    TestCertificates.Pem serverCert = ca.server("server");
    TestCertificates.Pem client = ca.client("lake"); // the default user, by certificate
    try (LakeTestServer server = LakeTestServer.start(dir.resolve("data"), b -> {}, Map.of(
            "server.tls.cert-chain", serverCert.chain().toString(),
            "server.tls.private-key", serverCert.key().toString(),
            "server.tls.client-ca", ca.caFile().toString()));
        BufferAllocator allocator = new RootAllocator()) {
      createEvents(allocator, server.port(), ca, client); // 0, 1, 2 through Flight bulk ingest
      Map<String, Object> params = new HashMap<>();
      AdbcDriver.PARAM_URI.set(params, "grpc+tls://localhost:" + server.port());
      try (InputStream root = Files.newInputStream(ca.caFile());
          InputStream chain = Files.newInputStream(client.chain());
          InputStream key = Files.newInputStream(client.key())) {
        FlightSqlConnectionProperties.TLS_ROOT_CERTS.set(params, root);
        FlightSqlConnectionProperties.MTLS_CERT_CHAIN.set(params, chain);
        FlightSqlConnectionProperties.MTLS_PRIVATE_KEY.set(params, key);
        try (AdbcDatabase database = new FlightSqlDriver(allocator).open(params);
            AdbcConnection connection = database.connect()) {
          // Ingest: bind a batch of 1,000 rows and append it (bulkIngest + bind + executeUpdate).
          try (VectorSchemaRoot batch = longs(allocator, 100, 1000);
              AdbcStatement ingest = connection.bulkIngest("events", BulkIngestMode.APPEND)) {
            ingest.bind(batch);
            assertThat(ingest.executeUpdate().getAffectedRows()).isEqualTo(1000);
          }
          // Query through ADBC: the three rows lake had plus the thousand ADBC sent.
          assertThat(countAndSum(connection, "events")).containsExactly(1003L, 3 + (100 + 1099) * 1000L / 2);
          // CREATE sends CREATE TABLE: refused by the read-only SQL surface, with a status the driver reports.
          try (VectorSchemaRoot batch = longs(allocator, 0, 10);
              AdbcStatement create = connection.bulkIngest("fresh", BulkIngestMode.CREATE)) {
            create.bind(batch);
            assertThatThrownBy(create::executeUpdate).isInstanceOf(AdbcException.class)
                .hasStackTraceContaining("INVALID_ARGUMENT: CREATE TABLE statements are not allowed");
          }
          // Appending to a missing table is NOT_FOUND, not a generic error.
          try (VectorSchemaRoot batch = longs(allocator, 0, 10);
              AdbcStatement missing = connection.bulkIngest("missing", BulkIngestMode.APPEND)) {
            missing.bind(batch);
            assertThatThrownBy(missing::executeUpdate).isInstanceOf(AdbcException.class)
                .extracting(e -> ((AdbcException) e).getStatus()).isEqualTo(AdbcStatusCode.NOT_FOUND);
          }
          assertThat(countAndSum(connection, "events")).containsExactly(1003L, 3 + (100 + 1099) * 1000L / 2);
        }
      }
    }
  }

  /**
   * Pins the driver's behaviour under password login: its prepared-statement update goes out without the credentials,
   * so the append is refused as UNAUTHENTICATED and nothing is written (queries work).
   */
  @Test
  void adbcPasswordLoginBulkIngestIsRefusedWithoutWriting() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dir.resolve("data"));
        FlightTestClient writer = server.client();
        BufferAllocator allocator = new RootAllocator()) {
      LongTable.ingest(writer, "events", 0, 3, FlightTestClient.create());
      Map<String, Object> params = new HashMap<>();
      AdbcDriver.PARAM_URI.set(params, "grpc+tcp://127.0.0.1:" + server.port());
      AdbcDriver.PARAM_USERNAME.set(params, "lake");
      AdbcDriver.PARAM_PASSWORD.set(params, "lake");
      try (AdbcDatabase database = new FlightSqlDriver(allocator).open(params);
          AdbcConnection connection = database.connect()) {
        assertThat(countAndSum(connection, "events")).containsExactly(3L, 3L);
        try (VectorSchemaRoot batch = longs(allocator, 100, 10);
            AdbcStatement ingest = connection.bulkIngest("events", BulkIngestMode.APPEND)) {
          ingest.bind(batch);
          assertThatThrownBy(ingest::executeUpdate).isInstanceOf(AdbcException.class)
              .extracting(e -> ((AdbcException) e).getStatus()).isEqualTo(AdbcStatusCode.UNAUTHENTICATED);
        }
      }
      assertThat(writer.count("events")).isEqualTo(3);
    }
  }

  private static void createEvents(BufferAllocator allocator, int port, TestCertificates ca,
      TestCertificates.Pem client) throws Exception {
    try (InputStream root = Files.newInputStream(ca.caFile());
        InputStream chain = Files.newInputStream(client.chain());
        InputStream key = Files.newInputStream(client.key());
        FlightClient flight = FlightClient.builder(allocator, Location.forGrpcTls("localhost", port))
            .trustedCertificates(root).clientCertificate(chain, key).build();
        VectorSchemaRoot batch = longs(allocator, 0, 3)) {
      new FlightSqlClient(flight).executeIngest(batch, new FlightSqlClient.ExecuteIngestOptions("events",
          FlightTestClient.create(), null, null, Map.of()));
    }
  }

  private static java.util.List<Long> countAndSum(AdbcConnection connection, String table) throws Exception {
    try (AdbcStatement query = connection.createStatement()) {
      query.setSqlQuery("SELECT COUNT(*) AS n, SUM(v) AS total FROM " + table);
      try (AdbcStatement.QueryResult result = query.executeQuery()) {
        ArrowReader reader = result.getReader();
        assertThat(reader.loadNextBatch()).isTrue();
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        return java.util.List.of(((Number) root.getVector("n").getObject(0)).longValue(),
            ((Number) root.getVector("total").getObject(0)).longValue());
      }
    }
  }

  private static VectorSchemaRoot longs(BufferAllocator allocator, long first, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(LongTable.SCHEMA, allocator);
    root.allocateNew();
    BigIntVector v = (BigIntVector) root.getVector(0);
    for (int i = 0; i < count; i++) {
      v.setSafe(i, first + i);
    }
    root.setRowCount(count);
    return root;
  }
}
