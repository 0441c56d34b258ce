package dev.lake.query.vector;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Decoded columns of table fragments, kept on the heap for the vectorized executor ({@code query.column-cache}):
 * a repeated aggregate over the same rows reads Java arrays instead of decoding Lance pages again. Keyed by
 * (fragment key, column), the fragment key naming what is immutable — the fragment's data files and its deletion
 * file ({@link FragmentScans#fragmentKey}) — so a cached column is exactly what reading the pinned version returns
 * (invariant "every read opens exactly the registered version" holds), a new version reuses every fragment it did
 * not change (an append keeps the table warm), and a delete, overwrite or compaction reads what it changed afresh.
 * Bounded by weight (approximate heap bytes); Caffeine's W-TinyLFU policy admits a column only when it is used more
 * often than what it would evict, so one big scan does not flush the columns other queries keep using (scan
 * resistance); 0 bytes turns it off.
 */
public final class ColumnCache {
  private final long maxBytes;
  /** Cached columns by {@link Key}, and the {@link KeyPositions} of some by {@link IndexKey}: one weighed budget. */
  private final Cache<Object, Object> columns;
  /**
   * Bytes a row of each column of each fragment took when it was last cached, kept after the column is evicted: how
   * {@link VectorExecutor} tells whether a table's columns, held narrow, fit the cache.
   */
  private final Cache<Key, Double> widths = Caffeine.newBuilder().maximumSize(65_536).build();
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder sharedTables = new LongAdder();

  /** @param maxBytes the most heap the cached columns may hold; 0 turns the cache off */
  public ColumnCache(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("the column cache size must be >= 0 bytes (0 turns it off), was "
          + maxBytes);
    }
    this.maxBytes = maxBytes;
    this.columns = Caffeine.newBuilder()
        .maximumWeight(Math.max(1, maxBytes))
        .<Object, Object>weigher((key, value) -> (int) Math.min(Integer.MAX_VALUE, value instanceof CachedColumn
            ? ((CachedColumn) value).bytes() : value instanceof JoinTable ? ((JoinTable) value).bytes()
            : ((KeyPositions) value).bytes()))
        .build();
  }

  /** A cache of a quarter of the JVM's maximum heap. */
  public static ColumnCache quarterOfHeap() {
    return new ColumnCache(Runtime.getRuntime().maxMemory() / 4);
  }

  boolean enabled() {
    return maxBytes > 0;
  }

  long maxBytes() {
    return maxBytes;
  }

  Optional<CachedColumn> get(String fragmentKey, String column) {
    CachedColumn cached = (CachedColumn) columns.getIfPresent(new Key(fragmentKey, column));
    (cached == null ? misses : hits).increment();
    return Optional.ofNullable(cached);
  }

  /** The cached column, without counting a hit or a miss. */
  CachedColumn peek(String fragmentKey, String column) {
    return (CachedColumn) columns.getIfPresent(new Key(fragmentKey, column));
  }

  /**
   * The positions of the values of {@code cached} (column {@code column} of fragment {@code fragmentKey}), built on
   * first use and cached under the same budget; null when the column is not indexable ({@link KeyPositions}).
   */
  KeyPositions positions(String fragmentKey, String column, CachedColumn cached) {
    if (!KeyPositions.indexable(cached)) {
      return null;
    }
    if (!enabled()) {
      return KeyPositions.of(cached);
    }
    // equal fragment keys hold equal rows: positions built from another copy of the column index this one too
    return (KeyPositions) columns.get(new IndexKey(fragmentKey, column), key -> KeyPositions.of(cached));
  }

  /**
   * The join table {@code build} makes of the rows {@code rows} identifies (the build side's scan, its keys and
   * shapes) over the fragments {@code fragmentKeys}, built on first use and then shared, under the same budget, by
   * every execution that builds the same table (docs/architecture.md, "Execution paths and the column cache"): its
   * rows are immutable, so the table is too. The building query's memory charge for it is released once it is
   * cached (the cache's budget holds it from then on), so closing it after an execution releases nothing. A table
   * over a quarter of the cache is not kept: it stays charged to its query. Null when {@code build} returns null
   * (the columns do not fit).
   */
  JoinTable joinTable(List<String> fragmentKeys, String rows, java.util.concurrent.Callable<JoinTable> build)
      throws Exception {
    if (!enabled()) {
      return build.call();
    }
    TableKey key = new TableKey(fragmentKeys, rows);
    JoinTable cached = (JoinTable) columns.getIfPresent(key);
    if (cached != null) {
      sharedTables.increment();
      return cached;
    }
    // Built outside the cache's own computation: building loads columns into this cache from other threads, which a
    // computation holding the key's entry would block. Two executions may build it at once; the first one kept wins.
    JoinTable table = build.call();
    if (table == null || table.bytes() > maxBytes / 4) {
      return table; // too big to keep beside the columns: it stays charged to its query, which closes it
    }
    table.close();
    Object kept = columns.asMap().putIfAbsent(key, table);
    return kept == null ? table : (JoinTable) kept;
  }

  void put(String fragmentKey, String column, CachedColumn value) {
    if (enabled()) {
      Key key = new Key(fragmentKey, column);
      widths.put(key, (double) value.bytes() / Math.max(1, value.rows));
      columns.put(key, value);
    }
  }

  /**
   * Columns {@code names} of one fragment from the cache; those missing are read from Lance in one scan (batches of at
   * most {@code batchRows} rows) and cached.
   */
  CachedColumn[] load(List<String> names, FragmentScans scans, int fragment, int batchRows) throws Exception {
    String fragmentKey = scans.fragmentKey(fragment);
    CachedColumn[] out = new CachedColumn[names.size()];
    List<String> missing = new ArrayList<>();
    for (int c = 0; c < out.length; c++) {
      out[c] = get(fragmentKey, names.get(c)).orElse(null);
      if (out[c] == null && !missing.contains(names.get(c))) {
        missing.add(names.get(c));
      }
    }
    if (missing.isEmpty()) {
      return out;
    }
    Map<String, CachedColumn> loaded = new HashMap<>();
    ArrowReader reader = scans.open(missing, Optional.empty(), List.of(fragment), 0, Optional.empty(), batchRows);
    try {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      Map<String, CachedColumn.Builder> builders = new HashMap<>();
      for (String name : missing) {
        Col shape = ColumnReader.shape(root.getVector(name).getField().getType());
        builders.put(name, new CachedColumn.Builder(shape, scans.fragmentRows(fragment)));
      }
      while (reader.loadNextBatch()) {
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedException("vectorized scan cancelled");
        }
        for (String name : missing) {
          builders.get(name).append(root.getVector(name));
        }
      }
      for (String name : missing) {
        CachedColumn column = builders.get(name).build();
        loaded.put(name, column);
        put(fragmentKey, name, column);
      }
    } finally {
      scans.release(reader);
    }
    for (int c = 0; c < out.length; c++) {
      if (out[c] == null) {
        out[c] = loaded.get(names.get(c));
      }
    }
    return out;
  }

  /** The bytes a row of the column took when it was last cached (see {@link #widths}), if it ever was. */
  java.util.OptionalDouble width(String fragmentKey, String column) {
    Double width = widths.getIfPresent(new Key(fragmentKey, column));
    return width == null ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(width);
  }

  /** Hits, misses and the bytes held, for tests and diagnosis. */
  public Stats stats() {
    columns.cleanUp();
    long held = columns.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    return new Stats(hits.sum(), misses.sum(), held, sharedTables.sum());
  }

  /** Drops every cached column (tests; memory pressure by hand). */
  public void clear() {
    columns.invalidateAll();
  }

  /**
   * Column lookups that found the column, that did not, the approximate heap held, and the join tables an execution
   * found built by an earlier one ({@link #joinTable}).
   */
  public record Stats(long hits, long misses, long bytes, long sharedTables) {}

  private record Key(String fragment, String column) {}

  private record IndexKey(String fragment, String column) {}

  private record TableKey(List<String> fragments, String rows) {}
}
