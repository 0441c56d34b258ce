package dev.lake.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link ObjectStore} over S3 (or an S3-compatible store) with the AWS SDK v2: serves {@code s3://} roots, lists
 * with paginated ListObjectsV2 under the root's key prefix and deletes with DeleteObjects in batches. The client is
 * the caller's (it carries region, endpoint and credentials) and is not closed here.
 *
 * <p>Failures become {@link IOException}s whose message names the operation, the location and S3's error code.
 * DeleteObjects answers 200 even when it deleted nothing; its per-key errors are checked and reported.
 */
public final class S3ObjectStore implements ObjectStore {
  private static final Logger LOG = LoggerFactory.getLogger(S3ObjectStore.class);
  /** S3's limit for both a ListObjectsV2 page and a DeleteObjects request. */
  public static final int MAX_BATCH = 1000;

  private final S3Client client;
  private final int pageSize;
  private final int deleteBatch;

  public S3ObjectStore(S3Client client) {
    this(client, MAX_BATCH, MAX_BATCH);
  }

  /**
   * @param pageSize keys asked for per ListObjectsV2 page (1..1000)
   * @param deleteBatch keys per DeleteObjects request (1..1000)
   */
  public S3ObjectStore(S3Client client, int pageSize, int deleteBatch) {
    this.client = Objects.requireNonNull(client, "client");
    this.pageSize = checkBatch("pageSize", pageSize);
    this.deleteBatch = checkBatch("deleteBatch", deleteBatch);
  }

  @Override
  public boolean serves(String root) {
    return S3Uri.isS3(root);
  }

  @Override
  public List<StoredFile> list(String root, String prefix) throws IOException {
    Objects.requireNonNull(prefix, "prefix");
    S3Uri at = S3Uri.parse(root);
    String base = at.keyPrefix();
    List<StoredFile> files = new ArrayList<>();
    forEachPage(at, base + prefix, page -> {
      for (S3Object object : page) {
        if (!object.key().endsWith("/")) { // a "directory" marker some tools write; not a file
          files.add(new StoredFile(object.key().substring(base.length()), object.size(), object.lastModified()));
        }
      }
    });
    return files;
  }

  @Override
  public void delete(String root, Collection<String> relativePaths) throws IOException {
    S3Uri at = S3Uri.parse(root);
    List<String> keys = relativePaths.stream().map(p -> at.keyPrefix() + p).toList();
    for (int from = 0; from < keys.size(); from += deleteBatch) {
      deleteKeys(at, keys.subList(from, Math.min(keys.size(), from + deleteBatch)));
    }
  }

  @Override
  public void deleteAll(String root) throws IOException {
    S3Uri at = S3Uri.parse(root);
    if (at.key().isEmpty()) {
      throw new IllegalArgumentException("refusing to delete every object of bucket " + at.bucket()
          + ": a table location is a prefix below the data root, never a bucket's root");
    }
    int[] deleted = {0};
    // S3 continues a listing after the last key it returned, so deleting each page before asking for the next one
    // neither skips nor repeats keys.
    forEachPage(at, at.keyPrefix(), page -> {
      List<String> keys = page.stream().map(S3Object::key).toList();
      for (int from = 0; from < keys.size(); from += deleteBatch) {
        deleteKeys(at, keys.subList(from, Math.min(keys.size(), from + deleteBatch)));
      }
      deleted[0] += keys.size();
    });
    LOG.debug("deleted prefix location={} objects={}", at, deleted[0]);
  }

  /** What to do with one page of a listing. */
  @FunctionalInterface
  private interface PageHandler {
    void accept(List<S3Object> page) throws IOException;
  }

  /** Hands each ListObjectsV2 page under {@code keyPrefix} to {@code handler}, following continuation tokens. */
  private void forEachPage(S3Uri at, String keyPrefix, PageHandler handler) throws IOException {
    String token = null;
    do {
      String continuation = token;
      ListObjectsV2Response page;
      try {
        page = client.listObjectsV2(r -> r.bucket(at.bucket()).prefix(keyPrefix).maxKeys(pageSize)
            .continuationToken(continuation));
      } catch (SdkException e) {
        throw failure("listing s3://" + at.bucket() + "/" + keyPrefix, e);
      }
      handler.accept(page.contents());
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
  }

  private void deleteKeys(S3Uri at, List<String> keys) throws IOException {
    if (keys.isEmpty()) {
      return;
    }
    List<ObjectIdentifier> ids = keys.stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList();
    DeleteObjectsResponse response;
    try {
      response = client.deleteObjects(r -> r.bucket(at.bucket())
          .delete(Delete.builder().objects(ids).quiet(true).build()));
    } catch (SdkException e) {
      throw failure("deleting " + keys.size() + " objects under " + at, e);
    }
    List<S3Error> errors = response.errors().stream().filter(e -> !"NoSuchKey".equals(e.code())).toList();
    if (!errors.isEmpty()) {
      S3Error first = errors.get(0);
      throw new IOException("S3 did not delete " + errors.size() + " of " + keys.size() + " objects under " + at
          + ", e.g. s3://" + at.bucket() + "/" + first.key() + ": " + first.code() + " (" + first.message() + ")"
          + ("AccessDenied".equals(first.code()) ? "; the credentials need s3:DeleteObject on this prefix" : ""));
    }
  }

  private static IOException failure(String action, SdkException e) {
    if (e instanceof S3Exception s3 && s3.awsErrorDetails() != null) {
      return new IOException(action + " failed: HTTP " + s3.statusCode() + " " + s3.awsErrorDetails().errorCode()
          + " (" + s3.awsErrorDetails().errorMessage() + ")", e);
    }
    return new IOException(action + " failed: " + e.getMessage(), e);
  }

  private static int checkBatch(String name, int value) {
    if (value < 1 || value > MAX_BATCH) {
      throw new IllegalArgumentException(name + " must be 1.." + MAX_BATCH + ", was " + value);
    }
    return value;
  }
}
