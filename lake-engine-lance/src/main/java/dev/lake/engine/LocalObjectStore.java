package dev.lake.engine;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** {@link ObjectStore} over the local file system ({@code java.nio}); serves absolute paths. */
public final class LocalObjectStore implements ObjectStore {

  @Override
  public boolean serves(String root) {
    return root.startsWith("/");
  }

  @Override
  public List<StoredFile> list(String root, String prefix) throws IOException {
    Path base = Path.of(root);
    Path dir = prefix.isEmpty() ? base : base.resolve(prefix);
    List<StoredFile> files = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (attributes.isRegularFile()) {
          files.add(new StoredFile(relative(base, file), attributes.size(),
              attributes.lastModifiedTime().toInstant()));
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
        if (failure instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw failure;
      }
    });
    return files;
  }

  @Override
  public void delete(String root, Collection<String> relativePaths) throws IOException {
    Path base = Path.of(root);
    for (String path : relativePaths) {
      Files.deleteIfExists(base.resolve(path));
    }
  }

  @Override
  public void deleteAll(String root) throws IOException {
    Path base = Path.of(root);
    if (!Files.exists(base)) {
      return;
    }
    Files.walkFileTree(base, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        Files.deleteIfExists(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
        if (failure instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw failure;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
        if (failure != null && !(failure instanceof NoSuchFileException)) {
          throw failure;
        }
        Files.deleteIfExists(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  private static String relative(Path base, Path file) {
    return base.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
  }
}
