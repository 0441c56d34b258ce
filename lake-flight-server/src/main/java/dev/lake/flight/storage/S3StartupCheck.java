package dev.lake.flight.storage;

import dev.lake.engine.S3Uri;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Checks at start-up that the data root on S3 is usable, with probe objects under {@code <root>/.lake-probe/} (a
 * name no table can take): PutObject, GetObject (the bytes come back), ListBucket (the probe is listed) and
 * DeleteObject; and that the store honours {@code If-None-Match: *}, on which Lance's commits rely (a conditional
 * PUT of an existing key must fail with 412). Each failure names the missing permission or capability.
 */
public final class S3StartupCheck {
  private static final Logger LOG = LoggerFactory.getLogger(S3StartupCheck.class);
  static final String PROBE_DIR = ".lake-probe/";
  private static final AwsRequestOverrideConfiguration BOUNDED = AwsRequestOverrideConfiguration.builder()
      .apiCallTimeout(Duration.ofSeconds(60)).build();

  private final S3Client client;
  private final S3Uri root;
  private final String endpoint;

  /**
   * @param endpoint how the store is reached, for messages ({@code http://127.0.0.1:9000} or
   *     {@code AWS S3 (eu-west-1)})
   */
  public S3StartupCheck(S3Client client, S3Uri root, String endpoint) {
    this.client = Objects.requireNonNull(client, "client");
    this.root = Objects.requireNonNull(root, "root");
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
  }

  /** Runs every check; returns normally when the store is usable. */
  public void run() {
    long started = System.nanoTime(); // for the log line only
    String base = root.keyPrefix() + PROBE_DIR + UUID.randomUUID();
    String probe = base + ".probe";
    String conditional = base + ".conditional";
    byte[] content = ("lake start-up probe " + base).getBytes(StandardCharsets.UTF_8);
    boolean cleaned = false;
    try {
      step("PutObject", probe, () -> client.putObject(r -> r.bucket(root.bucket()).key(probe)
          .overrideConfiguration(BOUNDED), RequestBody.fromBytes(content)));
      byte[] read = step("GetObject", probe, () -> client.getObjectAsBytes(r -> r.bucket(root.bucket()).key(probe)
          .overrideConfiguration(BOUNDED)).asByteArray());
      if (!Arrays.equals(read, content)) {
        throw new StartupCheckException(location() + ": reading the probe object " + url(probe) + " back returned "
            + read.length + " bytes that differ from the " + content.length + " written; the store at " + endpoint
            + " does not return what was stored");
      }
      boolean listed = step("ListBucket", base, () -> client.listObjectsV2(r -> r.bucket(root.bucket()).prefix(base)
          .overrideConfiguration(BOUNDED)).contents().stream().anyMatch(o -> o.key().equals(probe)));
      if (!listed) {
        throw new StartupCheckException(location() + ": listing s3://" + root.bucket() + "/" + base + " did not show "
            + "the probe object just written; lake needs a store whose listings are consistent with its writes");
      }
      checkConditionalPut(conditional);
      step("DeleteObject", probe, () -> client.deleteObject(r -> r.bucket(root.bucket()).key(probe)
          .overrideConfiguration(BOUNDED)));
      step("DeleteObject", conditional, () -> client.deleteObject(r -> r.bucket(root.bucket()).key(conditional)
          .overrideConfiguration(BOUNDED)));
      cleaned = true;
    } finally {
      if (!cleaned) {
        bestEffortDelete(probe, conditional);
      }
    }
    LOG.info("S3 start-up checks passed location={} endpoint={} checks=PutObject,GetObject,ListBucket,"
        + "If-None-Match,DeleteObject elapsedMs={}", location(), endpoint, (System.nanoTime() - started) / 1_000_000);
  }

  private void checkConditionalPut(String key) {
    step("PutObject", key, () -> conditionalPut(key, "first"));
    try {
      conditionalPut(key, "second");
    } catch (S3Exception e) {
      if (e.statusCode() == 412) {
        return; // the store refused to overwrite: what Lance's commits need
      }
      throw noConditionalPut(key, "answered HTTP " + e.statusCode() + " " + errorCode(e) + " instead of 412 "
          + "Precondition Failed", e);
    } catch (SdkException e) {
      throw failure("PutObject", key, e);
    }
    throw noConditionalPut(key, "accepted a second PUT with If-None-Match: * of an existing key instead of "
        + "answering 412 Precondition Failed", null);
  }

  private Object conditionalPut(String key, String attempt) {
    try {
      return client.putObject(r -> r.bucket(root.bucket()).key(key).ifNoneMatch("*").overrideConfiguration(BOUNDED),
          RequestBody.fromString("lake conditional-put probe, " + attempt + " write"));
    } catch (S3Exception e) {
      int status = e.statusCode();
      if ("first".equals(attempt) && (status == 501 || status == 400 || status == 412)) {
        throw noConditionalPut(key, "answered HTTP " + status + " " + errorCode(e) + " to a PUT with "
            + "If-None-Match: * of a new key", e);
      }
      throw e;
    }
  }

