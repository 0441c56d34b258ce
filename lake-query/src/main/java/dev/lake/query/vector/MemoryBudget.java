package dev.lake.query.vector;

import org.apache.arrow.memory.AllocationReservation;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Charges the Java-heap state of an operator (hash tables, per-group arrays) to the query's allocator, so the
 * per-query memory limit bounds it like the Arrow buffers: a reservation that grows with the state and is released
 * when the operator closes. Exceeding the limit is a {@link StateMemoryException} (RESOURCE_EXHAUSTED to clients, or
 * a spill where the query may spill).
 *
 * <p>The state of an operator that spills when refused ({@link #spillable}) may not take the whole limit: a charge
 * is refused when it would leave the query less than {@link #streamReserve} of headroom, kept for the Arrow batches
 * that stream through while the state is held (the scan batches a join's build side is read in, probe and result
 * batches). Without it a build side that fits the limit by a few bytes would leave the next scan batch to fail its
 * allocation, a failure no operator can spill its way out of. An operator that cannot spill (a partition's table, an
 * aggregate without group keys) may use all the memory there is: refusing it early would only fail the query sooner
 * (see docs/architecture.md, Spilling).
 */
final class MemoryBudget implements AutoCloseable {
  /** The most headroom kept for streaming batches; below 256 MB of limit, a quarter of it is. */
  static final long MAX_STREAM_RESERVE = 64L << 20;

  private final BufferAllocator allocator;
  private final AllocationReservation reservation;
  private final long reserve;
  private long charged;
  private boolean closed;

  /** A budget up to the query's whole limit: for state that cannot spill. */
  MemoryBudget(BufferAllocator allocator) {
    this(allocator, 0);
  }

  private MemoryBudget(BufferAllocator allocator, long reserve) {
    this.allocator = allocator;
    this.reservation = allocator.newReservation();
    this.reserve = reserve;
  }

  /** A budget for state that spills when refused: it leaves {@link #streamReserve} of the limit free. */
  static MemoryBudget spillable(BufferAllocator allocator) {
    return new MemoryBudget(allocator, streamReserve(allocator));
  }

  private MemoryBudget() {
    this.allocator = null;
    this.reservation = null;
    this.reserve = 0;
  }

  /**
   * The headroom state must leave under {@code allocator}: a quarter of the tightest limit on its way to the root
   * allocator (the query's, or the node's when that is lower), at most {@link #MAX_STREAM_RESERVE}.
   */
  static long streamReserve(BufferAllocator allocator) {
    long limit = Long.MAX_VALUE;
    for (BufferAllocator a = allocator; a != null; a = a.getParentAllocator()) {
      limit = Math.min(limit, a.getLimit());
    }
    return Math.min(MAX_STREAM_RESERVE, limit / 4);
  }

  /** A budget that charges nothing: for state bounded by what another operator already charged. */
  static MemoryBudget none() {
    return new MemoryBudget();
  }

  /** Raises the charge to {@code bytes} in total (never lowers it). */
  void chargeTo(long bytes) {
    if (reservation == null || bytes <= charged) {
      return;
    }
    long more = bytes - charged;
    if (allocator.getHeadroom() - more < reserve) {
      throw refused(bytes);
    }
    // Arrow rounds each addition to a reservation up to a power of two: add the exact amount a power of two at a
    // time, so the charge is what the state needs, not up to twice that.
    for (long rest = more; rest != 0; ) {
      long step = Long.highestOneBit(rest);
      if (!reservation.add(step)) {
        charged = reservation.getSize(); // another thread took the headroom meanwhile: keep what was added
        throw refused(bytes);
      }
      rest -= step;
    }
    charged = bytes;
  }

  private StateMemoryException refused(long bytes) {
    return new StateMemoryException("the query's aggregation or join state needs " + bytes + " bytes, more than its"
        + " memory limit allows (query.memory-limit" + (reserve > 0 ? ", less " + reserve + " bytes kept for the"
        + " batches streaming through" : "") + "); add filters or fewer group keys, or raise the limit");
  }

  /** The bytes charged so far. */
  long charged() {
    return charged;
  }

  /** Releases the charge; once only (an operator may be closed by its task and by the execution's clean-up). */
  @Override
  public synchronized void close() {
    if (reservation != null && !closed) {
      closed = true;
      reservation.close();
    }
  }
}
