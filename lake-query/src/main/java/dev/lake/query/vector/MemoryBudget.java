package dev.lake.query.vector;

import org.apache.arrow.memory.AllocationReservation;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Charges the Java-heap state of an operator (hash tables, per-group arrays) to the query's allocator, so the
 * per-query memory limit bounds it like the Arrow buffers: a reservation that grows with the state and is released
 * when the operator closes. Exceeding the limit is a {@link StateMemoryException} (RESOURCE_EXHAUSTED to clients).
 */
final class MemoryBudget implements AutoCloseable {
  private final AllocationReservation reservation;
  private long charged;
  private boolean closed;

  MemoryBudget(BufferAllocator allocator) {
    this.reservation = allocator.newReservation();
  }

  private MemoryBudget() {
    this.reservation = null;
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
    if (!reservation.add(bytes - charged)) {
      throw new StateMemoryException("the query's aggregation or join state needs " + bytes + " bytes, more than its"
          + " memory limit allows (query.memory-limit); add filters or fewer group keys, or raise the limit");
    }
    charged = bytes;
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