  private StartupCheckException noConditionalPut(String key, String what, Throwable cause) {
    return new StartupCheckException(location() + ": the S3 endpoint " + endpoint + " does not honour "
        + "If-None-Match: * (it " + what + ", probe " + url(key) + "). Lance commits every table version with a "
        + "conditional PUT that must fail when the version exists; without it two writers can overwrite each "
        + "other's versions and lose data. lake refuses this store: use AWS S3 or an S3-compatible store that "
        + "supports conditional writes, and make sure no proxy in between drops the If-None-Match header", cause);
  }

  private <T> T step(String permission, String key, java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (StartupCheckException e) {
      throw e;
    } catch (SdkException e) {
      throw failure(permission, key, e);
    }
  }

  private StartupCheckException failure(String permission, String key, SdkException e) {
    String probe = " (probe " + url(key) + ")";
    if (e instanceof S3Exception s3) {
      String code = errorCode(s3);
      String detail = code + (s3.awsErrorDetails() != null && s3.awsErrorDetails().errorMessage() != null
          ? ": " + s3.awsErrorDetails().errorMessage() : "");
      switch (code) {
        case "AccessDenied", "AllAccessDisabled" -> {
          return new StartupCheckException(location() + ": the credentials may not " + permission + " (" + detail
              + ")" + probe + ". Grant s3:" + permission + " " + grantScope(permission) + " (docs/operations.md)"
              + leftovers(permission), e);
        }
        case "NoSuchBucket" -> {
          return new StartupCheckException(location() + ": the bucket '" + root.bucket() + "' does not exist at "
              + endpoint + " (" + detail + "). Create it, or fix data.root", e);
        }
        case "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken", "TokenRefreshRequired" -> {
          return new StartupCheckException(location() + ": S3 at " + endpoint + " rejected the credentials on "
              + permission + " (" + detail + "). Check s3.access-key-id and s3.secret-access-key (or "
              + "LAKE_S3_ACCESS_KEY_ID / LAKE_S3_SECRET_ACCESS_KEY), or the source of the AWS default credential "
              + "chain", e);
        }
        case "PermanentRedirect", "AuthorizationHeaderMalformed", "IllegalLocationConstraintException" -> {
          return new StartupCheckException(location() + ": the bucket '" + root.bucket() + "' is not in the "
              + "configured region (" + detail + "). Set s3.region to the bucket's region", e);
        }
        default -> {
          return new StartupCheckException(location() + ": " + permission + " failed with HTTP " + s3.statusCode()
              + " " + detail + probe + " at " + endpoint, e);
        }
      }
    }
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : SettingValues.brief(e.getMessage());
    if (e instanceof SdkClientException && message.toLowerCase(Locale.ROOT).contains("credentials")) {
      return new StartupCheckException(location() + ": no AWS credentials could be resolved (" + message + "). Set "
          + "s3.access-key-id and s3.secret-access-key (or LAKE_S3_ACCESS_KEY_ID / LAKE_S3_SECRET_ACCESS_KEY), or "
          + "provide credentials through the AWS default chain (environment, profile, web identity, instance role)",
          e);
    }
    return new StartupCheckException(location() + ": cannot reach S3 at " + endpoint + " (" + permission
        + " failed: " + message + "). Check s3.endpoint, s3.region and the network between this node and the store",
        e);
  }

  private String grantScope(String permission) {
    String prefix = root.keyPrefix();
    if ("ListBucket".equals(permission)) {
      return "on arn:aws:s3:::" + root.bucket() + (prefix.isEmpty() ? "" : " with the condition s3:prefix like '"
          + prefix + "*'");
    }
    return "on arn:aws:s3:::" + root.bucket() + "/" + prefix + "*";
  }

  private String leftovers(String permission) {
    return "DeleteObject".equals(permission) ? ". Remove the probe objects under " + location() + PROBE_DIR
        + " once the permission is granted" : "";
  }

  private void bestEffortDelete(String... keys) {
    for (String key : keys) {
      try {
        client.deleteObject(r -> r.bucket(root.bucket()).key(key).overrideConfiguration(BOUNDED));
      } catch (SdkException e) {
        LOG.debug("probe object not deleted key={} error={}", key, e.getMessage());
      }
    }
  }

  private static String errorCode(S3Exception e) {
    return e.awsErrorDetails() != null && e.awsErrorDetails().errorCode() != null
        ? e.awsErrorDetails().errorCode() : "(no error code)";
  }

  private String location() {
    return root.toString();
  }

  private String url(String key) {
    return "s3://" + root.bucket() + "/" + key;
  }
}
