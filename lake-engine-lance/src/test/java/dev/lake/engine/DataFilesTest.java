package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.fragment.DeletionFile;
import org.lance.fragment.DeletionFileType;

class DataFilesTest extends EngineTestSupport {

  @Test
  void stagedFilesAreListedButReferencedOnlyOnceCommitted() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2);
    Set<String> committed = engine.referencedDataFiles(location, List.of(v1));
    StagedData staged = stageIds(location, 3);

    Set<String> listedWhileStaged = paths(engine.listDataFiles(location));
    Set<String> orphans = new HashSet<>(listedWhileStaged);
    orphans.removeAll(engine.referencedDataFiles(location, List.of(v1)));
    long v2 = engine.commit(location, v1, new TableChange.Append(staged));

    assertThat(committed).hasSize(1).allMatch(path -> path.startsWith("data/") && path.endsWith(".lance"));
    assertThat(listedWhileStaged).hasSize(2).containsAll(committed);
    assertThat(orphans).hasSize(1);
    assertThat(engine.referencedDataFiles(location, List.of(v2))).containsAll(orphans).containsAll(committed);
    assertThat(engine.referencedDataFiles(location, List.of(v1, v2))).isEqualTo(listedWhileStaged);
  }

  @Test
  void listedFilesCarrySizeAndModificationTime() throws Exception {
    String location = newLocation("t");
    createWithIds(location, 1, 2, 3);

    List<StoredFile> files = engine.listDataFiles(location);

    assertThat(files).hasSize(1);
    StoredFile file = files.get(0);
    Path onDisk = Path.of(LanceLocation.of(location).uri()).resolve(file.path());
    assertThat(file.size()).isEqualTo(Files.size(onDisk)).isPositive();
    assertThat(file.lastModified()).isEqualTo(Files.getLastModifiedTime(onDisk).toInstant())
        .isBefore(Instant.now().plus(1, ChronoUnit.MINUTES));
  }

  @Test
  void deletionFilesAreListedAndReferencedUnderTheSameName() {
    String location = newLocation("t");
    createWithIds(location, 1, 2, 3);
    long withDeletion = deleteRowsDirectly(location, "id = 2");

    Set<String> referenced = engine.referencedDataFiles(location, List.of(withDeletion));
    Set<String> listed = paths(engine.listDataFiles(location));

    assertThat(referenced).anyMatch(path -> path.startsWith("_deletions/"));
    assertThat(listed).isEqualTo(referenced);
    assertThat(idsAt(location, withDeletion)).containsExactly(1L, 3L);
  }

  @Test
  void deletionFileNamesSpellLancesUnsignedNumbers() {
    DeletionFile array = new DeletionFile(-2L, 7L, 1L, DeletionFileType.ARRAY, null);
    DeletionFile bitmap = new DeletionFile(5L, 7L, 1L, DeletionFileType.BITMAP, null);

    assertThat(DataFiles.deletionFilePath(3, array)).isEqualTo("_deletions/3-7-18446744073709551614.arrow");
    assertThat(DataFiles.deletionFilePath(3, bitmap)).isEqualTo("_deletions/3-7-5.bin");
  }

  @Test
  void deleteDataFilesRemovesExactlyTheGivenOrphans() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1);
    stageIds(location, 2);
    Set<String> referenced = engine.referencedDataFiles(location, List.of(v1));
    List<String> orphans = engine.listDataFiles(location).stream().map(StoredFile::path)
        .filter(path -> !referenced.contains(path)).toList();

    engine.deleteDataFiles(location, orphans);
    engine.deleteDataFiles(location, orphans);

    assertThat(orphans).hasSize(1);
    assertThat(paths(engine.listDataFiles(location))).isEqualTo(referenced);
    assertThat(idsAt(location, v1)).containsExactly(1L);
  }

  @Test
  void deleteDataFilesRefusesPathsOutsideTheDataDirectoriesBeforeDeletingAnything() {
    String location = newLocation("t");
    createWithIds(location, 1);
    String dataFile = engine.listDataFiles(location).get(0).path();

    for (String bad : List.of("_versions/1.manifest", "data/../_versions/x", "/etc/passwd", "data/", "x.lance")) {
      assertThatThrownBy(() -> engine.deleteDataFiles(location, List.of(dataFile, bad)))
          .as(bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(paths(engine.listDataFiles(location))).containsExactly(dataFile);
  }

  @Test
  void referencedFilesOfAMissingVersionAreNotFound() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1);

    assertThatThrownBy(() -> engine.referencedDataFiles(location, List.of(v1, v1 + 1)))
        .isInstanceOf(DatasetNotFoundException.class);
    assertThat(engine.referencedDataFiles(location, List.of())).isEmpty();
  }

  @Test
  void dropRemovesAHalfWrittenLocation() {
    String location = newLocation("t");
    stageIds(location, 1, 2);
    Path directory = Path.of(LanceLocation.of(location).uri());
    assertThat(directory.resolve("data")).isDirectory();
    assertThat(engine.exists(location)).isFalse();

    engine.drop(location);

    assertThat(directory).doesNotExist();
  }

  @Test
  void dropRemovesADatasetItsOrphansAndItsDirectory() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1);
    appendIds(location, v1, 2);
    stageIds(location, 3);

    engine.drop(location);

    assertThat(Path.of(LanceLocation.of(location).uri())).doesNotExist();
    assertThat(engine.exists(location)).isFalse();
  }

  @Test
  void dropRefusesADirectoryHoldingAnythingButLanceFiles() throws Exception {
    String location = newLocation("t");
    createWithIds(location, 1);
    Path stranger = Path.of(LanceLocation.of(location).uri()).resolve("notes.txt");
    Files.writeString(stranger, "not lance");

    assertThatThrownBy(() -> engine.drop(location))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("notes.txt");
    assertThat(stranger).exists();
    assertThat(idsAt(location, 1)).containsExactly(1L);
  }

  @Test
  void dropOfAnEmptyLocationDoesNothing() {
    String location = newLocation("t");

    engine.drop(location);

    assertThat(Path.of(LanceLocation.of(location).uri())).doesNotExist();
  }

  @Test
  void fileApisNeedAnObjectStoreForTheLocation() {
    assertThatThrownBy(() -> engine.listDataFiles("s3://bucket/t/gen"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> engine.deleteDataFiles("s3://bucket/t/gen", List.of("data/x.lance")))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  /** Deletes rows with Lance directly (lake has no DML yet), which writes a deletion file; returns the version. */
  private long deleteRowsDirectly(String location, String predicate) {
    try (BufferAllocator child = allocator.newChildAllocator("delete", 0, Long.MAX_VALUE);
        Dataset dataset = Dataset.open().allocator(child).uri(LanceLocation.of(location).uri()).build()) {
      dataset.delete(predicate);
      return dataset.version();
    }
  }

  private static Set<String> paths(List<StoredFile> files) {
    return files.stream().map(StoredFile::path).collect(Collectors.toSet());
  }
}
