package dev.lake.it.tpch;

import dev.lake.it.support.PythonClients;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The pyarrow clients of {@code bin/lake bench point}: one Python process per client
 * ({@code lake-it/src/test/python/point_client.py}, the repository's venv in {@code .lake-venv/}, property
 * {@code lake.python.venv} moves it), each connecting on its own, then all started at one wall-clock instant. Each
 * process checks its answers and writes the latencies of the queries after the warm-up; they are merged here.
 */
final class PyarrowPointClients {
  private static final int KEY_SAMPLE = 20_000;
  private static final long READY_SECONDS = 120;
  private static final long EXIT_SLACK_SECONDS = 60;
  private static final long START_DELAY_NANOS = 200_000_000L;

  private final PythonClients python;
  private final String pythonPath;
  private final Path script;
  private final Path keys;
  private final Path work;
  private int cases;

  private PyarrowPointClients(PythonClients python, String pythonPath, Path script, Path keys, Path work) {
    this.python = python;
    this.pythonPath = pythonPath;
    this.script = script;
    this.keys = keys;
    this.work = work;
  }

  /** The venv (created on first use), the compiled Flight SQL messages and a sample of {@code keys} under work. */
  static PyarrowPointClients create(Path root, Path work, long[] keys) throws IOException, InterruptedException {
    PythonClients python = PythonClients.ensure(Path.of(System.getProperty("lake.python.venv",
        root.resolve(".lake-venv").toString())));
    Path generated = python.compileFlightSql(work.resolve("flightsql"));
    Path suite = root.resolve("lake-it/src/test/python");
    Random random = new Random(22);
    StringBuilder sample = new StringBuilder();
    for (int i = 0; i < Math.min(KEY_SAMPLE, keys.length); i++) {
      sample.append(keys[random.nextInt(keys.length)]).append('\n');
    }
    Path keyFile = work.resolve("point-keys.txt");
    Files.writeString(keyFile, sample, StandardCharsets.UTF_8);
    return new PyarrowPointClients(python, generated + ":" + suite, suite.resolve("point_client.py"), keyFile, work);
  }

  /**
   * {@code n} processes asking {@code byKey} (else the priority query), {@code prepared} (else un-prepared statements
   * with the value in the SQL text), for {@code warmUpSeconds} unrecorded and then {@code seconds} recorded.
   */
  PointBenchmark.Result measure(int port, boolean byKey, boolean prepared, int n, int warmUpSeconds, int seconds)
      throws IOException, InterruptedException {
    List<Process> processes = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    List<Path> errors = new ArrayList<>();
    ExecutorService readers = Executors.newFixedThreadPool(n, r -> {
      Thread thread = new Thread(r, "point-pyarrow-ready");
      thread.setDaemon(true);
      return thread;
    });
    cases++;
    try {
      for (int c = 0; c < n; c++) {
        String name = "point-" + cases + "-" + (byKey ? "key" : "priority") + "-" + (prepared ? "prepared"
            : "statement") + "-" + n + "-client-" + c;
        Path out = work.resolve(name + ".txt");
        Path err = work.resolve(name + ".err");
        Files.deleteIfExists(out);
        ProcessBuilder builder = new ProcessBuilder(python.python().toString(), script.toString(),
            "--url", "grpc://127.0.0.1:" + port, "--mode", prepared ? "prepared" : "statement",
            "--query", byKey ? "key" : "priority", "--keys", keys.toString(),
            "--warmup", Integer.toString(warmUpSeconds), "--seconds", Integer.toString(seconds),
            "--seed", Integer.toString(c + 1), "--out", out.toString())
            .redirectError(err.toFile());
        builder.environment().put("PYTHONPATH", pythonPath);
        builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        processes.add(builder.start());
        outputs.add(out);
        errors.add(err);
      }
      List<Future<String>> ready = new ArrayList<>();
      for (Process p : processes) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        ready.add(readers.submit(reader::readLine));
      }
      for (int c = 0; c < n; c++) {
        String line;
        try {
          line = ready.get(c).get(READY_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
          line = null;
        }
        if (!"ready".equals(line)) {
          throw new IllegalStateException("pyarrow client " + c + " did not get ready (" + line + "): "
              + Files.readString(errors.get(c)));
        }
      }
      Instant now = Instant.now();
      long start = now.getEpochSecond() * 1_000_000_000L + now.getNano() + START_DELAY_NANOS;
      for (Process p : processes) {
        Writer go = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
        go.write("go " + start + "\n");
        go.flush();
      }
      for (int c = 0; c < n; c++) {
        Process p = processes.get(c);
        if (!p.waitFor(warmUpSeconds + seconds + EXIT_SLACK_SECONDS, TimeUnit.SECONDS)) {
          throw new IllegalStateException("pyarrow client " + c + " did not finish in time");
        }
        if (p.exitValue() != 0) {
          throw new IllegalStateException("pyarrow client " + c + " failed (exit " + p.exitValue() + "): "
              + Files.readString(errors.get(c)));
        }
      }
      return merge(outputs, start + warmUpSeconds * 1_000_000_000L);
    } finally {
      for (Process p : processes) {
        if (p.isAlive()) {
          p.destroyForcibly();
          p.waitFor(10, TimeUnit.SECONDS);
        }
      }
      readers.shutdownNow();
    }
  }

  private static PointBenchmark.Result merge(List<Path> outputs, long warmUntil) throws IOException {
    long finished = warmUntil;
    List<Long> all = new ArrayList<>();
    for (Path out : outputs) {
      List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
      if (lines.isEmpty() || !lines.get(0).startsWith("finished ")) {
        throw new IllegalStateException(out + " has no 'finished' line");
      }
      finished = Math.max(finished, Long.parseLong(lines.get(0).split(" ")[1])); // finished NS cpu NS
      for (String line : lines.subList(1, lines.size())) {
        if (line.startsWith("#")) {
          continue; // a warm-up query
        }
        all.add(Long.parseLong(line.split(" ", 2)[0]));
      }
    }
    long[] nanos = all.stream().mapToLong(Long::longValue).toArray();
    return new PointBenchmark.Result(nanos, nanos.length, Math.max(1e-9, (finished - warmUntil) / 1e9));
  }
}
