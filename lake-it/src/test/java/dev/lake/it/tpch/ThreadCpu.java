package dev.lake.it.tpch;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * CPU time of this process's threads, Java and native (Lance's tokio threads) alike, read from
 * {@code /proc/self/task}: for probes and benchmark logs that say where a phase's CPU went. Thread names have their
 * digits replaced by {@code #}, so {@code lake-vector-0} and {@code lake-vector-1} add up.
 */
final class ThreadCpu {
  private static final long NANOS_PER_TICK = 10_000_000L;

  private final Map<String, Long> nanosByGroup;
  private final long processNanos;

  private ThreadCpu(Map<String, Long> nanosByGroup, long processNanos) {
    this.nanosByGroup = nanosByGroup;
    this.processNanos = processNanos;
  }

  /** The CPU of every thread group now (threads that already ended are not counted). */
  static ThreadCpu now() {
    Map<String, Long> byGroup = new TreeMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          String stat = Files.readString(task.resolve("stat"));
          int open = stat.indexOf('(');
          int close = stat.lastIndexOf(')');
          String name = stat.substring(open + 1, close).replaceAll("[0-9]+", "#");
          String[] fields = stat.substring(close + 2).split(" ");
          long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
          byGroup.merge(name, ticks * NANOS_PER_TICK, Long::sum);
        } catch (IOException | RuntimeException e) {
          // a thread that ended between the listing and the read
        }
      }
    } catch (IOException e) {
      // no /proc (not Linux): nothing to say
    }
    long process = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
    return new ThreadCpu(byGroup, process);
  }

  /** The process's CPU since {@code before}, in ms. */
  long processMillisSince(ThreadCpu before) {
    return (processNanos - before.processNanos) / 1_000_000;
  }

  /** The thread groups whose CPU grew since {@code before}, as {@code name=ms}, biggest first, at most {@code n}. */
  String groupsSince(ThreadCpu before, int n) {
    return nanosByGroup.entrySet().stream()
        .map(e -> Map.entry(e.getKey(), (e.getValue() - before.nanosByGroup.getOrDefault(e.getKey(), 0L)) / 1_000_000))
        .filter(e -> e.getValue() > 0)
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .limit(n)
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(" "));
  }
}
