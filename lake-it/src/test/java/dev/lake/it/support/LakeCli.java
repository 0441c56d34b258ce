package dev.lake.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Runs {@code bin/lake <command> ...} as a separate process, the way a user does, and captures what it prints. */
public final class LakeCli {
  private static final long TIMEOUT_SECONDS = 180;
  private final Path script;
  private final Consumer<Map<String, String>> environment;

  private LakeCli(Path script, Consumer<Map<String, String>> environment) {
    this.script = script;
    this.environment = environment;
  }

  /** The source checkout's bin/lake. */
  public static LakeCli project() {
    return new LakeCli(ServerProcess.projectRoot().resolve("bin/lake"), env -> { });
  }

  /** Another bin/lake (an unpacked release) with the environment {@code environment} makes. */
  public static LakeCli at(Path script, Consumer<Map<String, String>> environment) {
    return new LakeCli(script, environment);
  }

  /** What a run printed and how it ended. */
  public record Result(int exitCode, String stdout, String stderr) {
    public List<String> lines() {
      return stdout.lines().toList();
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout:\n" + stdout + "--- stderr:\n" + stderr;
    }
  }

  public Result run(String... args) throws IOException, InterruptedException {
    return runWithInput(null, args);
  }

  /** Runs with {@code stdin} (or none) on standard input. */
  public Result runWithInput(String stdin, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(script.toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("LAKE_TMPDIR", Path.of(System.getProperty("java.io.tmpdir")).resolve("lake-bin").toString());
    environment.accept(pb.environment());
    Process process = pb.start();
    CompletableFuture<String> out = drain(process.getInputStream());
    CompletableFuture<String> err = drain(process.getErrorStream());
    try (var in = process.getOutputStream()) {
      if (stdin != null) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
    }
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("bin/lake " + String.join(" ", args) + " did not finish in "
          + TIMEOUT_SECONDS + " s");
    }
    return new Result(process.exitValue(), out.join(), err.join());
  }

  /** Reads a stream to its end on its own thread (never the common pool: both pipes must drain at once). */
  private static CompletableFuture<String> drain(InputStream stream) {
    CompletableFuture<String> text = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (InputStream s = stream) {
        text.complete(new String(s.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        text.complete("<unreadable: " + e.getMessage() + ">");
      }
    }, "lake-cli-output");
    reader.setDaemon(true);
    reader.start();
    return text;
  }
}
