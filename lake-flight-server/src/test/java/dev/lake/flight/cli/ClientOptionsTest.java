package dev.lake.flight.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.arrow.dataset.file.FileFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ClientOptionsTest {
  @TempDir
  Path dir;

  private static ConnectionOptions.Endpoint parse(Map<String, String> env, String... args) {
    ConnectionOptions options = new ConnectionOptions();
    new CommandLine(options).parseArgs(args);
    return options.resolve(env);
  }

  @Test
  void endpointFromFlagsUrlAndEnvironment() {
    assertThat(parse(Map.of())).isEqualTo(new ConnectionOptions.Endpoint("127.0.0.1", 32010, false, null, "lake",
        "lake"));
    assertThat(parse(Map.of("LAKE_USER", "ann", "LAKE_PASSWORD", "pw"), "--host", "h", "--port", "1"))
        .isEqualTo(new ConnectionOptions.Endpoint("h", 1, false, null, "ann", "pw"));
    assertThat(parse(Map.of("LAKE_USER", "ann"), "--url", "grpc+tls://db.example:443", "--user", "bob"))
        .isEqualTo(new ConnectionOptions.Endpoint("db.example", 443, true, null, "bob", "lake"));
    assertThatThrownBy(() -> parse(Map.of(), "--url", "http://x:1")).isInstanceOf(UsageException.class)
        .hasMessageContaining("grpc or grpc+tls");
    assertThatThrownBy(() -> parse(Map.of(), "--url", "grpc://nohost")).isInstanceOf(UsageException.class)
        .hasMessageContaining("needs a host and a port");
  }

  @Test
  void fileFormatFromNameOrFlag() throws Exception {
    Path parquet = Files.writeString(dir.resolve("a.PARQUET"), "x");
    Path data = Files.writeString(dir.resolve("a.dat"), "x");
    assertThat(SourceFile.of(parquet, null).format()).isEqualTo(FileFormat.PARQUET);
    assertThat(SourceFile.of(data, "csv").format()).isEqualTo(FileFormat.CSV);
    assertThat(SourceFile.of(Files.writeString(dir.resolve("b.feather"), "x"), null).format())
        .isEqualTo(FileFormat.ARROW_IPC);
    assertThatThrownBy(() -> SourceFile.of(data, null)).isInstanceOf(UsageException.class)
        .hasMessageContaining("--format");
    assertThatThrownBy(() -> SourceFile.of(dir.resolve("missing.csv"), null)).isInstanceOf(UsageException.class)
        .hasMessageContaining("no such readable file");
  }

  @Test
  void durationsOnTheCommandLine() {
    DurationConverter c = new DurationConverter();
    assertThat(c.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(c.convert("2s")).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.convert("1m")).isEqualTo(Duration.ofMinutes(1));
    assertThat(c.convert("PT3S")).isEqualTo(Duration.ofSeconds(3));
    assertThatThrownBy(() -> c.convert("soon")).isInstanceOf(CommandLine.TypeConversionException.class);
  }
}
