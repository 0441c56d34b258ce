package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/** The engine on S3 (an in-process s3proxy): commits, the file API, cleanup and drop by prefix. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LanceOnS3Test {
  private S3Fixture s3;
  private BufferAllocator allocator;
  private LanceTableEngine engine;

  @BeforeAll
  void startS3() throws Exception {
    s3 = S3Fixture.start();
  }

  @AfterAll
  void stopS3() throws Exception {
    s3.close();
  }

  @BeforeEach
  void startEngine() {
    allocator = new RootAllocator();
    engine = engineWith(S3Fixture.credentials());
  }

  @AfterEach
  void stopEngine() {
    long handles = engine.openHandles();
    engine.close();
    long leaked = allocator.getAllocatedMemory();
    allocator.close();
    assertThat(handles).as("open Lance handles after the test").isZero();
    assertThat(leaked).as("Arrow memory left allocated after the test").isZero();
  }

  @Test
  void fileApiListsSweepsAndDropDeletesThePrefix() {
    String location = newLocation("t");
    String sibling = newLocation("t");
    long v1 = engine.create(location, stage(location, 1, 2));
    long v2 = engine.commit(location, v1, new TableChange.Append(stage(location, 3)));
    engine.create(sibling, stage(sibling, 9));
    StagedData orphan = stage(location, 4); // written, never committed

    Set<String> listed = paths(engine.listDataFiles(location));
    Set<String> referenced = engine.referencedDataFiles(location, List.of(v1, v2));
    Set<String> orphans = new HashSet<>(listed);
    orphans.removeAll(referenced);
    engine.deleteDataFiles(location, orphans);

    assertThat(orphan.rowCount()).isEqualTo(1);
    assertThat(listed).hasSize(3).allMatch(p -> p.startsWith("data/"));
    assertThat(orphans).hasSize(1);
    assertThat(paths(engine.listDataFiles(location))).isEqualTo(referenced);
    assertThat(ids(location, v2)).containsExactly(1L, 2L, 3L);

    engine.drop(location);

    assertThat(s3.keys(S3Uri.parse(location).keyPrefix())).isEmpty();
    assertThat(engine.exists(location)).isFalse();
    assertThat(ids(sibling, 1)).containsExactly(9L);
    engine.drop(location); // nothing there: a no-op
  }

  @Test
  void cleanupOnS3RemovesOnlyVersionsBelowTheBound() {
    String location = newLocation("t");
    long v1 = engine.create(location, stage(location, 1));
    long v2 = engine.commit(location, v1, new TableChange.Append(stage(location, 2)));
    long v3 = engine.commit(location, v2, new TableChange.Overwrite(stage(location, 3)));

    CleanupResult result = engine.cleanup(location, Set.of(v2), v3);

    assertThat(result.versionsRemoved()).isEqualTo(1);
    assertThatThrownBy(() -> engine.open(location, v1, allocator)).isInstanceOf(DatasetNotFoundException.class);
    assertThat(ids(location, v2)).containsExactly(1L, 2L);
    assertThat(ids(location, v3)).containsExactly(3L);
  }

  @Test
  void credentialsAreResolvedForEveryOperation() {
    AtomicReference<AwsCredentials> current = new AtomicReference<>(AwsBasicCredentials.create("expired", "nope"));
    AtomicInteger resolutions = new AtomicInteger();
    AwsCredentialsProvider rotating = () -> {
      resolutions.incrementAndGet();
      return current.get();
    };
    try (LanceTableEngine rotatingEngine = engineWith(rotating)) {
      String refused = newLocation("t");
      assertThatThrownBy(() -> rotatingEngine.stage(refused, rows(1))).isInstanceOf(EngineException.class);

      current.set(S3Fixture.credentials().resolveCredentials()); // the provider refreshed its credentials
      String location = newLocation("t");
      long v1 = rotatingEngine.create(location, rotatingEngine.stage(location, rows(1, 2)));

      assertThat(v1).isEqualTo(1);
      assertThat(resolutions.get()).as("one resolution per Lance call at least").isGreaterThanOrEqualTo(3);
      assertThat(ids(location, v1)).containsExactly(1L, 2L);
    }
  }

  @Test
  void storageOptionsCarryTheSessionTokenButToStringNoSecret() {
    AwsCredentialsProvider session = () -> software.amazon.awssdk.auth.credentials.AwsSessionCredentials.create(
        "AKIDEXAMPLE", "secret-value", "token-value");
    S3StorageOptions options = new S3StorageOptions(session, "eu-west-1", Optional.empty(), false);

    assertThat(options.current())
        .containsEntry("aws_access_key_id", "AKIDEXAMPLE")
        .containsEntry("aws_secret_access_key", "secret-value")
        .containsEntry("aws_session_token", "token-value")
        .containsEntry("aws_region", "eu-west-1")
        .containsEntry("aws_virtual_hosted_style_request", "true")
        .doesNotContainKeys("aws_endpoint", "allow_http");
    assertThat(s3.storageOptions(S3Fixture.credentials()).current())
        .containsEntry("aws_endpoint", s3.endpoint().toString())
        .containsEntry("allow_http", "true")
        .containsEntry("aws_virtual_hosted_style_request", "false")
        .doesNotContainKey("aws_session_token");
    assertThat(options.toString()).doesNotContain("secret-value", "token-value", "AKIDEXAMPLE");
  }

  private LanceTableEngine engineWith(AwsCredentialsProvider credentials) {
    return new LanceTableEngine(allocator, s3.storageOptions(credentials),
        List.of(new S3ObjectStore(s3.client()), new LocalObjectStore()));
  }

  private String newLocation(String name) {
    return "s3://" + S3Fixture.BUCKET + "/engine/" + name + "/" + UUID.randomUUID() + "/";
  }

  private RowsReader rows(long... ids) {
    List<List<Object>> rows = new ArrayList<>();
    for (long id : ids) {
      rows.add(Rows.row(id, "row-" + id));
    }
    return new RowsReader(allocator, EngineTestSupport.ID_NAME, rows, 2);
  }

  private StagedData stage(String location, long... ids) {
    return engine.stage(location, rows(ids));
  }

  private List<Long> ids(String location, long version) {
    try (TableSnapshot snapshot = engine.open(location, version, allocator)) {
      return Rows.drain(snapshot.scan(List.of("id"), Optional.empty(), Optional.empty(), 1024)).stream()
          .map(row -> (Long) row.get(0)).sorted(Comparator.naturalOrder()).toList();
    }
  }

  private static Set<String> paths(List<StoredFile> files) {
    return files.stream().map(StoredFile::path).collect(Collectors.toSet());
  }
}
