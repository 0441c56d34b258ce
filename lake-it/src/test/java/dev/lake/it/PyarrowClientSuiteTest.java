package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.PythonClients;
import dev.lake.it.support.ServerProcess;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pyarrow client suite ({@code lake-it/src/test/python/test_pyarrow_client.py}): Python tests driving a real
 * {@code bin/lake server} (free port, its own data directory) with {@code pyarrow.flight} and Flight SQL messages
 * compiled from Arrow's .proto files. The virtual environment is created on first use in {@code .lake-venv/} of the
 * checkout (property {@code lake.python.venv} moves it). Any failing Python test fails this test, with the suite's
 * output in the message.
 */
class PyarrowClientSuiteTest {
  private static final long SUITE_MINUTES = 20;

  @TempDir
  Path dir;

  @Test
  void pyarrowClientSuite() throws Exception {
    Path root = ServerProcess.projectRoot();
    PythonClients python = PythonClients.ensure(Path.of(System.getProperty("lake.python.venv",
        root.resolve(".lake-venv").toString())));
    Path generated = python.compileFlightSql(dir.resolve("flightsql"));
    Path suite = root.resolve("lake-it/src/test/python");
    String dataDir = dir.resolve("lake-data").toString();
    try (ServerProcess server = ServerProcess.start("--data-dir", dataDir, "--port", "0")) {
      PythonClients.Result result = python.run(
          List.of(python.python().toString(), "-m", "unittest", "-v", "test_pyarrow_client"),
          Map.of("PYTHONPATH", generated + ":" + suite,
              "LAKE_URL", "grpc://127.0.0.1:" + server.port(),
              "LAKE_USER", "lake", "LAKE_PASSWORD", "lake",
              "LAKE_DATA_DIR", dataDir,
              "LAKE_PROJECT_ROOT", root.toString(),
              "PYTHONDONTWRITEBYTECODE", "1"),
          SUITE_MINUTES);
      System.out.println(result.output());
      assertThat(result.exitCode()).as("the pyarrow client suite failed:\n%s", result.output()).isZero();
    }
  }
}
