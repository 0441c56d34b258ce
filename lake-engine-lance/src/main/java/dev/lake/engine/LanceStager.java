package dev.lake.engine;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a caller's stream into uncommitted Lance data files ({@code Fragment.write()}): the reader is exported as
 * a C stream that Lance pulls one batch at a time, through a {@link CountingReader} that counts the rows and keeps
 * the producer's own exception. Files are written in Lance's create mode, so their column ids follow the staged
 * schema's order; {@link LanceCommits} checks an Append against the table before using them.
 */
final class LanceStager {
  private static final Logger LOG = LoggerFactory.getLogger(LanceStager.class);
  private static final String ACTION = "staging data files";

  private final StorageOptions storageOptions;

  LanceStager(StorageOptions storageOptions) {
    this.storageOptions = storageOptions;
  }

  /** Stages {@code data} under {@code at}, closing it; {@code allocator} is the operation's own. */
  StagedData stage(LanceLocation at, ArrowReader data, BufferAllocator allocator) {
    try (CountingReader counting = new CountingReader(allocator, data);
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      Schema schema = inputSchema(at, data);
      Data.exportArrayStream(allocator, counting, stream);
      List<FragmentMetadata> fragments;
      try {
        fragments = Fragment.write()
            .datasetUri(at.uri())
            .allocator(allocator)
            .data(stream)
            .storageOptions(storageOptions.current())
            .execute();
      } catch (RuntimeException e) {
        throw failure(at, counting, e);
      }
      long fragmentRows = fragments.stream().mapToLong(FragmentMetadata::getNumRows).sum();
      if (fragmentRows != counting.rows()) {
        LOG.warn("staged row count differs location={} counted={} fragmentRows={}", at, counting.rows(),
            fragmentRows);
      }
      Set<String> columnsWithNulls = counting.columnsWithNulls();
      Optional<String> nullsInRequired = AppendSchemas.nullsInRequiredColumns(schema, columnsWithNulls);
      if (nullsInRequired.isPresent()) {
        throw new IncompatibleDataException(ACTION + " at " + at.location() + " failed: " + nullsInRequired.get()
            + ". Send no nulls in NOT NULL columns, or declare them nullable", null);
      }
      LOG.debug("staged location={} rows={} batches={} fragments={}", at, counting.rows(), counting.batches(),
          fragments.size());
      return new StagedData(at.location(), schema, counting.rows(), fragments, Optional.of(columnsWithNulls));
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate(ACTION, at, e, LanceErrors.Input.DATA);
    }
  }

  private static Schema inputSchema(LanceLocation at, ArrowReader data) {
    try {
      return data.getVectorSchemaRoot().getSchema();
    } catch (Exception e) {
      throw new DataStreamException(ACTION + " at " + at.location() + " failed: the input stream's schema could "
          + "not be read: " + LanceErrors.detail(e), e);
    }
  }

  /** The producer's failure when there was one (Lance reports only its text), else Lance's own, translated. */
  private static EngineException failure(LanceLocation at, CountingReader counting, RuntimeException lanceFailure) {
    Throwable producer = counting.producerFailure();
    if (producer == null) {
      return LanceErrors.translate(ACTION, at, lanceFailure, LanceErrors.Input.DATA);
    }
    DataStreamException failure = new DataStreamException(ACTION + " at " + at.location() + " failed: reading "
        + "the input stream failed after " + counting.rows() + " rows: " + LanceErrors.detail(producer)
        + ". Nothing was committed; send the data again", producer);
    failure.addSuppressed(lanceFailure);
    return failure;
  }
}
