package dev.lake.metasrv;

import dev.lake.engine.SqlTypeNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Presents an appended stream in the table's column order and names (docs/design.md: columns match by name,
 * case-insensitively, in any order; types must be equal; a NOT NULL column rejects nulls; extra or missing
 * columns are refused). Batches are moved, not copied, one at a time.
 */
public final class ConformingReader extends ArrowReader implements ReportsFailure {
  private final ArrowReader source;
  private final Schema target;
  private final int[] sourceIndex;
  private volatile RuntimeException failure;

  private ConformingReader(ArrowReader source, Schema target, int[] sourceIndex, BufferAllocator allocator) {
    super(allocator);
    this.source = source;
    this.target = target;
    this.sourceIndex = sourceIndex;
  }

  /**
   * Checks {@code source}'s schema against {@code table} and returns a reader of the conformed batches.
   *
   * @throws SchemaMismatchException naming every column that is missing, extra or of another type
   */
  public static ConformingReader conform(String tableName, Schema table, ArrowReader source,
      BufferAllocator allocator) throws IOException {
    Schema incoming = source.getVectorSchemaRoot().getSchema();
    Map<String, Integer> byName = new HashMap<>();
    List<Field> fields = incoming.getFields();
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      if (byName.put(fields.get(i).getName().toLowerCase(Locale.ROOT), i) != null) {
        problems.add("column '" + fields.get(i).getName() + "' appears twice");
      }
    }
    int[] index = new int[table.getFields().size()];
    for (int t = 0; t < index.length; t++) {
      Field want = table.getFields().get(t);
      Integer s = byName.remove(want.getName().toLowerCase(Locale.ROOT));
      if (s == null) {
        problems.add("column '" + want.getName() + "' (" + SqlTypeNames.of(want.getType()) + ") is missing");
        continue;
      }
      Field got = fields.get(s);
      if (!got.getType().equals(want.getType()) || !got.getChildren().equals(want.getChildren())) {
        problems.add("column '" + want.getName() + "' is " + SqlTypeNames.of(want.getType()) + " in the table but "
            + SqlTypeNames.of(got.getType()) + " in the data");
      }
      index[t] = s;
    }
    for (int extra : byName.values()) {
      problems.add("column '" + fields.get(extra).getName() + "' does not exist in the table");
    }
    if (!problems.isEmpty()) {
      throw new SchemaMismatchException("the data does not match table '" + tableName + "': "
          + String.join("; ", problems) + " (lake does not evolve schemas on append; use replace)");
    }
    return new ConformingReader(source, table, index, allocator);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    try {
      if (!source.loadNextBatch()) {
        return false;
      }
      VectorSchemaRoot in = source.getVectorSchemaRoot();
      VectorSchemaRoot out = getVectorSchemaRoot();
      for (int t = 0; t < sourceIndex.length; t++) {
        FieldVector from = in.getVector(sourceIndex[t]);
        FieldVector to = out.getVector(t);
        from.makeTransferPair(to).transfer();
        Field field = target.getFields().get(t);
        if (!field.isNullable() && to.getNullCount() > 0) {
          throw new SchemaMismatchException("column '" + field.getName() + "' is NOT NULL but the data holds "
              + to.getNullCount() + " null value(s)");
        }
      }
      out.setRowCount(in.getRowCount());
      return true;
    } catch (RuntimeException e) {
      failure = failure == null ? e : failure;
      throw e;
    }
  }

  @Override
  public Optional<RuntimeException> failure() {
    if (failure != null) {
      return Optional.of(failure);
    }
    return source instanceof ReportsFailure r ? r.failure() : Optional.empty();
  }

  @Override
  public long bytesRead() {
    return source.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    source.close();
  }

  @Override
  protected Schema readSchema() {
    return target;
  }
}
