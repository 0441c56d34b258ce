package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LanceStageTest extends EngineTestSupport {

  @Test
  void stagePullsBatchesLazilyOneAtATime() {
    String location = newLocation("lazy");
    int batches = 40;
    int rowsPerBatch = 8192;

    StagedData staged;
    try (LazinessProbe probe = new LazinessProbe(allocator, batches, rowsPerBatch)) {
      staged = engine.stage(location, probe);
      assertThat(probe.loadedBatches()).isEqualTo(batches);
      assertThat(probe.maxUnconsumedBatches())
          .as("batches loaded but not yet consumed while Lance pulled the next one")
          .isLessThanOrEqualTo(1);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }

    assertThat(staged.rowCount()).isEqualTo((long) batches * rowsPerBatch);
    assertThat(engine.create(location, staged)).isEqualTo(1);
    try (TableSnapshot snapshot = engine.open(location, 1, allocator)) {
      assertThat(snapshot.countRows()).isEqualTo((long) batches * rowsPerBatch);
    }
  }

  @Test
  void lazinessProbeSeesAConsumerThatHoldsOnToBatches() throws IOException {
    List<org.apache.arrow.memory.ArrowBuf> held = new ArrayList<>();
    try (LazinessProbe probe = new LazinessProbe(allocator, 5, 16)) {
      while (probe.loadNextBatch()) {
        for (org.apache.arrow.vector.FieldVector vector : probe.getVectorSchemaRoot().getFieldVectors()) {
          for (org.apache.arrow.memory.ArrowBuf buffer : vector.getBuffers(false)) {
            buffer.getReferenceManager().retain();
            held.add(buffer);
          }
        }
      }
      assertThat(probe.maxUnconsumedBatches()).isEqualTo(4);
    } finally {
      held.forEach(buffer -> buffer.getReferenceManager().release());
    }
  }

  @Test
  void producerFailureMidStreamCommitsNothingAndSurfacesTheProducersException() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1);
    List<List<Object>> rows = new ArrayList<>();
    for (long id = 100; id < 110; id++) {
      rows.add(Rows.row(id, "x"));
    }
    RowsReader failing = new RowsReader(allocator, ID_NAME, rows, 2, 3);

    assertThatThrownBy(() -> engine.stage(location, failing))
        .isInstanceOf(DataStreamException.class)
        .hasMessageContaining("after 6 rows")
        .hasRootCauseInstanceOf(IOException.class)
        .hasRootCauseMessage("test producer failed at batch 3");

    assertThat(failing.loadedBatches()).isEqualTo(3);
    assertThat(failing.closed()).as("the caller's reader is closed").isTrue();
    assertThat(engine.latestVersion(location)).isEqualTo(v1);
    assertThat(idsAt(location, v1)).containsExactly(1L);
  }

  @Test
  void stageConsumesAndClosesTheReaderAndCountsRowsOverBatches() {
    String location = newLocation("t");
    RowsReader reader = idNameRows(1, 2, 3, 4, 5);

    StagedData staged = engine.stage(location, reader);

    assertThat(staged.rowCount()).isEqualTo(5);
    assertThat(reader.loadedBatches()).isEqualTo(3);
    assertThat(reader.closed()).isTrue();
    assertThat(staged.schema()).isEqualTo(ID_NAME);
    assertThat(engine.exists(location)).as("staging alone creates no dataset").isFalse();
  }

  @Test
  void emptyInputCreatesAnEmptyTable() {
    String location = newLocation("empty");

    StagedData staged = engine.stage(location, idNameRows());
    long v1 = engine.create(location, staged);

    assertThat(staged.rowCount()).isZero();
    assertThat(v1).isEqualTo(1);
    try (TableSnapshot snapshot = engine.open(location, v1, allocator)) {
      assertThat(snapshot.countRows()).isZero();
      assertThat(snapshot.schema().getFields()).extracting(f -> f.getName()).containsExactly("id", "name");
      assertThat(Rows.drain(snapshot.scan(List.of(), Optional.empty(), Optional.empty(), 16))).isEmpty();
    }
    long v2 = appendIds(location, v1, 4);
    assertThat(idsAt(location, v2)).containsExactly(4L);
  }

  @Test
  void appendingNoRowsCommitsNothingAndReturnsTheReadVersion() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2);

    long result = engine.commit(location, v1, new TableChange.Append(stageIds(location)));

    assertThat(result).isEqualTo(v1);
    assertThat(engine.latestVersion(location)).isEqualTo(v1);
  }

  @Test
  void overwritingWithNoRowsEmptiesTheTable() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2);

    long v2 = engine.commit(location, v1, new TableChange.Overwrite(stageIds(location)));

    assertThat(v2).isEqualTo(v1 + 1);
    assertThat(idsAt(location, v2)).isEmpty();
  }

  @Test
  void plainPathsFileUrisAndTrailingSlashesNameTheSameDataset() {
    Path dir = dataRoot.resolve("spellings").resolve("gen-1");
    String plain = dir.toString();
    String withSlash = dir + "/";
    String fileUri = dir.toUri().toString();

    long v1 = engine.create(withSlash, engine.stage(withSlash, idNameRows(1, 2)));
    long v2 = engine.commit(fileUri, v1, new TableChange.Append(engine.stage(fileUri, idNameRows(3))));

    assertThat(fileUri).startsWith("file:/");
    assertThat(engine.exists(plain)).isTrue();
    assertThat(engine.latestVersion(plain)).isEqualTo(v2);
    assertThat(idsAt(plain, v2)).containsExactly(1L, 2L, 3L);
  }

  @Test
  void relativeLocationsAreRefused() {
    assertThatThrownBy(() -> engine.exists("relative/t/gen"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("relative path");
  }
}
