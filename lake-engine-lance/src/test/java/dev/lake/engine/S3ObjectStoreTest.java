package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@link S3ObjectStore} against a real (in-process) s3proxy, with tiny pages and batches to exercise paging. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3ObjectStoreTest {
  private S3Fixture s3;
  private S3ObjectStore store;

  @BeforeAll
  void start() throws Exception {
    s3 = S3Fixture.start();
    store = new S3ObjectStore(s3.client(), 2, 2);
  }

  @AfterAll
  void stop() throws Exception {
    s3.close();
  }

  @Test
  void servesOnlyS3Locations() {
    assertThat(store.serves("s3://b/p")).isTrue();
    assertThat(store.serves("S3://b/p")).isTrue();
    assertThat(store.serves("/tmp/x")).isFalse();
    assertThat(store.serves("gs://b/p")).isFalse();
  }

  @Test
  void listFollowsPagesAndStaysUnderThePrefix() throws IOException {
    String root = "s3://" + S3Fixture.BUCKET + "/list/t/gen";
    for (int i = 0; i < 5; i++) {
      s3.put("list/t/gen/data/f" + i + ".lance", "x".repeat(i + 1));
    }
    s3.put("list/t/gen/_versions/1.manifest", "m");
    s3.put("list/t/gen/data/", ""); // a directory marker: not a file
    s3.put("list/t/gen2/data/other.lance", "not mine"); // a sibling whose name starts alike

    List<StoredFile> data = store.list(root + "/", "data/");
    List<StoredFile> all = store.list(root, "");

    assertThat(data).extracting(StoredFile::path)
        .containsExactlyInAnyOrder("data/f0.lance", "data/f1.lance", "data/f2.lance", "data/f3.lance", "data/f4.lance");
    assertThat(data).filteredOn(f -> f.path().equals("data/f3.lance")).singleElement()
        .satisfies(f -> {
          assertThat(f.size()).isEqualTo(4);
          assertThat(f.lastModified()).isBetween(Instant.now().minus(5, ChronoUnit.MINUTES),
              Instant.now().plus(5, ChronoUnit.MINUTES));
        });
    assertThat(all).extracting(StoredFile::path).hasSize(6).contains("_versions/1.manifest")
        .noneMatch(p -> p.contains("other"));
    assertThat(store.list("s3://" + S3Fixture.BUCKET + "/list/nothing", "data/")).isEmpty();
  }

  @Test
  void deleteRemovesTheNamedFilesInBatchesAndIgnoresMissingOnes() throws IOException {
    String root = "s3://" + S3Fixture.BUCKET + "/del/t/gen";
    for (int i = 0; i < 5; i++) {
      s3.put("del/t/gen/data/f" + i + ".lance", "x");
    }

    store.delete(root, List.of("data/f0.lance", "data/f1.lance", "data/f2.lance", "data/missing.lance",
        "data/f4.lance"));

    assertThat(s3.keys("del/")).containsExactly("del/t/gen/data/f3.lance");
  }

  @Test
  void deleteAllRemovesEveryPageUnderTheLocationOnly() throws IOException {
    String root = "s3://" + S3Fixture.BUCKET + "/drop/t/gen";
    for (int i = 0; i < 7; i++) {
      s3.put("drop/t/gen/data/f" + i + ".lance", "x");
    }
    s3.put("drop/t/gen/_versions/1.manifest", "m");
    s3.put("drop/t/gen2/_versions/1.manifest", "keep");

    store.deleteAll(root + "/");
    store.deleteAll(root); // nothing left: a no-op

    assertThat(s3.keys("drop/")).containsExactly("drop/t/gen2/_versions/1.manifest");
  }

  @Test
  void deleteAllRefusesABucketRoot() {
    assertThatThrownBy(() -> store.deleteAll("s3://" + S3Fixture.BUCKET + "/"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bucket's root");
  }

  @Test
  void failuresNameTheOperationAndS3sErrorCode() {
    assertThatThrownBy(() -> store.list("s3://no-such-bucket/p", "data/"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("listing s3://no-such-bucket/p/data/")
        .hasMessageContaining("NoSuchBucket");
  }
}
