package dev.lake.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.fragment.DataFile;
import org.lance.fragment.DeletionFile;
import org.lance.fragment.DeletionFileType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table location's data and deletion files, for lake's orphan sweep and the dropped-generation collector: what
 * is stored ({@link ObjectStore}), what given versions reference (their manifests' fragments), deleting some, and
 * removing a whole location even when no manifest was ever written (a crashed create).
 */
final class DataFiles {
  static final String DATA_DIR = "data/";
  static final String DELETIONS_DIR = "_deletions/";
  private static final Logger LOG = LoggerFactory.getLogger(DataFiles.class);
  /** The top-level entries a Lance dataset directory may hold; anything else means it is not a table location. */
  private static final Set<String> LANCE_ENTRIES =
      Set.of("data", "_versions", "_transactions", "_deletions", "_indices", "_refs");

  private final List<ObjectStore> stores;
  private final LanceDatasets datasets;

  DataFiles(List<ObjectStore> stores, LanceDatasets datasets) {
    this.stores = List.copyOf(stores);
    this.datasets = datasets;
  }

  /** See {@link TableEngine#listDataFiles}. */
  List<StoredFile> list(LanceLocation at) {
    ObjectStore store = storeFor(at).orElseThrow(() -> noStore(at));
    try {
      List<StoredFile> files = new ArrayList<>(store.list(at.uri(), DATA_DIR));
      files.addAll(store.list(at.uri(), DELETIONS_DIR));
      return files;
    } catch (IOException e) {
      throw storageFailure("listing data files", at, e);
    }
  }

  /** See {@link TableEngine#listAllFiles}. */
  List<StoredFile> listAll(LanceLocation at) {
    ObjectStore store = storeFor(at).orElseThrow(() -> noStore(at));
    try {
      return store.list(at.uri(), "");
    } catch (IOException e) {
      throw storageFailure("listing files", at, e);
    }
  }

  /** See {@link TableEngine#referencedDataFiles}. */
  Set<String> referenced(LanceLocation at, Collection<Long> versions, BufferAllocator allocator) {
    Set<String> paths = new TreeSet<>();
    for (long version : new TreeSet<>(versions)) {
      String action = "reading the files of version " + version;
      try (Tracked<Dataset> dataset = datasets.open(at, Optional.of(version), allocator, action)) {
        for (Fragment fragment : dataset.get().getFragments()) {
          FragmentMetadata metadata = fragment.metadata();
          for (DataFile file : metadata.getFiles()) {
            paths.add(DATA_DIR + file.getPath());
          }
          if (metadata.getDeletionFile() != null) {
            paths.add(deletionFilePath(metadata.getId(), metadata.getDeletionFile()));
          }
        }
      } catch (EngineException e) {
        throw e;
      } catch (Exception e) {
        throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
      }
    }
    return paths;
  }

  /** See {@link TableEngine#deleteDataFiles}. */
  void delete(LanceLocation at, Collection<String> relativePaths) {
    relativePaths.forEach(DataFiles::checkDeletable);
    ObjectStore store = storeFor(at).orElseThrow(() -> noStore(at));
    try {
      store.delete(at.uri(), relativePaths);
      LOG.info("deleted data files location={} files={}", at, relativePaths.size());
    } catch (IOException e) {
      throw storageFailure("deleting data files", at, e);
    }
  }

  /**
   * Checks that the location holds nothing but Lance's own directories (so a wrong location is never wiped).
   * Returns false when no store serves the location (then only Lance's drop removes anything).
   *
   * @throws IllegalArgumentException when something else is there
   */
  boolean checkLanceShaped(LanceLocation at) {
    Optional<ObjectStore> store = storeFor(at);
    if (store.isEmpty()) {
      return false;
    }
    try {
      for (StoredFile file : store.get().list(at.uri(), "")) {
        String top = file.path().contains("/") ? file.path().substring(0, file.path().indexOf('/')) : file.path();
        if (!LANCE_ENTRIES.contains(top)) {
          throw new IllegalArgumentException("refusing to delete " + at.location() + ": it holds " + file.path()
              + ", which is not part of a Lance dataset; a table location holds only " + LANCE_ENTRIES);
        }
      }
      return true;
    } catch (IOException e) {
      throw storageFailure("listing the location before deleting it", at, e);
    }
  }

  /** Deletes everything left under the location (after {@link #checkLanceShaped}). */
  void deleteLocation(LanceLocation at) {
    ObjectStore store = storeFor(at).orElseThrow(() -> noStore(at));
    try {
      store.deleteAll(at.uri());
    } catch (IOException e) {
      throw storageFailure("deleting the location", at, e);
    }
  }

  /**
   * Lance's deletion file name: {@code _deletions/<fragment>-<readVersion>-<id>.<arrow|bin>}, the numbers being
   * Rust u64s (the random id often exceeds Java's signed range).
   */
  static String deletionFilePath(int fragmentId, DeletionFile file) {
    String suffix = file.getFileType() == DeletionFileType.BITMAP ? "bin" : "arrow";
    return DELETIONS_DIR + Integer.toUnsignedString(fragmentId) + "-" + Long.toUnsignedString(file.getReadVersion())
        + "-" + Long.toUnsignedString(file.getId()) + "." + suffix;
  }

  private static void checkDeletable(String path) {
    boolean underDataDir = path.startsWith(DATA_DIR) || path.startsWith(DELETIONS_DIR);
    boolean plain = !path.contains("\\") && !path.endsWith("/") && !Path.of(path).isAbsolute()
        && Path.of(path).normalize().toString().equals(path);
    if (!underDataDir || !plain || path.equals(DATA_DIR) || path.equals(DELETIONS_DIR)) {
      throw new IllegalArgumentException("refusing to delete '" + path + "': only files under " + DATA_DIR + " or "
          + DELETIONS_DIR + " of a table location can be deleted, given as normalized relative paths");
    }
  }

  private Optional<ObjectStore> storeFor(LanceLocation at) {
    return stores.stream().filter(s -> s.serves(at.uri())).findFirst();
  }

  private static UnsupportedOperationException noStore(LanceLocation at) {
    return new UnsupportedOperationException("no object store is configured for " + at.location() + ": give the "
        + "engine one that serves this location (LocalObjectStore for local paths, S3ObjectStore for s3://)");
  }

  private static StorageException storageFailure(String action, LanceLocation at, IOException e) {
    return new StorageException(action + " at " + at.location() + " failed: " + e
        + ". The storage under the table failed; retrying may succeed", e);
  }
}
