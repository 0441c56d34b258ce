package dev.lake.query.plan.enumerable;

import dev.lake.query.guard.HeapCharge;
import dev.lake.query.guard.QueryMemoryException;
import dev.lake.query.spill.SpillFile;
import dev.lake.query.spill.SpillSpace;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Function1;

/**
 * The rows of an ORDER BY, sorted within the query's memory limit: rows are buffered (charged to the query's
 * allocator as {@link HeapCharge} estimates); when a charge is refused or the buffer holds its share of the memory
 * limit ({@link Space#buffer}) and the query may spill, the buffer is sorted
 * into a run on disk (the rows Java-serialized: Calcite's values are) and its charge given back; at the end the runs are merged
 * (k-way, one row of each in memory). Stable like Calcite's sort: equal keys keep their input order (a run is sorted
 * stably, and among equal heads the earlier run goes first). What generated code calls ({@link EnumerableSpillingSort}).
 */
public final class SpillingSort {
  /** The data-context variable holding the execution's {@link Space}. */
  public static final String VARIABLE = "lakeSortSpill";
  private static final int RESET_EVERY = 1_024;

  private SpillingSort() {}

  /**
   * What a sort of one execution needs: the charge of its rows, its spill space (null: no spilling) and the most
   * bytes of rows it buffers before it writes a run when it may spill (a share of the memory limit, so the scans
   * feeding it keep room for their batches).
   */
  public record Space(HeapCharge rows, SpillSpace spill, long buffer) {}

  /** {@code input} sorted by {@code key} ({@code comparator}, or the keys' natural order when null). */
  public static <T, K> Enumerable<T> orderBy(Enumerable<T> input, Function1<T, K> key, Comparator<K> comparator,
      DataContext root) {
    Object found = root.get(VARIABLE);
    @SuppressWarnings("unchecked")
    Comparator<K> keys = comparator != null ? comparator : (Comparator<K>) Comparator.naturalOrder();
    Comparator<T> rows = (a, b) -> keys.compare(key.apply(a), key.apply(b));
    if (!(found instanceof Space space)) {
      return Linq4j.asEnumerable(sortedInMemory(input, rows));
    }
    return new AbstractEnumerable<T>() {
      @Override
      public Enumerator<T> enumerator() {
        return sort(input, rows, space);
      }
    };
  }

  private static <T> List<T> sortedInMemory(Enumerable<T> input, Comparator<T> rows) {
    List<T> all = new ArrayList<>();
    try (Enumerator<T> e = input.enumerator()) {
      while (e.moveNext()) {
        all.add(e.current());
      }
    }
    all.sort(rows);
    return all;
  }

  private static <T> Enumerator<T> sort(Enumerable<T> input, Comparator<T> rows, Space space) {
    List<T> buffer = new ArrayList<>();
    List<Run> runs = new ArrayList<>();
    HeapCharge charge = space.rows();
    long held = 0;
    boolean done = false;
    try (Enumerator<T> e = input.enumerator()) {
      while (e.moveNext()) {
        T row = e.current();
        long bytes = HeapCharge.rowBytes(row);
        boolean spills = space.spill() != null && space.spill().enabled();
        try {
          if (spills && held + bytes > space.buffer() && !buffer.isEmpty()) {
            throw new QueryMemoryException("the sort's buffer is full");
          }
          charge.add(bytes);
        } catch (QueryMemoryException refused) {
          if (!spills || buffer.isEmpty()) {
            throw refused;
          }
          runs.add(Run.write(buffer, rows, space.spill()));
          buffer.clear();
          charge.release(held);
          held = 0;
          charge.add(bytes);
        }
        held += bytes;
        buffer.add(row);
      }
      if (runs.isEmpty()) {
        buffer.sort(rows);
        done = true;
        return new Charged<>(Linq4j.iterableEnumerator(buffer), charge, held, List.of());
      }
      runs.add(Run.write(buffer, rows, space.spill()));
      buffer.clear();
      done = true;
      return new Charged<>(new Merge<>(runs, rows), charge, held, runs);
    } finally {
      if (!done) {
        charge.release(held);
        runs.forEach(Run::delete);
      }
    }
  }

