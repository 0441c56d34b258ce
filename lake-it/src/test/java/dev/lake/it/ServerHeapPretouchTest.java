package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/lake server} commits and touches its whole heap when its JVM starts ({@code LAKE_HEAP_PRETOUCH}, default
 * true; docs/operations.md, "Heap"): the initial heap is the maximum heap and every page is resident before the node
 * serves, so a cold node's first queries do not pay the kernel's first touch of the memory they fill. Off, the heap
 * grows on demand; a value other than true or false is refused before a JVM starts.
 */
class ServerHeapPretouchTest {
  private static final long HEAP = 384L << 20;

  @TempDir
  Path dir;

  @Test
  void theServersHeapIsResidentBeforeItServesUnlessTurnedOff() throws Exception {
    try (ServerProcess server = ServerProcess.start(Map.of("LAKE_HEAP_PRETOUCH", "true", "LAKE_JAVA_OPTS",
        "-Xmx" + (HEAP >> 20) + "m"), "--data-dir", dir.resolve("on").toString(), "--port", "0")) {
      assertThat(arguments(server)).as("the server JVM's arguments").contains("-XX:+AlwaysPreTouch",
          "-XX:InitialRAMPercentage=100", "-XX:MaxHeapFreeRatio=100");
      assertThat(server.peakRssBytes()).as("resident bytes of a server whose %d MB heap is touched", HEAP >> 20)
          .isGreaterThan(HEAP);
    }
    try (ServerProcess server = ServerProcess.start(Map.of("LAKE_HEAP_PRETOUCH", "false", "LAKE_JAVA_OPTS",
        "-Xmx" + (HEAP >> 20) + "m"), "--data-dir", dir.resolve("off").toString(), "--port", "0")) {
      assertThat(arguments(server)).as("the server JVM's arguments").doesNotContain("-XX:+AlwaysPreTouch",
          "-XX:InitialRAMPercentage=100", "-XX:MaxHeapFreeRatio=100");
    }
    ProcessBuilder bad = new ProcessBuilder(ServerProcess.projectRoot().resolve("bin/lake").toString(), "server",
        "--data-dir", dir.resolve("bad").toString(), "--port", "0").redirectErrorStream(true);
    bad.environment().put("LAKE_HEAP_PRETOUCH", "yes");
    Process refused = bad.start();
    refused.getOutputStream().close();
    // bounded: the script refuses before it starts a JVM
    assertThat(refused.waitFor(60, TimeUnit.SECONDS)).as("bin/lake server refused within 60 s").isTrue();
    String output = new String(refused.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(refused.exitValue()).as(output).isEqualTo(2);
    assertThat(output).contains("LAKE_HEAP_PRETOUCH must be true or false, not 'yes'");
    assertThat(dir.resolve("bad")).doesNotExist();
  }

  /** The server JVM's command line (Linux /proc). */
  private static List<String> arguments(ServerProcess server) throws Exception {
    byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(server.jvm().pid()), "cmdline"));
    List<String> args = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < raw.length; i++) {
      if (raw[i] == 0) {
        args.add(new String(raw, start, i - start, java.nio.charset.StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    return args;
  }
}
