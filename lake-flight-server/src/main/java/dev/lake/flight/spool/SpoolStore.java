package dev.lake.flight.spool;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Where spooled results and poll states live: objects under one prefix, named by keys relative to it
 * ({@code <job>/state.json}, {@code <job>/part-00000.arrows}). Implementations: S3 (with presigned URLs) and a local
 * directory (gRPC only). Thread-safe.
 */
public interface SpoolStore extends AutoCloseable {

  /** One stored object. */
  record StoredObject(String key, long size, Instant lastModified) {}

  /** Uploads {@code file} as {@code key}, replacing what is there. */
  void put(String key, Path file) throws IOException;

  /** Writes small {@code bytes} (a poll state) as {@code key}, replacing what is there. */
  void putBytes(String key, byte[] bytes) throws IOException;

  /** The bytes of a small object; empty when it does not exist. */
  Optional<byte[]> getBytes(String key) throws IOException;

  /** Opens an object for streaming; the caller closes the stream. */
  InputStream open(String key) throws IOException;

  /** Every object whose key starts with {@code keyPrefix} (may be empty: everything). */
  List<StoredObject> list(String keyPrefix) throws IOException;

  /** Deletes the objects; missing ones are ignored. */
  void delete(Collection<String> keys) throws IOException;

  /** A URL anyone can GET {@code key} with until {@code validFor} passes; empty when the store has none. */
  Optional<URI> presign(String key, Duration validFor);

  /** For logs: where the objects live. */
  String describe();

  @Override
  void close();
}
