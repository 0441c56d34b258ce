package dev.lake.flight.metadata;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Fills a freshly allocated {@code GET_SQL_INFO_SCHEMA} root with (info_name, value) rows, writing
 * each value into its dense-union member and pointing the union's offset at it.
 */
final class SqlInfoWriter {

  private SqlInfoWriter() {}

  /** One GetSqlInfo row. */
  record Row(int infoName, SqlInfoValue value) {}

  /**
   * Writes {@code rows} at indexes 0..n-1 of {@code root} and sets its row count.
   *
   * @param root a root with {@code FlightSqlProducer.Schemas.GET_SQL_INFO_SCHEMA}, just allocated
   * @param rows the rows to write
   */
  static void fill(VectorSchemaRoot root, List<Row> rows) {
    UInt4Vector names = (UInt4Vector) root.getVector("info_name");
    DenseUnionVector values = (DenseUnionVector) root.getVector("value");
    int[] nextOffset = new int[6];
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      byte typeId = row.value().typeId();
      int offset = nextOffset[typeId]++;
      names.setSafe(i, row.infoName());
      values.setTypeId(i, typeId);
      values.setOffset(i, offset);
      writeMember(values, offset, row.value());
    }
    values.setValueCount(rows.size());
    root.setRowCount(rows.size());
  }

  private static void writeMember(DenseUnionVector values, int offset, SqlInfoValue value) {
    var member = values.getVectorByType(value.typeId());
    if (value instanceof SqlInfoValue.Utf8 v) {
      ((VarCharVector) member).setSafe(offset, utf8(v.value()));
    } else if (value instanceof SqlInfoValue.Bool v) {
      ((BitVector) member).setSafe(offset, v.value() ? 1 : 0);
    } else if (value instanceof SqlInfoValue.BigInt v) {
      ((BigIntVector) member).setSafe(offset, v.value());
    } else if (value instanceof SqlInfoValue.Int32 v) {
      ((IntVector) member).setSafe(offset, v.value());
    } else if (value instanceof SqlInfoValue.StringList v) {
      writeStrings((ListVector) member, offset, v.values());
    } else if (value instanceof SqlInfoValue.IntListMap v) {
      writeMap((MapVector) member, offset, v.values());
    } else {
      throw new IllegalStateException("unknown SqlInfo value " + value);
    }
  }

  private static void writeStrings(ListVector list, int offset, List<String> strings) {
    int start = list.startNewValue(offset);
    VarCharVector items = (VarCharVector) list.getDataVector();
    for (int k = 0; k < strings.size(); k++) {
      items.setSafe(start + k, utf8(strings.get(k)));
    }
    list.endValue(offset, strings.size());
  }

  private static void writeMap(MapVector map, int offset, Map<Integer, List<Integer>> entries) {
    int entry = map.startNewValue(offset);
    StructVector struct = (StructVector) map.getDataVector();
    IntVector keys = struct.getChild(MapVector.KEY_NAME, IntVector.class);
    ListVector lists = struct.getChild(MapVector.VALUE_NAME, ListVector.class);
    for (Map.Entry<Integer, List<Integer>> e : entries.entrySet()) {
      struct.setIndexDefined(entry);
      keys.setSafe(entry, e.getKey());
      int start = lists.startNewValue(entry);
      IntVector items = (IntVector) lists.getDataVector();
      List<Integer> targets = e.getValue();
      for (int k = 0; k < targets.size(); k++) {
        items.setSafe(start + k, targets.get(k));
      }
      lists.endValue(entry, targets.size());
      entry++;
    }
    map.endValue(offset, entries.size());
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
