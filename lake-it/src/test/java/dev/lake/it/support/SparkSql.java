package dev.lake.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Apache Spark ({@code local[2]}) in a child JVM on the spark-reader module's own class path (lance-spark 0.4.0,
 * lance-core 4.0.0, Spark 3.5.9: they cannot share this JVM's class path), driven line by line through
 * {@code dev.lake.spark.SparkSqlRunner}. Every wait is bounded; {@link #close()} stops the process it started.
 */
public final class SparkSql implements AutoCloseable {
  /** lance-spark's --add-opens list for Java 17 (its root pom's surefire argLine). */
  private static final List<String> OPENS = List.of("java.lang", "java.lang.invoke", "java.lang.reflect", "java.io",
      "java.net", "java.nio", "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "jdk.internal.ref",
      "sun.nio.ch", "sun.nio.cs", "sun.security.action", "sun.util.calendar");
  private static final long START_SECONDS = 600;
  /** The longest wait for one statement's answer; {@code -Dlake.it.spark.statement-seconds} shortens it. */
  private static final long STATEMENT_SECONDS = Long.getLong("lake.it.spark.statement-seconds", 900);

  private final Process process;
  private final Writer stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> transcript = new ArrayList<>();

  /** One statement's answer: its rows (tab-separated values) or the error line. */
  public record Answer(List<List<String>> rows, String error, String status) {
    public boolean failed() {
      return error != null;
    }
  }

  private SparkSql(Process process) {
    this.process = process;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("-- ERROR the Spark process's output ended: " + e.getMessage());
      }
      lines.add("-- EOF");
    }, "spark-sql-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts Spark with these {@code --conf} settings; its log goes to {@code workDir/spark.log}. */
  public static SparkSql start(Path workDir, Map<String, String> conf) throws Exception {
    Path root = Path.of(System.getProperty("lake.project.root", "."));
    Path module = root.resolve("lake-it/spark-reader/target");
    Path classpathFile = module.resolve("spark-classpath.txt");
    if (!Files.isRegularFile(classpathFile) || !Files.isDirectory(module.resolve("classes"))) {
      throw new IllegalStateException("the Spark reader is not built: " + classpathFile + " is missing; build the "
          + "lake-it/spark-reader module (the root reactor builds it before lake-it)");
    }
    Path tmp = Files.createDirectories(workDir.resolve("tmp"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    OPENS.forEach(p -> command.add("--add-opens=java.base/" + p + "=ALL-UNNAMED"));
    command.add("--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED");
    command.addAll(Arrays.asList("-Dio.netty.tryReflectionSetAccessible=true", "-Xmx1g", "-XX:+UseSerialGC",
        "-Djava.io.tmpdir=" + tmp, "-Duser.timezone=UTC", "-Dspark.local.dir=" + tmp,
        "-cp", module.resolve("classes") + java.io.File.pathSeparator + Files.readString(classpathFile).strip(),
        "dev.lake.spark.SparkSqlRunner"));
    conf.forEach((k, v) -> {
      command.add("--conf");
      command.add(k + "=" + v);
    });
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(workDir.resolve("spark.log").toFile());
    pb.environment().put("TZ", "UTC");
    SparkSql spark = new SparkSql(pb.start());
    spark.awaitReady();
    return spark;
  }

  private void awaitReady() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
    while (true) {
      String line = next(deadline, "Spark to start");
      transcript.add(line);
      if (line.startsWith("-- READY")) {
        return;
      }
      if (line.startsWith("-- EOF")) {
        throw new IllegalStateException("Spark exited during start-up (see spark.log)");
      }
    }
  }

  /** Runs one statement (one line) and returns its answer. */
  public Answer sql(String statement) throws Exception {
    if (statement.contains("\n")) {
      throw new IllegalArgumentException("one statement per line");
    }
    stdin.write(statement + "\n");
    stdin.flush();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STATEMENT_SECONDS);
    List<List<String>> rows = new ArrayList<>();
    while (true) {
      String line = next(deadline, "the answer to " + statement);
      transcript.add(line);
      if (line.startsWith("spark-sql> ")) {
        continue;
      }
      if (line.startsWith("-- OK")) {
        return new Answer(rows, null, line);
      }
      if (line.startsWith("-- ERROR")) {
        return new Answer(rows, line.substring("-- ERROR ".length()), line);
      }
      if (line.startsWith("-- EOF")) {
        throw new IllegalStateException("Spark exited while running: " + statement);
      }
      rows.add(Arrays.asList(line.split("\t", -1)));
    }
  }

  /** Every line Spark printed so far (statements echoed as {@code spark-sql> ...}). */
  public List<String> transcript() {
    return List.copyOf(transcript);
  }

  private String next(long deadline, String what) throws InterruptedException {
    long left = deadline - System.nanoTime();
    String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
    if (line == null) {
      throw new IllegalStateException("timed out waiting for " + what);
    }
    return line;
  }

  @Override
  public void close() throws Exception {
    try {
      stdin.write("quit\n");
      stdin.flush();
      stdin.close();
    } catch (IOException e) {
      // already gone
    }
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
