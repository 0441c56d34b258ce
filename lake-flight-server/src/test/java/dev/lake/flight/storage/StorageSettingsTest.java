package dev.lake.flight.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.flight.config.ConfigLoader;
import dev.lake.flight.config.LakeConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage and registry keys as a node reads them: file, then LAKE_* environment, then overrides. */
class StorageSettingsTest {
  @TempDir
  Path dir;

  @Test
  void defaultsAreASingleLocalNode() {
    LakeConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of("data.dir", dir.toString()));

    assertThat(config.dataRoot()).isEqualTo(dir.resolve("tables").toString());
    assertThat(config.storage()).isEqualTo(StorageSettings.defaults());
    assertThat(config.storage().registry()).isEqualTo(RegistryBackend.ROCKSDB);
    assertThat(config.storage().dynamoDb().table()).isEqualTo("lake-registry");
    assertThat(config.storage().dynamoDb().createTable()).isFalse();
    assertThat(config.storage().s3().pathStyle()).isFalse();
  }

  @Test
  void clusterFileWithKeysFromTheEnvironment() throws Exception {
    Path file = dir.resolve("cluster.yaml");
    Files.writeString(file, """
        data:
          root: s3://bucket/lake/
        s3:
          endpoint: http://127.0.0.1:9000
          region: eu-west-1
        registry:
          backend: dynamodb
        dynamodb:
          table: lake-prod
          endpoint: http://127.0.0.1:8000
          create-table: true
        """);
    Map<String, String> env = Map.of("LAKE_S3_ACCESS_KEY_ID", "AKIDEXAMPLE",
        "LAKE_S3_SECRET_ACCESS_KEY", "very-secret-value");

    LakeConfig config = ConfigLoader.load(Optional.of(file), env, Map.of("data.dir", dir.toString()));

    StorageSettings s = config.storage();
    assertThat(config.dataRoot()).isEqualTo("s3://bucket/lake/");
    assertThat(s.s3().endpoint()).contains(URI.create("http://127.0.0.1:9000"));
    assertThat(s.s3().region()).contains("eu-west-1");
    assertThat(s.s3().accessKeyId()).contains("AKIDEXAMPLE");
    assertThat(s.s3().secretAccessKey()).contains("very-secret-value");
    assertThat(s.s3().pathStyle()).as("path-style by default with an endpoint").isTrue();
    assertThat(s.registry()).isEqualTo(RegistryBackend.DYNAMODB);
    assertThat(s.dynamoDb().table()).isEqualTo("lake-prod");
    assertThat(s.dynamoDb().endpoint()).contains(URI.create("http://127.0.0.1:8000"));
    assertThat(s.dynamoDb().createTable()).isTrue();
    assertThat(config.toString()).doesNotContain("very-secret-value");
    assertThat(s.toString()).doesNotContain("very-secret-value");
  }

  @Test
  void pathStyleCanBeTurnedOffForAnEndpoint() {
    StorageSettings s = StorageSettings.fromKeys(Map.of("s3.endpoint", "https://minio.example:9000",
        "s3.path-style", "false"));

    assertThat(s.s3().pathStyle()).isFalse();
  }

  @Test
  void mistakesNameTheKey() {
    assertThatThrownBy(() -> StorageSettings.fromKeys(Map.of("registry.backend", "etcd")))
        .hasMessageContaining("registry.backend = 'etcd'").hasMessageContaining("rocksdb")
        .hasMessageContaining("dynamodb");
    assertThatThrownBy(() -> StorageSettings.fromKeys(Map.of("s3.access-key-id", "AKID")))
        .hasMessageStartingWith("s3.secret-access-key is not set but its partner is")
        .hasMessageContaining("LAKE_S3_SECRET_ACCESS_KEY");
    assertThatThrownBy(() -> StorageSettings.fromKeys(Map.of("s3.endpoint", "127.0.0.1:9000")))
        .hasMessageContaining("s3.endpoint = '127.0.0.1:9000'");
    assertThatThrownBy(() -> StorageSettings.fromKeys(Map.of("dynamodb.create-table", "yes")))
        .hasMessageContaining("dynamodb.create-table = 'yes' is not a boolean");
    assertThatThrownBy(() -> StorageSettings.fromKeys(Map.of("dynamodb.table", "x")))
        .hasMessageContaining("dynamodb.table = 'x'");
    assertThatThrownBy(() -> StorageSettings.dataRoot(Optional.of("gs://bucket/p"), dir))
        .hasMessageContaining("data.root = 'gs://bucket/p'");
    assertThatThrownBy(() -> StorageSettings.dataRoot(Optional.of("s3:///p"), dir))
        .hasMessageContaining("names no bucket");
  }

  @Test
  void localDataRootsBecomeAbsolute() {
    assertThat(StorageSettings.dataRoot(Optional.of("rel/tables"), dir))
        .isEqualTo(Path.of("rel/tables").toAbsolutePath().normalize().toString());
    assertThat(StorageSettings.dataRoot(Optional.of("file://" + dir.resolve("t")), dir))
        .isEqualTo(dir.resolve("t").toString());
    assertThat(StorageSettings.dataRoot(Optional.of(" "), dir)).isEqualTo(dir.resolve("tables").toString());
  }
}
