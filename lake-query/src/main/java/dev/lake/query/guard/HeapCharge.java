package dev.lake.query.guard;

import org.apache.arrow.memory.AllocationReservation;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Charges an estimate of heap one statement holds (rows a hash join builds, a sort buffers or an aggregation groups;
 * the parse tree and plans of a large statement) to the statement's allocator. The allocator is a child of the
 * node's query allocator, so the charge counts against the query's limit ({@code query.memory-limit}) and the node's
 * ({@code query.node-memory-limit}) together with Arrow buffers; a charge past either is refused with a
 * {@link QueryMemoryException} before the heap is used. Estimates are conservative (docs/architecture.md). Released
 * on {@link #close()}. Thread-safe.
 */
public final class HeapCharge implements AutoCloseable {
  /** What a row object costs beyond its values: the array or record header, and a hash table's entry. */
  public static final long ROW_OVERHEAD = 64;
  /** What one value of a row costs at least: a reference and a boxed number. */
  public static final long VALUE_BYTES = 24;
  /** Heap a parsed and planned statement takes per character of its text (parse tree, row expressions, plans). */
  public static final long PLAN_BYTES_PER_CHAR = 256;
  /** Charges are taken from the allocator in steps of this size (fewer accountant updates). */
  private static final long STEP = 1L << 20;

  private final BufferAllocator allocator;
  private final String what;
  private AllocationReservation reservation;
  private long charged;
  private long reserved;
  private boolean closed;

  /**
   * @param what what is charged, for the refusal's message (e.g. "the query's rows")
   */
  public HeapCharge(BufferAllocator allocator, String what) {
    this.allocator = allocator;
    this.what = what;
  }

  /** Adds {@code bytes} to the charge; refused when the query's or the node's memory limit would be exceeded. */
  public synchronized void add(long bytes) {
    if (closed || bytes <= 0) {
      return;
    }
    charged += bytes;
    if (charged <= reserved) {
      return;
    }
    long needed = charged - reserved;
    if (reservation == null) {
      reservation = allocator.newReservation();
    }
    long more = Math.max(STEP, needed);
    boolean granted = reserve(more);
    if (!granted && needed < STEP) {
      more = needed;
      granted = reserve(more);
    }
    if (!granted) {
      charged -= bytes;
      throw new QueryMemoryException(what + " need more than " + mb(charged + bytes) + " of memory, more than the"
          + " query's budget (query.memory-limit) or what this node has left for queries (query.node-memory-limit)"
          + " allows; add filters, read fewer rows or columns, or run it when the node is less busy");
    }
    reserved += more;
  }

  private boolean reserve(long bytes) {
    try {
      return reservation.add(bytes);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Gives back {@code bytes} charged earlier (rows a sort wrote to disk): later charges use them again. What was
   * reserved from the allocator stays reserved until {@link #close()}.
   */
  public synchronized void release(long bytes) {
    charged = Math.max(0, charged - Math.max(0, bytes));
  }

  /** Bytes charged so far. */
  public synchronized long charged() {
    return charged;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (reservation != null) {
      reservation.close();
      reservation = null;
    }
  }

  /** Charges {@code bytes} for the duration of a step (parsing, planning): close the result when it is done. */
  public static HeapCharge of(BufferAllocator allocator, String what, long bytes) {
    HeapCharge charge = new HeapCharge(allocator, what);
    try {
      charge.add(bytes);
      return charge;
    } catch (RuntimeException e) {
      charge.close();
      throw e;
    }
  }

  /** The plan-time heap estimate of a statement of {@code sql}'s length. */
  public static long planBytes(String sql) {
    return (long) sql.length() * PLAN_BYTES_PER_CHAR;
  }

  /** A conservative estimate of one row object of the row runtime: header, references, boxed values, strings. */
  public static long rowBytes(Object row) {
    if (row instanceof Object[] values) {
      long bytes = ROW_OVERHEAD + 8L * values.length;
      for (Object value : values) {
        bytes += valueBytes(value);
      }
      return bytes;
    }
    return ROW_OVERHEAD + valueBytes(row);
  }

  private static long valueBytes(Object value) {
    if (value instanceof String s) {
      return 48 + 2L * s.length();
    }
    if (value instanceof byte[] b) {
      return 24 + b.length;
    }
    if (value instanceof java.math.BigDecimal) {
      return 64;
    }
    if (value instanceof org.apache.calcite.avatica.util.ByteString b) {
      return 40 + b.length();
    }
    if (value instanceof java.util.Collection<?> c) {
      return 48 + (VALUE_BYTES + 8) * c.size();
    }
    return VALUE_BYTES;
  }

  private static String mb(long bytes) {
    return bytes >= 10L << 20 ? (bytes >> 20) + " MB" : Math.max(1, bytes >> 10) + " KB";
  }
}
