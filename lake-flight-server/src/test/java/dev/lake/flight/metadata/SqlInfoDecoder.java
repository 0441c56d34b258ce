package dev.lake.flight.metadata;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;

/** Reads GetSqlInfo batches back into typed values, the way a client decodes the dense union. */
final class SqlInfoDecoder {
  private SqlInfoDecoder() {}

  /** Adds every row of {@code batch} to {@code into}, keyed by info_name, in row order. */
  static void decode(VectorSchemaRoot batch, Map<Integer, SqlInfoValue> into) {
    UInt4Vector names = (UInt4Vector) batch.getVector("info_name");
    DenseUnionVector values = (DenseUnionVector) batch.getVector("value");
    for (int i = 0; i < batch.getRowCount(); i++) {
      into.put(names.get(i), value(values, i));
    }
  }

  /** Decodes all batches. */
  static Map<Integer, SqlInfoValue> decodeAll(List<VectorSchemaRoot> batches) {
    Map<Integer, SqlInfoValue> all = new LinkedHashMap<>();
    batches.forEach(b -> decode(b, all));
    return all;
  }

  private static SqlInfoValue value(DenseUnionVector values, int index) {
    byte type = values.getTypeId(index);
    int offset = values.getOffset(index);
    var member = values.getVectorByType(type);
    switch (type) {
      case 0:
        return new SqlInfoValue.Utf8(((VarCharVector) member).getObject(offset).toString());
      case 1:
        return new SqlInfoValue.Bool(((BitVector) member).get(offset) == 1);
      case 2:
        return new SqlInfoValue.BigInt(((BigIntVector) member).get(offset));
      case 3:
        return new SqlInfoValue.Int32(((IntVector) member).get(offset));
      case 4:
        List<String> strings = new ArrayList<>();
        for (Object item : ((ListVector) member).getObject(offset)) {
          strings.add(item.toString());
        }
        return new SqlInfoValue.StringList(strings);
      case 5:
        Map<Integer, List<Integer>> map = new TreeMap<>();
        for (Object entry : ((MapVector) member).getObject(offset)) {
          Map<?, ?> struct = (Map<?, ?>) entry;
          List<Integer> targets = new ArrayList<>();
          for (Object target : (List<?>) struct.get(MapVector.VALUE_NAME)) {
            targets.add((Integer) target);
          }
          map.put((Integer) struct.get(MapVector.KEY_NAME), targets);
        }
        return new SqlInfoValue.IntListMap(map);
      default:
        throw new AssertionError("unknown union type id " + type + " at row " + index);
    }
  }
}
