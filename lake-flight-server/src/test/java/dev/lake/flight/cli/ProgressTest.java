package dev.lake.flight.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.dataset.file.FileFormat;
import org.junit.jupiter.api.Test;

class ProgressTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong now = new AtomicLong(100 * SECOND);
  private final StringWriter text = new StringWriter();
  private final SourceFile file = new SourceFile(Path.of("/data/a.csv"), FileFormat.CSV, 2048);

  @Test
  void plainLinesShowRowsBytesRateAndEtaAtMostOncePerInterval() {
    Progress progress = new Progress(new PrintWriter(text), false, Duration.ofSeconds(2), now::get, 1000);
    progress.file(file);
    now.addAndGet(SECOND);
    progress.batch(100, 1024);            // 1 s since the start: under the 2 s interval, nothing printed
    now.addAndGet(SECOND);
    progress.batch(100, 1024);            // 2 s: printed
    now.addAndGet(3 * SECOND);
    progress.batch(300, 3 * 1024);        // 5 s: printed
    progress.done("t", 500);
    assertThat(text.toString().lines().toList()).containsExactly(
        "reading a.csv (csv, 2.0 KiB)",
        " 20.0% 200/1,000 rows  2.0 KiB  100 rows/s  1.0 KiB/s  ETA 0:08",
        " 50.0% 500/1,000 rows  5.0 KiB  100 rows/s  1.0 KiB/s  ETA 0:05",
        "ingested 500 rows (5.0 KiB) into t in 5.0 s (100 rows/s)");
  }

  @Test
  void eachFileEndsWithALineEvenBetweenIntervals() {
    Progress progress = new Progress(new PrintWriter(text), false, Duration.ofMinutes(1), now::get, -1);
    progress.file(file);
    progress.batch(10, 100);
    progress.file(file);
    progress.batch(5, 50);
    progress.done("t", 15);
    assertThat(text.toString().lines().filter(l -> l.contains(" rows  ")).toList())
        .as("no total: no percentage and no ETA")
        .allMatch(l -> !l.contains("%") && !l.contains("ETA")).hasSize(2);
  }

  @Test
  void terminalRedrawsOneBarLine() {
    Progress progress = new Progress(new PrintWriter(text), true, Duration.ofSeconds(2), now::get, 100);
    progress.file(file);
    now.addAndGet(SECOND);
    progress.batch(50, 1000);
    progress.done("t", 50);
    assertThat(text.toString()).startsWith("\r[###############...............]  50.0% 50/100 rows")
        .contains("ETA 0:01").doesNotContain("reading");
  }

  @Test
  void sizesAndDurationsAreReadable() {
    assertThat(Progress.bytes(512)).isEqualTo("512 B");
    assertThat(Progress.bytes(5L << 30)).isEqualTo("5.0 GiB");
    assertThat(Progress.duration(75)).isEqualTo("1:15");
    assertThat(Progress.duration(3 * 3600 + 61)).isEqualTo("3:01:01");
  }
}
