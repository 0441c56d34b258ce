package dev.lake.it.support;

import dev.lake.engine.ForwardingTableSnapshot;
import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A real engine whose scans of one table, after handing out their first batch, wait on a gate before producing
 * the next: the producer is provably still running while the client holds the first batch. A fake only to steer
 * time; the batches are Lance's own.
 */
public final class GatedScans extends ForwardingTableEngine {
  private final String locationPart;
  private final CountDownLatch gate = new CountDownLatch(1);
  private final CountDownLatch waiting = new CountDownLatch(1);
  private volatile boolean producerFinished;

  public GatedScans(TableEngine delegate, String locationPart) {
    super(delegate);
    this.locationPart = locationPart;
  }

  /** Lets gated scans go on. */
  public void open() {
    gate.countDown();
  }

  /** True once a gated scan has handed out its first batch and is waiting at the gate. */
  public boolean awaitProducerWaiting(long seconds) throws InterruptedException {
    return waiting.await(seconds, TimeUnit.SECONDS);
  }

  public boolean producerFinished() {
    return producerFinished;
  }

  @Override
  public TableSnapshot open(String location, long version, BufferAllocator allocator) {
    TableSnapshot snapshot = delegate.open(location, version, allocator);
    if (!location.contains(locationPart)) {
      return snapshot;
    }
    return new ForwardingTableSnapshot(snapshot) {
      @Override
      public ArrowReader scan(List<String> columns, Optional<String> filter, Optional<Long> limit, int batchSize) {
        return new Gated(super.scan(columns, filter, limit, batchSize), allocator);
      }

      @Override
      public ArrowReader scanFragments(List<String> columns, Optional<String> filter, List<Integer> fragments,
          long offset, Optional<Long> limit, int batchSize) {
        return new Gated(super.scanFragments(columns, filter, fragments, offset, limit, batchSize), allocator);
      }

      @Override
      public ArrowReader sql(String sql, String tableName) {
        return new Gated(super.sql(sql, tableName), allocator);
      }
    };
  }

  private final class Gated extends ArrowReader {
    private final ArrowReader source;
    private int batches;

    Gated(ArrowReader source, BufferAllocator allocator) {
      super(allocator);
      this.source = source;
    }

    @Override
    public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
      return source.getVectorSchemaRoot();
    }

    @Override
    public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
      return source.getDictionaryVectors();
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (batches++ == 1) {
        waiting.countDown();
        try {
          if (!gate.await(120, TimeUnit.SECONDS)) {
            throw new IOException("the test never opened the gate");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted at the gate", e);
        }
      }
      boolean loaded = source.loadNextBatch();
      if (!loaded) {
        producerFinished = true;
      }
      return loaded;
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
    protected Schema readSchema() throws IOException {
      return source.getVectorSchemaRoot().getSchema();
    }
  }
}
