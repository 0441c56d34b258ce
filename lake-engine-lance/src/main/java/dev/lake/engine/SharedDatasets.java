package dev.lake.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lance datasets opened at an exact version, kept open for the snapshots that read that version next: a point query
 * opened its pinned version anew every time (a native open, the manifest read, the schema converted), which was a
 * fifth of its time. A version never changes (docs/design.md invariant 4: locations are never reused, versions are
 * immutable), so a kept dataset cannot be stale; it is reopened when the storage options it was opened with are not
 * the current ones any more (fresh S3 credentials), and forgotten for a location that is dropped or cleaned up.
 *
 * <p>Bounded: at most {@link #MAX_DATASETS} versions, least recently used leave. A dataset is leased by each snapshot
 * reading it and closed once it has left the cache and its last lease is given back, so an eviction never closes a
 * dataset under a running scan. Scans of a shared dataset take their batches in the reading snapshot's allocator
 * (Lance's scanner is given it), so a query's memory limit still bounds them. Thread-safe.
 */
final class SharedDatasets {
  private static final Logger LOG = LoggerFactory.getLogger(SharedDatasets.class);
  /** Pinned versions kept open (each holds its manifest and file metadata in native memory). */
  static final int MAX_DATASETS = 32;

  private final Map<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final OpenHandles handles;
  private boolean closed;

  SharedDatasets(OpenHandles handles) {
    this.handles = handles;
  }

  /** One kept dataset and its leases. */
  private static final class Entry {
    private final String location;
    private final Dataset dataset;
    private final Map<String, String> options;
    private int leases;
    private boolean evicted;
    /** The version's Arrow schema, converted from Lance's once (guarded by the entry). */
    private Schema schema;
    /** The version's indexes, listed once (guarded by the entry). */
    private List<TableIndex> indexes;
    /** The version's fragments, read once (guarded by the entry). */
    private VersionFragments fragments;

    Entry(String location, Dataset dataset, Map<String, String> options) {
      this.location = location;
      this.dataset = dataset;
      this.options = options;
    }
  }

  /** A snapshot's use of a kept dataset, counted as one open handle until it is closed (once). */
  final class Lease implements AutoCloseable {
    private final Entry entry;
    private final OpenHandles.Handle handle;
    private boolean released;

    private Lease(Entry entry) {
      this.entry = entry;
      this.handle = handles.opened();
    }

    Dataset get() {
      return entry.dataset;
    }

    /**
     * The version's Arrow schema: converted from the dataset's on the first call for this kept version (a JNI call
     * and an FFI schema import each time before), then the same for every snapshot of it. A version's schema never
     * changes; another version is another entry.
     */
    Schema schema() {
      synchronized (entry) {
        if (entry.schema == null) {
          entry.schema = entry.dataset.getSchema();
        }
        return entry.schema;
      }
    }

    /** The version's indexes, listed once for this kept version ({@code list} reads them from the dataset). */
    List<TableIndex> indexes(java.util.function.Function<Dataset, List<TableIndex>> list) {
      synchronized (entry) {
        if (entry.indexes == null) {
          entry.indexes = List.copyOf(list.apply(entry.dataset));
        }
        return entry.indexes;
      }
    }

    /** The version's fragments, read once for this kept version ({@code read} reads them from the dataset). */
    VersionFragments fragments(java.util.function.Function<Dataset, VersionFragments> read) {
      synchronized (entry) {
        if (entry.fragments == null) {
          entry.fragments = read.apply(entry.dataset);
        }
        return entry.fragments;
      }
    }

    @Override
    public void close() {
      synchronized (SharedDatasets.this) {
        if (released) {
          return;
        }
        released = true;
        entry.leases--;
        handle.close();
        closeIfUnused(entry);
      }
    }
  }

  /**
   * A lease on the dataset of {@code uri} at {@code version} opened with {@code options}: the kept one, or one
   * {@code open} opens now (outside the lock; a racing open of the same version keeps the first and closes its own).
   */
  Lease acquire(String location, String uri, long version, Map<String, String> options, Supplier<Dataset> open) {
    String key = uri + "\u0000" + version;
    synchronized (this) {
      checkOpen();
      Entry kept = entries.get(key);
      if (kept != null && kept.options.equals(options)) {
        kept.leases++;
        return new Lease(kept);
      }
      if (kept != null) {
        evict(key, kept); // opened with other storage options (expired credentials): open it again
      }
    }
    Dataset opened = Objects.requireNonNull(open.get(), "dataset");
    synchronized (this) {
      Entry raced = closed ? null : entries.get(key);
      if (raced != null && raced.options.equals(options)) {
        closeQuietly(opened);
        raced.leases++;
        return new Lease(raced);
      }
      Entry entry = new Entry(location, opened, Map.copyOf(options));
      entry.leases++;
      if (closed) {
        entry.evicted = true; // the engine closed meanwhile: this lease is the dataset's only user
        return new Lease(entry);
      }
      if (raced != null) {
        evict(key, raced);
      }
      entries.put(key, entry);
      while (entries.size() > MAX_DATASETS) {
        Iterator<Map.Entry<String, Entry>> eldest = entries.entrySet().iterator();
        Map.Entry<String, Entry> first = eldest.next();
        eldest.remove();
        first.getValue().evicted = true;
        closeIfUnused(first.getValue());
      }
      return new Lease(entry);
    }
  }

  /** Forgets every kept version of {@code location} (dropped, or versions cleaned up); leased ones close later. */
  synchronized void forget(String location) {
    List<String> keys = new ArrayList<>();
    entries.forEach((key, entry) -> {
      if (entry.location.equals(location)) {
        keys.add(key);
      }
    });
    keys.forEach(key -> evict(key, entries.get(key)));
  }

  /** How many versions are kept open now. */
  synchronized int size() {
    return entries.size();
  }

  /** Closes every kept dataset no snapshot leases; leased ones close when their last lease is given back. */
  synchronized void close() {
    closed = true;
    new ArrayList<>(entries.keySet()).forEach(key -> evict(key, entries.get(key)));
  }

  private void evict(String key, Entry entry) {
    entries.remove(key);
    entry.evicted = true;
    closeIfUnused(entry);
  }

  private static void closeIfUnused(Entry entry) {
    if (entry.evicted && entry.leases == 0) {
      closeQuietly(entry.dataset);
    }
  }

  private static void closeQuietly(Dataset dataset) {
    try {
      dataset.close();
    } catch (RuntimeException e) {
      LOG.warn("closing a kept dataset failed error={}", LanceErrors.detail(e));
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the engine is closed");
    }
  }
}
