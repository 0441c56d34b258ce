package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeCli;
import dev.lake.it.support.ServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive the package phase builds (lake-flight-server/target/lake-VERSION.tar.gz), unpacked and run
 * with nothing but Java and the base system on the PATH: no mvn, no mvnw, no source tree.
 */
class ReleaseArchiveTest {
  @TempDir
  Path dir;

  /** Removes the PATH's symbolic links before JUnit deletes the temp dir (it warns about each one otherwise). */
  @org.junit.jupiter.api.AfterEach
  void removeLinks() throws IOException {
    Path base = dir.resolve("path-without-maven");
    if (Files.isDirectory(base)) {
      try (Stream<Path> links = Files.list(base)) {
        for (Path link : links.toList()) {
          Files.delete(link);
        }
      }
    }
  }

  @Test
  void releaseArchiveRunsWithoutMaven() throws Exception {
    Path archive = archive();
    Path jar = ServerProcess.projectRoot().resolve("lake-flight-server/target/lake-server.jar");
    assertThat(Files.getLastModifiedTime(archive)).as("%s is older than %s: it was not rebuilt with the code "
        + "(run the package phase without -Dassembly.skipAssembly)", archive, jar)
        .isGreaterThanOrEqualTo(Files.getLastModifiedTime(jar));
    Path unpacked = dir.resolve("release");
    Files.createDirectories(unpacked);
    run(List.of("tar", "-xzf", archive.toString(), "-C", unpacked.toString()), env -> { });
    Path home;
    try (Stream<Path> top = Files.list(unpacked)) {
      home = top.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    assertThat(home.resolve("lib/lake-server.jar")).isRegularFile();
    assertThat(home.resolve("lake.yaml")).isRegularFile();
    assertThat(home.resolve("docs/config.md")).isRegularFile();
    assertThat(home.resolve("README.md")).isRegularFile();
    try (Stream<Path> sql = Files.list(home.resolve("lib/sql"))) {
      assertThat(sql.map(p -> p.getFileName().toString()).toList())
          .anyMatch(n -> n.startsWith("sqlline-")).anyMatch(n -> n.startsWith("flight-sql-jdbc-driver-"));
    }
    assertThat(home.resolve("mvnw")).doesNotExist();

    Consumer<Map<String, String>> noMaven = noMavenEnvironment();
    Map<String, String> probe = new java.util.HashMap<>(System.getenv());
    noMaven.accept(probe);
    assertThat(run(List.of("bash", "-c", "command -v mvn || command -v mvnw || command -v mvnDebug"), env -> {
      env.clear();
      env.putAll(probe);
    })).as("mvn is not on the stripped PATH").isNotZero();

    Path script = home.resolve("bin/lake");
    try (ServerProcess server = ServerProcess.start(script, noMaven, "--data-dir", dir.resolve("data").toString(),
        "--port", "0", "--demo")) {
      assertThat(server.jvm().info().commandLine().orElse("")).as("the server runs the archive's jar")
          .contains(home.resolve("lib/lake-server.jar").toString());
      try (FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
        assertThat(client.count("nation")).isEqualTo(25);
      }
      LakeCli cli = LakeCli.at(script, noMaven);
      LakeCli.Result tables = cli.run("tables", "--port", Integer.toString(server.port()));
      assertThat(tables.exitCode()).as("%s", tables).isZero();
      assertThat(tables.lines()).as("%s", tables).contains("lineitem", "nation", "region");
      LakeCli.Result sql = cli.runWithInput("SELECT count(*) AS n FROM region;\n!quit\n", "sql",
          "jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false");
      assertThat(sql.exitCode()).as("%s", sql).isZero();
      assertThat(sql.stdout()).as("%s", sql).containsPattern("\\|\\s*5\\s*\\|");
      assertThat(server.stop()).as("clean exit on SIGTERM").isZero();
    }
  }

  /** The environment of a machine with Java and the base system only: PATH = java's bin + /usr/bin, /bin minus Maven. */
  private Consumer<Map<String, String>> noMavenEnvironment() throws IOException {
    Path base = dir.resolve("path-without-maven");
    Files.createDirectories(base);
    for (String system : List.of("/usr/bin", "/bin")) {
      try (Stream<Path> tools = Files.list(Path.of(system))) {
        for (Path tool : tools.toList()) {
          String name = tool.getFileName().toString();
          Path link = base.resolve(name);
          if (!name.startsWith("mvn") && !Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(link, tool);
          }
        }
      }
    }
    String path = Path.of(System.getProperty("java.home"), "bin") + ":" + base;
    return env -> {
      env.keySet().removeIf(k -> k.startsWith("MAVEN") || k.equals("M2_HOME") || k.equals("JAVA_HOME"));
      env.put("PATH", path);
    };
  }

  private static Path archive() throws IOException {
    Path target = ServerProcess.projectRoot().resolve("lake-flight-server/target");
    try (Stream<Path> files = Files.list(target)) {
      return files.filter(p -> p.getFileName().toString().matches("lake-.*\\.tar\\.gz")).findFirst()
          .orElseThrow(() -> new IllegalStateException("no release archive in " + target
              + ": build it with ./mvnw package (the package phase of lake-flight-server)"));
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IllegalStateException("no " + target + ": build with ./mvnw package first", e);
    }
  }

  private static int run(List<String> command, Consumer<Map<String, String>> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    env.accept(pb.environment());
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(command + " did not finish in 120 s");
    }
    return p.exitValue();
  }
}
