package dev.lake.query.plan.runtime;

import dev.lake.query.plan.lance.RuntimeKeys;
import dev.lake.query.plan.types.RowShape;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * The build side of a hash join recording its join key into a runtime-key slot as Calcite's generated code reads it
 * (stashed by {@link EnumerableKeyCollector}). Rows pass through unchanged; the slot completes when the rows end.
 */
public record KeyCollectorCall(int slot, int key, RowShape shape) {
  public Enumerable<Object> collect(DataContext root, Enumerable<Object> rows) {
    RuntimeKeys.Slot target = RuntimeKeys.of(root).slot(slot);
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object> enumerator() {
        target.reset();
        Enumerator<Object> inner = rows.enumerator();
        return new Enumerator<>() {
          @Override
          public Object current() {
            return inner.current();
          }

          @Override
          public boolean moveNext() {
            if (!inner.moveNext()) {
              target.complete();
              return false;
            }
            target.add(keyOf(inner.current()));
            return true;
          }

          @Override
          public void reset() {
            throw new UnsupportedOperationException("a key collector cannot be rewound");
          }

          @Override
          public void close() {
            inner.close();
          }
        };
      }
    };
  }

  private Object keyOf(Object row) {
    switch (shape) {
      case SCALAR:
        return row;
      case ARRAY:
        return ((Object[]) row)[key];
      default:
        return ((List<?>) row).get(key);
    }
  }
}
