package dev.lake.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Python side of the real-client suites: a virtual environment with pyarrow, pandas, DuckDB, protobuf and
 * grpcio-tools, created on first use from the machine's pip index ({@code python3 -m venv}, {@code pip install}), and
 * the Flight SQL messages compiled from the {@code Flight.proto} / {@code FlightSql.proto} that Arrow's own
 * {@code flight-core} jar on the test class path carries (so they are always the Arrow version lake is built on).
 */
public final class PythonClients {
  /** What the suite imports; pip picks versions from the machine's index (pyarrow 25, pandas 3, duckdb 1.5 here). */
  public static final List<String> PACKAGES = List.of("pyarrow", "pandas", "duckdb", "protobuf", "grpcio",
      "grpcio-tools");
  private static final String CHECK = "import pyarrow.flight, pandas, duckdb, grpc_tools.protoc, google.protobuf";
  private static final long INSTALL_MINUTES = 30;

  private final Path venv;

  private PythonClients(Path venv) {
    this.venv = venv;
  }

  /** The environment at {@code venv}, created (or repaired) first if it cannot import the suite's packages. */
  public static PythonClients ensure(Path venv) throws IOException, InterruptedException {
    PythonClients clients = new PythonClients(venv);
    if (Files.isExecutable(clients.python()) && clients.run(List.of(clients.python().toString(), "-c", CHECK),
        Map.of(), 5).exitCode() == 0) {
      return clients;
    }
    Files.createDirectories(venv.getParent());
    Result created = clients.run(List.of("python3", "-m", "venv", "--clear", venv.toString()), Map.of(), 5);
    if (created.exitCode() != 0) {
      throw new IllegalStateException("python3 -m venv failed (is python3-venv installed?):\n" + created);
    }
    List<String> pip = new ArrayList<>(List.of(clients.python().toString(), "-m", "pip", "install",
        "--disable-pip-version-check", "--retries", "1", "--timeout", "30"));
    pip.addAll(PACKAGES);
    Result installed = clients.run(pip, Map.of(), INSTALL_MINUTES);
    if (installed.exitCode() != 0) {
      throw new IllegalStateException("pip install " + PACKAGES + " failed:\n" + installed);
    }
    return clients;
  }

  public Path python() {
    return venv.resolve("bin/python");
  }

  /**
   * Writes Arrow's Flight.proto and FlightSql.proto (from the class path) into {@code out} and compiles them there
   * with grpcio-tools' protoc into {@code Flight_pb2.py} and {@code FlightSql_pb2.py}; returns {@code out}.
   */
  public Path compileFlightSql(Path out) throws IOException, InterruptedException {
    Files.createDirectories(out);
    for (String proto : List.of("Flight.proto", "FlightSql.proto")) {
      try (InputStream in = org.apache.arrow.flight.FlightClient.class.getClassLoader().getResourceAsStream(proto)) {
        if (in == null) {
          throw new IllegalStateException(proto + " is not on the class path (Arrow's flight-core jar holds it)");
        }
        Files.copy(in, out.resolve(proto), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Result compiled = run(List.of(python().toString(), "-m", "grpc_tools.protoc", "-I" + out, "--python_out=" + out,
        out.resolve("Flight.proto").toString(), out.resolve("FlightSql.proto").toString()), Map.of(), 5);
    if (compiled.exitCode() != 0) {
      throw new IllegalStateException("protoc failed:\n" + compiled);
    }
    return out;
  }

  /** Runs {@code command} with {@code env} added, bounded by {@code minutes}; stdout and stderr together. */
  public Result run(List<String> command, Map<String, String> env, long minutes)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect
        .from(new java.io.File("/dev/null")));
    pb.environment().putAll(env);
    Process process = pb.start();
    java.util.concurrent.CompletableFuture<String> output = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try (InputStream in = process.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "(output unreadable: " + e + ")";
      }
    });
    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
      return new Result(-1, "timed out after " + minutes + " min: " + command + "\n" + output.getNow(""));
    }
    try {
      return new Result(process.exitValue(), output.get(60, TimeUnit.SECONDS));
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      return new Result(process.exitValue(), "(output unreadable: " + e + ")");
    }
  }

  /** How a command ended and what it printed. */
  public record Result(int exitCode, String output) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n" + output;
    }
  }
}
