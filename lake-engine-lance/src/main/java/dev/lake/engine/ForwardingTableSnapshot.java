package dev.lake.engine;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A {@link TableSnapshot} that forwards every call, the interface's default methods included, to another snapshot:
 * the base for wrappers that change one or two calls (count them, gate them, time them) and must not change the
 * rest — a wrapper written by hand that forgets a default method ({@link #indexes()}, {@link #readRows}) silently
 * answers the default instead (no indexes; a fragment scan for a take). {@code ForwardingTableSnapshotTest} checks
 * that every method of the interface is overridden here.
 */
public abstract class ForwardingTableSnapshot implements TableSnapshot {
  private final TableSnapshot delegate;

  protected ForwardingTableSnapshot(TableSnapshot delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The snapshot calls are forwarded to. */
  protected final TableSnapshot delegate() {
    return delegate;
  }

  @Override
  public String location() {
    return delegate.location();
  }

  @Override
  public long version() {
    return delegate.version();
  }

  @Override
  public Schema schema() {
    return delegate.schema();
  }

  @Override
  public long countRows() {
    return delegate.countRows();
  }

  @Override
  public ArrowReader scan(List<String> columns, Optional<String> filter, Optional<Long> limit, int batchSize) {
    return delegate.scan(columns, filter, limit, batchSize);
  }

  @Override
  public List<Integer> fragmentIds() {
    return delegate.fragmentIds();
  }

  @Override
  public long fragmentRows(int fragment) {
    return delegate.fragmentRows(fragment);
  }

  @Override
  public String fragmentKey(int fragment) {
    return delegate.fragmentKey(fragment);
  }

  @Override
  public ArrowReader scanFragments(List<String> columns, Optional<String> filter, List<Integer> fragments,
      long offset, Optional<Long> limit, int batchSize) {
    return delegate.scanFragments(columns, filter, fragments, offset, limit, batchSize);
  }

  @Override
  public ArrowReader readRows(List<String> columns, long offset, int count) {
    return delegate.readRows(columns, offset, count);
  }

  @Override
  public ArrowReader sql(String sql, String tableName) {
    return delegate.sql(sql, tableName);
  }

  @Override
  public List<TableIndex> indexes() {
    return delegate.indexes();
  }

  /** Closes the delegate; a wrapper whose delegate is closed by its owner overrides this. */
  @Override
  public void close() {
    delegate.close();
  }
}
