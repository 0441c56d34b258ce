package dev.lake.flight.cli;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.dataset.jni.NativeMemoryPool;
import org.apache.arrow.dataset.scanner.ScanOptions;
import org.apache.arrow.dataset.scanner.Scanner;
import org.apache.arrow.dataset.source.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import dev.lake.flight.arrow.DictionaryColumns;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The batches of several files, read one file after the other with Arrow's dataset reader
 * ({@link FileSystemDatasetFactory}), as one {@link ArrowReader} for bulk ingest. Every file must have the first
 * file's schema. Each batch is reported to a {@link Progress}.
 */
public final class FileBatches extends ArrowReader {
  private final BufferAllocator allocator;
  private final List<SourceFile> files;
  private final int batchRows;
  private final Progress progress;
  private final Schema schema;
  private int next;
  private Open current;
  private long bytesRead;

  public FileBatches(BufferAllocator allocator, List<SourceFile> files, int batchRows, Progress progress) {
    super(allocator);
    if (files.isEmpty()) {
      throw new UsageException("no input files");
    }
    this.allocator = allocator;
    this.files = List.copyOf(files);
    this.batchRows = batchRows;
    this.progress = progress;
    try (Open first = open(files.get(0))) {
      // dictionary-encoded columns (Parquet written from pandas categories) are sent as their values
      this.schema = DictionaryColumns.decoded(first.reader.getVectorSchemaRoot().getSchema(), first.reader);
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e); // open() names the file and the format
    }
  }

  /** Counts the rows of {@code file} by scanning it without columns (Parquet and Arrow IPC: metadata only). */
  public static long countRows(BufferAllocator allocator, SourceFile file) throws Exception {
    try (FileSystemDatasetFactory factory = new FileSystemDatasetFactory(allocator,
            NativeMemoryPool.getDefault(), file.format(), file.uri());
        Dataset dataset = factory.finish();
        Scanner scanner = dataset.newScan(new ScanOptions(1 << 16, Optional.of(new String[0])));
        ArrowReader reader = scanner.scanBatches()) {
      long rows = 0;
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
      return rows;
    }
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    while (true) {
      if (current == null) {
        if (next >= files.size()) {
          return false;
        }
        SourceFile file = files.get(next++);
        current = open(file);
        Schema found = DictionaryColumns.decoded(current.reader.getVectorSchemaRoot().getSchema(), current.reader);
        if (!sameColumns(found, schema)) {
          throw new IllegalArgumentException(file.path() + " has the columns " + found + ", but "
              + files.get(0).path() + " has " + schema + ": ingest files of one schema together");
        }
        progress.file(file);
      }
      if (current.reader.loadNextBatch()) {
        VectorSchemaRoot source = current.reader.getVectorSchemaRoot();
        VectorSchemaRoot target = getVectorSchemaRoot();
        if (DictionaryColumns.any(source.getSchema())) {
          long bytes = 0;
          for (int i = 0; i < source.getFieldVectors().size(); i++) {
            bytes += source.getVector(i).getBufferSize();
            if (source.getVector(i).getField().getDictionary() != null) {
              DictionaryColumns.decodeInto(source.getVector(i), current.reader, target.getVector(i));
            } else {
              source.getVector(i).makeTransferPair(target.getVector(i)).transfer();
            }
          }
          target.setRowCount(source.getRowCount());
          bytesRead += bytes;
          progress.batch(target.getRowCount(), bytes);
          return true;
        }
        try (ArrowRecordBatch batch = new VectorUnloader(source).getRecordBatch()) {
          new VectorLoader(target).load(batch);
          long bytes = batch.computeBodyLength();
          bytesRead += bytes;
          progress.batch(target.getRowCount(), bytes);
        }
        return true;
      }
      current.close();
      current = null;
    }
  }

  private static boolean sameColumns(Schema a, Schema b) {
    return a.getFields().equals(b.getFields());
  }

  private Open open(SourceFile file) throws IOException {
    FileSystemDatasetFactory factory = null;
    Dataset dataset = null;
    Scanner scanner = null;
    try {
      factory = new FileSystemDatasetFactory(allocator, NativeMemoryPool.getDefault(), file.format(), file.uri());
      dataset = factory.finish();
      scanner = dataset.newScan(new ScanOptions(batchRows));
      return new Open(factory, dataset, scanner, scanner.scanBatches());
    } catch (RuntimeException e) {
      closeAll(scanner, dataset, factory);
      throw new IOException("cannot read " + file.path() + " as " + file.format() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public long bytesRead() {
    return bytesRead;
  }

  @Override
  protected void closeReadSource() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }

  private static void closeAll(AutoCloseable... resources) throws IOException {
    Exception first = null;
    for (AutoCloseable r : resources) {
      if (r == null) {
        continue;
      }
      try {
        r.close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw new IOException("closing the file reader failed: " + first.getMessage(), first);
    }
  }

  /** One open file: its factory, dataset, scanner and batch reader, closed in reverse order. */
  private record Open(FileSystemDatasetFactory factory, Dataset dataset, Scanner scanner, ArrowReader reader)
      implements AutoCloseable {
    @Override
    public void close() throws IOException {
      closeAll(reader, scanner, dataset, factory);
    }
  }
}
