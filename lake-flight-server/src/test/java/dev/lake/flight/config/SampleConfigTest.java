package dev.lake.flight.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/lake.yaml, the sample shipped in the release archive, names every key lake reads, at its real default. */
class SampleConfigTest {
  private static final Pattern KEY_LINE = Pattern.compile("^#([a-z0-9.\\-]+):(?: (.*))?$");

  @TempDir
  Path dir;

  @Test
  void sampleConfigDocumentsEveryKeyAtItsDefault() throws IOException {
    Map<String, String> sample = sampleKeys();
    List<String> missing = ConfigLoader.DEFAULTS.entrySet().stream().filter(e -> !sample.containsKey(e.getKey()))
        .map(e -> "#" + e.getKey() + ":" + (e.getValue() == null ? "" : " " + e.getValue())).toList();
    assertThat(missing).as("keys lake reads but docs/lake.yaml does not name; add them (with a comment from "
        + "docs/config.md) as").isEmpty();
    assertThat(sample.keySet()).as("keys in docs/lake.yaml").contains("auth.users");
    for (Map.Entry<String, String> e : ConfigLoader.DEFAULTS.entrySet()) {
      if (e.getValue() != null) {
        assertThat(sample.get(e.getKey())).as("default of %s in docs/lake.yaml", e.getKey()).isEqualTo(e.getValue());
      }
    }
    assertThat(ConfigLoader.DEFAULTS.keySet()).as("docs/lake.yaml names no key lake does not read")
        .containsAll(sample.keySet().stream().filter(k -> !k.equals("auth.users")).toList());
  }

  @Test
  void sampleConfigLoadsAsIsAndWithEveryDefaultUncommented() throws IOException {
    Path file = sampleFile();
    LakeConfig asShipped = ConfigLoader.load(Optional.of(file), Map.of(), Map.of());
    List<String> uncommented = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      Matcher m = KEY_LINE.matcher(line);
      uncommented.add(m.matches() && m.group(2) != null ? line.substring(1) : line);
    }
    Path edited = dir.resolve("lake.yaml");
    Files.write(edited, uncommented);
    LakeConfig explicit = ConfigLoader.load(Optional.of(edited), Map.of(), Map.of());
    assertThat(explicit.port()).isEqualTo(asShipped.port()).isEqualTo(32010);
    assertThat(explicit.limits()).isEqualTo(asShipped.limits());
    assertThat(explicit.catalog()).isEqualTo(asShipped.catalog());
  }

  private static Map<String, String> sampleKeys() throws IOException {
    Map<String, String> keys = new java.util.LinkedHashMap<>();
    for (String line : Files.readAllLines(sampleFile())) {
      Matcher m = KEY_LINE.matcher(line);
      if (m.matches()) {
        keys.put(m.group(1), m.group(2));
      }
    }
    return keys;
  }

  private static Path sampleFile() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("docs/lake.yaml"))) {
      p = p.getParent();
    }
    assertThat(p).as("docs/lake.yaml above " + Path.of("").toAbsolutePath()).isNotNull();
    return p.resolve("docs/lake.yaml");
  }
}
