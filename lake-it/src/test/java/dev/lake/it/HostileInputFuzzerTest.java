package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.fuzz.HostileInputFuzzer;
import dev.lake.it.fuzz.HostileInputFuzzer.Outcome;
import dev.lake.it.fuzz.HostileInputFuzzer.Report;
import dev.lake.it.support.ConfiguredServer;
import dev.lake.it.support.ConfiguredServer.TestUser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-suite run of lake's hostile-input fuzzer against a real node (fixed seeds): every answer is one docs/api.md
 * allows for its request class, within the deadline, with the lake-code trailer and without server internals in its
 * message; refused ingests leave the table unchanged; the node keeps answering well-formed queries. The first run
 * also replays the fuzzer's fixed cases (requests earlier runs found answered wrongly or fatally).
 */
class HostileInputFuzzerTest {
  private static final int REQUESTS = Integer.getInteger("lake.fuzz.requests", 1_000);

  @TempDir
  Path dataDir;

  private Report fuzz(long seed, boolean fixedCases) throws Exception {
    // The login throttle keeps its defaults: the fuzzer's bad credentials come from the loopback address its good
    // requests use too, which send its bearer token (no login) and accept the throttle's answer where they log in.
    try (ConfiguredServer server = ConfiguredServer.start(dataDir, List.of(new TestUser("lake", "lake", "admin")),
        Map.of("ingest.first-message-timeout", "2s", "query.timeout", "20s"), b -> { })) {
      HostileInputFuzzer fuzzer = new HostileInputFuzzer("127.0.0.1", server.port(), "lake", "lake",
          Duration.ofSeconds(30), List.of(dataDir.toString(), dataDir.toRealPath().toString()));
      if (!fixedCases) {
        fuzzer.withoutFixedCases();
      }
      try {
        Report report = fuzzer.run(seed, REQUESTS, -1);
        System.out.print(report.summary());
        return report;
      } finally {
        fuzzer.close();
      }
    }
  }

  @Test
  @Timeout(value = 900, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void hostileInputFuzzerFindsNothing() throws Exception {
    Report report = fuzz(16, true);
    assertThat(report.outcomes()).hasSizeGreaterThanOrEqualTo(REQUESTS);
    assertThat(report.failures()).as(report.summary()).isEmpty();
  }

  @Test
  @Timeout(value = 900, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void errorMessagesNeverLeakInternals() throws Exception {
    Report report = fuzz(1616, false);
    List<Outcome> refused = report.outcomes().stream().filter(o -> !o.code().equals("OK")).toList();
    assertThat(refused).as("the fuzzer's refused requests").hasSizeGreaterThan(REQUESTS / 4);
    List<Outcome> leaks = report.failures().stream()
        .filter(o -> o.failure() != null && o.failure().startsWith("the message leaks")).toList();
    assertThat(leaks).as(report.summary()).isEmpty();
  }
}
