package dev.lake.flight.spool;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Spooled results in a local directory: served through gRPC only (no presigned URLs). */
final class LocalSpoolStore implements SpoolStore {
  private final Path root;

  LocalSpoolStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  @Override
  public void put(String key, Path file) throws IOException {
    Path target = resolve(key);
    Files.createDirectories(target.getParent());
    Path temp = target.resolveSibling(target.getFileName() + ".tmp");
    Files.copy(file, temp, StandardCopyOption.REPLACE_EXISTING);
    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public void putBytes(String key, byte[] bytes) throws IOException {
    Path target = resolve(key);
    Files.createDirectories(target.getParent());
    Path temp = target.resolveSibling(target.getFileName() + ".tmp");
    Files.write(temp, bytes);
    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public Optional<byte[]> getBytes(String key) throws IOException {
    try {
      return Optional.of(Files.readAllBytes(resolve(key)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  @Override
  public InputStream open(String key) throws IOException {
    return Files.newInputStream(resolve(key));
  }

  @Override
  public List<StoredObject> list(String keyPrefix) throws IOException {
    List<StoredObject> out = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return out;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        BasicFileAttributes a;
        try {
          a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException gone) {
          continue;
        }
        if (!a.isRegularFile()) {
          continue;
        }
        String key = root.relativize(p).toString().replace('\\', '/');
        if (key.startsWith(keyPrefix)) {
          out.add(new StoredObject(key, a.size(), a.lastModifiedTime().toInstant()));
        }
      }
    }
    return out;
  }

  @Override
  public void delete(Collection<String> keys) throws IOException {
    for (String key : keys) {
      Path p = resolve(key);
      Files.deleteIfExists(p);
      Path dir = p.getParent();
      try (Stream<Path> left = Files.list(dir)) {
        if (!dir.equals(root) && left.findAny().isEmpty()) {
          Files.deleteIfExists(dir);
        }
      } catch (NoSuchFileException | java.nio.file.DirectoryNotEmptyException ignored) {
        // removed meanwhile, or refilled: fine
      }
    }
  }

  @Override
  public Optional<URI> presign(String key, Duration validFor) {
    return Optional.empty();
  }

  @Override
  public String describe() {
    return "local " + root;
  }

  @Override
  public void close() {}

  private Path resolve(String key) {
    Path p = root.resolve(key).normalize();
    if (!p.startsWith(root) || p.equals(root)) {
      throw new IllegalArgumentException("spool key outside the results directory: " + key);
    }
    return p;
  }
}
