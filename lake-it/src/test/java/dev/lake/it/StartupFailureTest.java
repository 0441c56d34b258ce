package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Poll;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose start fails after it opened its registry (RocksDB, with its lock on the data directory), its Arrow
 * allocator and its threads closes all of it: a malformed TLS file (found while the Flight endpoint is built) and a
 * port in use (found when it binds) leave no thread of lake's behind, and the same data directory starts at once.
 */
class StartupFailureTest {
  @TempDir
  Path dir;

  @Test
  void failedStartClosesWhatItOpened() throws Exception {
    Path dataDir = dir.resolve("data");
    Set<Thread> before = lakeThreads(); // what earlier tests in this JVM may have left
    try (LakeTestServer first = LakeTestServer.start(dataDir);
        FlightTestClient client = first.client()) {
      LongTable.ingest(client, "t", 0, 10, FlightTestClient.create());
    }
    Poll.until(Duration.ofSeconds(30), "the first node's threads ended", () -> before.containsAll(lakeThreads()));

    // A TLS certificate file that is not PEM: the constructor fails after the registry and allocator are open.
    Path garbage = Files.writeString(dir.resolve("not-a-cert.pem"), "not a certificate", StandardCharsets.UTF_8);
    Throwable badTls = catchThrowable(() -> LakeTestServer.start(dataDir, b -> { }, Map.of(
        "server.tls.cert-chain", garbage.toString(), "server.tls.private-key", garbage.toString())));
    assertThat(badTls).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("server.tls.cert-chain");
    Poll.until(Duration.ofSeconds(30), "no thread of the failed start is left", () -> before.containsAll(lakeThreads()));

    // A port in use: the start fails when it binds, after everything was built.
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Throwable portInUse = catchThrowable(() -> LakeTestServer.start(dataDir, b -> { },
          Map.of("server.port", Integer.toString(taken.getLocalPort()))));
      assertThat(portInUse).as("the start on a port in use fails").isNotNull();
    }
    Poll.until(Duration.ofSeconds(30), "no thread of the failed start is left", () -> before.containsAll(lakeThreads()));

    // The registry's lock was released: the same data directory starts, with its table.
    try (LakeTestServer again = LakeTestServer.start(dataDir);
        FlightTestClient client = again.client()) {
      assertThat(client.rows("SELECT count(*) FROM t")).isEqualTo(List.of(List.of(10L)));
    }
  }

  /** Live threads lake names ({@code lake-*}), but the vectorized executor's pool (its idle workers time out). */
  private static Set<Thread> lakeThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .filter(t -> t.getName().startsWith("lake-") && !t.getName().startsWith("lake-vector"))
        .collect(Collectors.toSet());
  }
}
