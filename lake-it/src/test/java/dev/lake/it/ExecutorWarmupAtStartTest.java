package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.lake.flight.config.ConfigLoader;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 22 (cold runs): a node started with {@code query.warmup-rows} runs the executor warm-up before it reports
 * ready and before its first real query of a registered table, leaves no warm-up table behind and no column in the
 * node's column cache, and then answers its tables as before.
 */
class ExecutorWarmupAtStartTest {
  @TempDir
  Path dataDir;

  @Test
  void aStartedNodeWarmsItsExecutorBeforeReady() throws Exception {
    try (LakeTestServer first = LakeTestServer.start(dataDir); FlightTestClient client = first.client()) {
      LongTable.ingest(client, "t", 0, 1_000, FlightTestClient.create());
    }
    Logger logger = (Logger) LoggerFactory.getLogger("dev.lake.flight.StartupWarmup");
    ListAppender<ILoggingEvent> events = new ListAppender<>();
    events.start();
    logger.addAppender(events);
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> { }, Map.of("query.warmup-rows", "8192"));
        FlightTestClient client = server.client()) {
      // start() returns once the first warm-up attempt ended: the executor phase has run by now.
      List<String> phases = events.list.stream().map(ILoggingEvent::getFormattedMessage)
          .filter(m -> m.startsWith("start-up phase=")).toList();
      assertThat(phases).as("the start-up phases, in order").hasSizeGreaterThanOrEqualTo(4);
      assertThat(phases.get(0)).startsWith("start-up phase=catalog");
      assertThat(phases.get(1)).startsWith("start-up phase=executor").contains("rows=8192")
          .contains("runs=" + dev.lake.query.ExecutorWarmup.runs());
      assertThat(phases.get(2)).startsWith("start-up phase=first-query");
      assertThat(phases.get(3)).startsWith("start-up phase=ready").contains("executor=");
      assertThat(Files.exists(dataDir.resolve("warmup"))).as("the warm-up's scratch directory is deleted").isFalse();
      assertThat(server.server().openHandles()).as("Lance handles left open by the warm-up").isZero();
      var registry = server.server().metrics().registry();
      assertThat(registry.get("lake.column.cache.misses").functionCounter().count())
          .as("columns the warm-up read into the node's cache").isZero();
      assertThat(registry.get("lake.column.cache.size").gauge().value()).isZero();
      assertThat(LongTable.values(client, "t")).hasSize(1_000);
    } finally {
      logger.detachAppender(events);
    }
  }

  @Test
  void tooFewWarmupRowsAreRefused() {
    assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(),
        Map.of("data.dir", dataDir.toString(), "query.warmup-rows", "100")))
        .hasMessageContaining("query.warmup-rows must be 0");
  }
}