  /** A sorted run on disk. */
  private record Run(SpillFile file, int rows) {
    static <T> Run write(List<T> buffer, Comparator<T> order, SpillSpace space) {
      buffer.sort(order);
      SpillFile file = space.create("sort-run");
      try {
        ObjectOutputStream out = new ObjectOutputStream(file.output());
        for (int i = 0; i < buffer.size(); i++) {
          out.writeObject(buffer.get(i));
          if (i % RESET_EVERY == RESET_EVERY - 1) {
            out.reset();
          }
        }
        out.flush();
        file.finish();
        return new Run(file, buffer.size());
      } catch (IOException | RuntimeException e) {
        file.delete();
        throw e instanceof IOException io ? new UncheckedIOException("writing a sort's spill file failed: "
            + io.getMessage(), io) : (RuntimeException) e;
      }
    }

    void delete() {
      file.delete();
    }
  }

  /** Reads one run back, row by row. */
  private static final class RunReader<T> {
    final int index;
    private final ObjectInputStream in;
    private int left;
    T head;

    RunReader(Run run, int index) {
      this.index = index;
      this.left = run.rows();
      try {
        DataInputStream raw = run.file().input();
        this.in = new ObjectInputStream(raw);
      } catch (IOException e) {
        throw new UncheckedIOException("reading a sort's spill file failed: " + e.getMessage(), e);
      }
    }

    @SuppressWarnings("unchecked")
    boolean advance() {
      if (left == 0) {
        close();
        head = null;
        return false;
      }
      try {
        head = (T) in.readObject();
        left--;
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException("reading a sort's spill file failed: " + e.getMessage(), e);
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("a sort's spill file holds a value of an unknown class", e);
      }
    }

    void close() {
      try {
        in.close();
      } catch (IOException ignored) {
        // read to its end or abandoned
      }
    }
  }

  /** The k-way merge of sorted runs; among equal rows the earlier run's first. */
  private static final class Merge<T> implements Enumerator<T> {
    private final PriorityQueue<RunReader<T>> heads;
    private final List<RunReader<T>> readers = new ArrayList<>();
    private T current;

    Merge(List<Run> runs, Comparator<T> order) {
      heads = new PriorityQueue<>(Math.max(1, runs.size()), (a, b) -> {
        int c = order.compare(a.head, b.head);
        return c != 0 ? c : Integer.compare(a.index, b.index);
      });
      for (int i = 0; i < runs.size(); i++) {
        RunReader<T> reader = new RunReader<>(runs.get(i), i);
        readers.add(reader);
        if (reader.advance()) {
          heads.add(reader);
        }
      }
    }

    @Override
    public T current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      RunReader<T> next = heads.poll();
      if (next == null) {
        return false;
      }
      current = next.head;
      if (next.advance()) {
        heads.add(next);
      }
      return true;
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException("a spilled sort is read once");
    }

    @Override
    public void close() {
      readers.forEach(RunReader::close);
    }
  }

  /** An enumerator that releases the sort's memory charge and deletes its runs when closed. */
  private static final class Charged<T> implements Enumerator<T> {
    private final Enumerator<T> rows;
    private final HeapCharge charge;
    private long held;
    private final List<Run> runs;

    Charged(Enumerator<T> rows, HeapCharge charge, long held, List<Run> runs) {
      this.rows = rows;
      this.charge = charge;
      this.held = held;
      this.runs = runs;
    }

    @Override
    public T current() {
      return rows.current();
    }

    @Override
    public boolean moveNext() {
      return rows.moveNext();
    }

    @Override
    public void reset() {
      rows.reset();
    }

    @Override
    public void close() {
      rows.close();
      charge.release(held);
      held = 0;
      runs.forEach(Run::delete);
    }
  }
}
