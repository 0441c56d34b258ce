package dev.lake.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.util.Text;

/** Reads test results into comparable rows (Text as String, byte[] as a List of bytes). */
final class Rows {
  private Rows() {}

  /** Drains {@code reader} (and closes it). */
  static List<List<Object>> drain(ArrowReader reader) {
    try (reader) {
      List<List<Object>> rows = new ArrayList<>();
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        for (int r = 0; r < root.getRowCount(); r++) {
          List<Object> row = new ArrayList<>();
          for (FieldVector vector : root.getFieldVectors()) {
            row.add(comparable(vector.getObject(r)));
          }
          rows.add(row);
        }
      }
      return rows;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static Object comparable(Object value) {
    if (value instanceof Text text) {
      return text.toString();
    }
    if (value instanceof byte[] bytes) {
      return toList(bytes);
    }
    return value;
  }

  static List<Byte> toList(byte[] bytes) {
    List<Byte> list = new ArrayList<>();
    for (byte b : bytes) {
      list.add(b);
    }
    return list;
  }

  static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }
}
