package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class S3UriTest {
  @Test
  void splitsBucketAndKeyWithoutOuterSlashes() {
    assertThat(S3Uri.parse("s3://b/p/q/")).isEqualTo(new S3Uri("b", "p/q"));
    assertThat(S3Uri.parse("s3://b")).isEqualTo(new S3Uri("b", ""));
    assertThat(S3Uri.parse("s3://b/")).isEqualTo(new S3Uri("b", ""));
    assertThat(S3Uri.parse("s3://b/p").keyPrefix()).isEqualTo("p/");
    assertThat(S3Uri.parse("s3://b/").keyPrefix()).isEmpty();
    assertThat(S3Uri.parse("s3://b/p").resolve("t/g")).isEqualTo(new S3Uri("b", "p/t/g"));
    assertThat(S3Uri.parse("s3://b/p").toString()).isEqualTo("s3://b/p/");
  }

  @Test
  void rejectsWhatIsNotAnS3LocationWithABucket() {
    assertThatThrownBy(() -> S3Uri.parse("gs://b/p")).hasMessageContaining("not an s3:// location");
    assertThatThrownBy(() -> S3Uri.parse("s3:///p")).hasMessageContaining("names no bucket");
  }
}
