package dev.lake.query.exec;

import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.query.model.TablePin;
import dev.lake.query.guard.HeapCharge;
import dev.lake.query.spill.NodeSpill;
import dev.lake.query.spill.SpillSpace;
import dev.lake.query.guard.QueryGuard;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything one executing statement holds open: its child allocator, the snapshots of its pinned tables and the
 * Lance readers scanning them. Closing (at the end of the result stream, on early close or cancel, or on a failure
 * before the stream starts) closes readers, then snapshots, then the allocator. Thread-safe: a cancel may close it
 * while another thread reads.
 */
public final class QueryResources implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueryResources.class);

  private final BufferAllocator allocator;
  private final Deque<TableSnapshot> snapshots = new ArrayDeque<>();
  private final Set<ArrowReader> readers = new LinkedHashSet<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final QueryGuard guard;
  private final HeapCharge rows;
  private final SpillSpace spill;

  public QueryResources(BufferAllocator parent, String name, long memoryLimit) {
    this(parent, name, memoryLimit, new QueryGuard());
  }

  /** Resources of an execution that {@code guard} may stop. */
  public QueryResources(BufferAllocator parent, String name, long memoryLimit, QueryGuard guard) {
    this(parent, name, memoryLimit, guard, null);
  }

  /** Resources of an execution whose operators may spill to {@code spill}'s disk (null: none may). */
  public QueryResources(BufferAllocator parent, String name, long memoryLimit, QueryGuard guard, NodeSpill spill) {
    this.allocator = parent.newChildAllocator(name, 0, memoryLimit);
    this.guard = guard;
    this.spill = spill == null ? null : spill.open(name);
    this.rows = new HeapCharge(allocator, "the rows this query's joins, sorts and aggregations keep");
  }

  /** The execution's stop flag: every loop of its work polls it. */
  public QueryGuard guard() {
    return guard;
  }

  /** The heap the row runtime's operators keep, charged to this execution's allocator. */
  public HeapCharge rows() {
    return rows;
  }

  /**
   * The execution's spill directory (made when an operator first spills, deleted when this closes), or null when
   * the execution may not spill.
   */
  public SpillSpace spill() {
    return spill;
  }

  /** The statement's allocator: result batches and Lance's buffers live here. */
  public BufferAllocator allocator() {
    return allocator;
  }

  public boolean isClosed() {
    return closed.get();
  }

  /** Opens exactly the pinned version and keeps it until this closes. */
  public TableSnapshot open(TableEngine engine, TablePin pin) {
    checkOpen();
    TableSnapshot snapshot = engine.open(pin.location(), pin.version(), allocator);
    synchronized (this) {
      if (!closed.get()) {
        snapshots.push(snapshot);
        return snapshot;
      }
    }
    snapshot.close();
    throw closedError();
  }

  /** Keeps {@code reader} until it is released or this closes. */
  public ArrowReader track(ArrowReader reader) {
    synchronized (this) {
      if (!closed.get()) {
        readers.add(reader);
        return reader;
      }
    }
    closeQuietly(reader);
    throw closedError();
  }

  /** Closes a reader early (its scan finished or its consumer stopped). */
  public void release(ArrowReader reader) {
    boolean tracked;
    synchronized (this) {
      tracked = readers.remove(reader);
    }
    if (tracked) {
      closeQuietly(reader);
    }
  }

  /**
   * Deletes the execution's spill files now: its result stream has ended, so no operator reads them again. Called
   * before the client is told the stream is complete, so a finished query never leaves files behind it even for
   * the moment before the stream is closed. Idempotent; {@link #close()} does it too.
   */
  public void releaseSpill() {
    if (spill != null) {
      spill.close();
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    List<ArrowReader> openReaders;
    List<TableSnapshot> openSnapshots;
    synchronized (this) {
      openReaders = new ArrayList<>(readers);
      readers.clear();
      openSnapshots = new ArrayList<>(snapshots);
      snapshots.clear();
    }
    openReaders.forEach(QueryResources::closeQuietly);
    openSnapshots.forEach(QueryResources::closeQuietly);
    rows.close();
    if (spill != null) {
      spill.close();
    }
    try {
      allocator.close();
    } catch (RuntimeException e) {
      LOG.warn("query allocator still held memory at close allocator={} error={}", allocator.getName(),
          e.getMessage());
    }
  }

  private void checkOpen() {
    if (closed.get()) {
      throw closedError();
    }
  }

  private static IllegalStateException closedError() {
    return new IllegalStateException("the query was closed or cancelled; its tables cannot be read any more");
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      LOG.warn("closing a query resource failed resource={} error={}", closeable.getClass().getSimpleName(),
          e.getMessage());
    }
  }
}
