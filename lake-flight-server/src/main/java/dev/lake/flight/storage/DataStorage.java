package dev.lake.flight.storage;

import dev.lake.engine.LocalObjectStore;
import dev.lake.engine.ObjectStore;
import dev.lake.engine.S3ObjectStore;
import dev.lake.engine.S3StorageOptions;
import dev.lake.engine.S3Uri;
import dev.lake.engine.StorageOptions;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The data root a node's engine works on: the Lance storage options and the object stores for it, and (on S3) the
 * SDK client behind them, checked at {@link #open}. Closing it closes the client; close the engine first.
 */
public final class DataStorage implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DataStorage.class);

  private final String dataRoot;
  private final StorageOptions lanceOptions;
  private final List<ObjectStore> objectStores;
  private final String description;
  private final List<SdkAutoCloseable> resources;

  private DataStorage(String dataRoot, StorageOptions lanceOptions, List<ObjectStore> objectStores,
      String description, List<SdkAutoCloseable> resources) {
    this.dataRoot = dataRoot;
    this.lanceOptions = lanceOptions;
    this.objectStores = List.copyOf(objectStores);
    this.description = description;
    this.resources = List.copyOf(resources);
  }

  /**
   * Local data roots need nothing. For {@code s3://bucket/prefix}: builds the S3 client from {@code s3} (static keys
   * or the AWS default chain), runs the {@link S3StartupCheck}, and gives Lance options whose credentials are
   * resolved at every engine operation ({@link S3StorageOptions}).
   *
   * @throws StartupCheckException when the store is unreachable, a permission is missing or conditional writes are
   *     not honoured
   */
  public static DataStorage open(String dataRoot, S3Settings s3) {
    Objects.requireNonNull(dataRoot, "dataRoot");
    Objects.requireNonNull(s3, "s3");
    if (!S3Uri.isS3(dataRoot)) {
      return new DataStorage(dataRoot, StorageOptions.fixed(Map.of()), List.of(new LocalObjectStore()),
          "local " + dataRoot, List.of());
    }
    S3Uri root = S3Uri.parse(dataRoot);
    Region region = AwsClients.region("s3.region", s3.region(), s3.endpoint());
    AwsCredentialsProvider credentials = AwsClients.credentials(s3.accessKeyId(), s3.secretAccessKey());
    S3Client client = AwsClients.s3(s3, region, credentials);
    String endpoint = s3.endpoint().map(URI::toString).orElse("AWS S3 (" + region.id() + ")");
    try {
      new S3StartupCheck(client, root, endpoint).run();
    } catch (RuntimeException e) {
      client.close();
      closeQuietly(credentials);
      throw e;
    }
    S3StorageOptions options = new S3StorageOptions(credentials, region.id(), s3.endpoint(), s3.pathStyle());
    String description = root + " at " + endpoint + " (credentials: " + (s3.hasStaticKeys() ? "static keys"
        : "AWS default chain, resolved per operation") + ", pathStyle=" + s3.pathStyle() + ")";
    List<SdkAutoCloseable> resources = credentials instanceof SdkAutoCloseable c ? List.of(client, c)
        : List.of(client);
    return new DataStorage(dataRoot, options, List.of(new S3ObjectStore(client), new LocalObjectStore()), description,
        resources);
  }

  public String dataRoot() {
    return dataRoot;
  }

  /** What the engine hands Lance, asked again at every operation. */
  public StorageOptions lanceOptions() {
    return lanceOptions;
  }

  /** The stores that list and delete table files (the engine's file API and drop). */
  public List<ObjectStore> objectStores() {
    return objectStores;
  }

  public boolean isS3() {
    return S3Uri.isS3(dataRoot);
  }

  /** For logs: where the data lives and how it is reached; never a secret. */
  public String describe() {
    return description;
  }

  @Override
  public void close() {
    for (SdkAutoCloseable resource : resources) {
      closeQuietly(resource);
    }
  }

  private static void closeQuietly(Object resource) {
    if (resource instanceof SdkAutoCloseable closeable) {
      try {
        closeable.close();
      } catch (RuntimeException e) {
        LOG.warn("closing {} failed", closeable.getClass().getSimpleName(), e);
      }
    }
  }
}
