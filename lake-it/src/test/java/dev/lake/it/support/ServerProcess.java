package dev.lake.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/lake server ...} as a separate process, the way a user starts it. Waits (bounded) for its
 * {@code listening on HOST:PORT} line; {@link #stop()} sends SIGTERM and waits for a clean exit.
 */
public final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("listening on ([^:\\s]+):(\\d+)");
  private final Process process;
  private final List<String> output = Collections.synchronizedList(new ArrayList<>());
  private final int port;
  /** Every line the server printed so far (the reader thread keeps appending). */
  private volatile List<String> live = List.of();

  private ServerProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Everything the server printed so far (stdout and stderr), also after start-up. */
  public List<String> output() {
    List<String> lines = live;
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  public static Path projectRoot() {
    String configured = System.getProperty("lake.project.root");
    Path p = configured != null ? Path.of(configured) : Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("mvnw"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("cannot find the project root (the directory holding mvnw)");
    }
    return p;
  }

  public static ServerProcess start(String... args) throws IOException, InterruptedException {
    return start(java.util.Map.of(), args);
  }

  /** Starts {@code bin/lake server args...} with extra environment variables (e.g. LAKE_JAVA_OPTS). */
  public static ServerProcess start(java.util.Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    return start(projectRoot().resolve("bin/lake"), environment -> environment.putAll(env), args);
  }

  /** Starts {@code script server args...} (another copy of bin/lake) with the environment {@code edit} makes. */
  public static ServerProcess start(Path script, java.util.function.Consumer<java.util.Map<String, String>> edit,
      String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(script.toString());
    command.add("server");
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("LAKE_TMPDIR", Path.of(System.getProperty("java.io.tmpdir")).resolve("lake-bin").toString());
    // tests start many servers side by side: none commits and touches its whole heap at start unless a test asks
    pb.environment().put("LAKE_HEAP_PRETOUCH", "false");
    edit.accept(pb.environment());
    Process process = pb.start();
    List<String> output = Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<Integer> port = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          output.add(line);
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            port.complete(Integer.parseInt(m.group(2)));
          }
        }
      } catch (IOException e) {
        port.completeExceptionally(e);
      }
      port.completeExceptionally(new IllegalStateException("the server exited before listening: " + output));
    }, "lake-server-output");
    reader.setDaemon(true);
    reader.start();
    try {
      int p = port.get(180, TimeUnit.SECONDS);
      ServerProcess sp = new ServerProcess(process, p);
      sp.output.addAll(output);
      sp.live = output;
      return sp;
    } catch (Exception e) {
      process.destroyForcibly();
      throw new IllegalStateException("the server did not start: " + output, e);
    }
  }

  /** Everything the server printed until it listened (stdout and stderr). */
  public List<String> startupOutput() {
    synchronized (output) {
      return List.copyOf(output);
    }
  }

  public int port() {
    return port;
  }

  public Process process() {
    return process;
  }

  /** The server JVM (a child of the bin/lake script). */
  public ProcessHandle jvm() {
    return process.toHandle().descendants().filter(h -> h.info().command().map(c -> c.endsWith("java"))
        .orElse(false)).findFirst().orElseThrow(() -> new IllegalStateException("no server JVM found"));
  }

  /** The server JVM's peak resident set size so far, in bytes (Linux VmHWM). */
  public long peakRssBytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(jvm().pid()), "status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    throw new IllegalStateException("no VmHWM in /proc status");
  }

  /** SIGTERM, then wait for exit; returns the exit code. */
  public int stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("the server did not stop within 60 s of SIGTERM");
    }
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      stop();
    }
  }
}
