package dev.lake.query.exec;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.engine.TableSnapshot;
import dev.lake.query.model.PlannedVersion;
import dev.lake.query.plan.lance.ColumnStatistics;
import dev.lake.query.plan.lance.ScanSource;
import java.util.List;
import java.util.Set;
import java.util.OptionalDouble;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Distinct-value estimates of stored columns, computed by Lance's SQL engine ({@code approx_distinct}, a HyperLogLog
 * sketch: tens of milliseconds per million rows for one integer column) the first time the planner asks about those
 * columns of a pinned version — or earlier, by {@link AutoAnalyze} after a commit — and kept for the life of the
 * query service — a version never changes. A set of columns is estimated from its columns' sketches (their product,
 * at most the rows); only a set with a column the sketch cannot take is sketched as its {@code concat_ws} text. A
 * DECIMAL column is sketched as its unscaled values. A new version whose fragments include every fragment of the
 * last estimated one unchanged (same {@link TableSnapshot#fragmentKey}: an append) and which has at most 10% more
 * rows reuses that estimate instead of sketching the table again: an estimate only steers plans, and an append must not
 * make the next query pay for statistics again. A snapshot with exactly the fragments of the last sketch (the same
 * version, or a data-neutral later one) reads the same rows: the sketch answers for it. The sketches are kept across
 * restarts by {@link KeptSketches} (a node restarted over the same data does not scan its tables for statistics
 * again). Columns it cannot estimate stay unknown: when Lance's SQL engine refuses the sketch (a type the function does
 * not take) that answer is kept like a sketch (across restarts too); after another failure (storage) it is kept for
 * the life of the service only. Thread-safe.
 */
public final class DistinctValueEstimates {
  private static final Logger LOG = LoggerFactory.getLogger(DistinctValueEstimates.class);
  private static final int MAX_ENTRIES = 10_000;
  private static final double UNKNOWN = -1;
  /** Lance's SQL engine refused the sketch (a type approx_distinct does not take): unknown for these fragments. */
  private static final double REFUSED = -2;

  private final Cache<Key, Double> estimates = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).build();

  /** The last sketched estimate of a table's columns: its version's fragment keys (as digests) and rows. */
  private final KeptSketches sketched;

  private record Key(String location, long version, List<String> columns) {}

  /** Estimates whose sketches live as long as this object. */
  public DistinctValueEstimates() {
    this(KeptSketches.NONE);
  }

  /** Estimates whose sketches are kept by {@code kept} (across restarts when it is file-backed). */
  public DistinctValueEstimates(KeptSketches kept) {
    this.sketched = java.util.Objects.requireNonNull(kept, "kept");
  }

  /** The statistics of one opened snapshot, estimating on demand with the statement's resources. */
  ColumnStatistics of(TableSnapshot snapshot, QueryResources resources) {
    return columns -> {
      List<String> distinct = List.copyOf(new java.util.LinkedHashSet<>(columns));
      double estimate = distinct.size() == 1 ? sketched(snapshot, resources, distinct)
          : fromColumns(snapshot, resources, distinct);
      return estimate < 0 ? OptionalDouble.empty() : OptionalDouble.of(estimate);
    };
  }

  /**
   * A set of columns: the product of its columns' own estimates, at most the version's rows (independent columns;
   * PostgreSQL estimates a grouping's groups the same way) — each column is sketched once and serves every set it is
   * in, so a statement's multi-column groupings and join keys cost no sketch of their own (sketching the set as a
   * {@code concat_ws} text cost 0.3-1.5 s per set at TPC-H SF 1; docs/performance.md, "Cold"). When a column cannot be
   * estimated (a type Lance's {@code approx_distinct} does not take), the set is sketched as a whole, as before.
   */
  private double fromColumns(TableSnapshot snapshot, QueryResources resources, List<String> columns) {
    Key key = new Key(snapshot.location(), snapshot.version(), columns);
    Double known = estimates.getIfPresent(key);
    if (known != null) {
      return known;
    }
    double product = 1;
    for (String column : columns) {
      double single = sketched(snapshot, resources, List.of(column));
      if (single < 0) {
        return sketched(snapshot, resources, columns);
      }
      product *= single;
    }
    double estimate;
    try {
      estimate = Math.min(product, snapshot.countRows());
    } catch (RuntimeException e) {
      return sketched(snapshot, resources, columns);
    }
    estimates.put(key, estimate);
    return estimate;
  }

  /** The sketch of exactly {@code columns} (one or a set): kept, reused or made now. */
  private double sketched(TableSnapshot snapshot, QueryResources resources, List<String> columns) {
    Double estimate = estimates.get(new Key(snapshot.location(), snapshot.version(), columns),
        key -> reusedOrEstimated(snapshot, resources, key.columns()));
    return estimate == null ? UNKNOWN : estimate;
  }

  private double reusedOrEstimated(TableSnapshot snapshot, QueryResources resources, List<String> columns) {
    KeptSketches.TableColumns table = new KeptSketches.TableColumns(snapshot.location(), columns);
    KeptSketches.Sketch last = sketched.get(table).orElse(null);
    try {
      Set<String> fragments = KeptSketches.fragmentDigests(snapshot);
      long rows = snapshot.countRows();
      if (last != null && last.fragments().equals(fragments) && last.rows() == rows) {
        LOG.debug("column statistics kept location={} version={} columns={} sketched at version={}",
            snapshot.location(), snapshot.version(), columns, last.version());
        return last.estimate();
      }
      if (last != null && last.version() < snapshot.version()
          && PlannedVersion.smallAppend(last.fragments(), last.rows(), fragments, rows)) {
        LOG.debug("column statistics reused location={} version={} columns={} from version={}",
            snapshot.location(), snapshot.version(), columns, last.version());
        return last.estimate();
      }
      double estimate = estimate(snapshot, resources, columns);
      if (estimate >= 0 || estimate == REFUSED) {
        double kept = estimate >= 0 ? estimate : UNKNOWN;
        sketched.put(table, new KeptSketches.Sketch(snapshot.version(), fragments, rows, kept));
        return kept;
      }
      return estimate;
    } catch (RuntimeException e) {
      LOG.debug("column statistics unavailable location={} version={} columns={} error={}", snapshot.location(),
          snapshot.version(), columns, e.getMessage());
      return UNKNOWN;
    }
  }

  /**
   * What {@code approx_distinct} sketches for one column: the column itself, except a DECIMAL, which it does not take
   * (nor DOUBLE): its unscaled values as BIGINT where they fit (precision <= 18; one value each, exact), else its text.
   */
  private static String sketchable(TableSnapshot snapshot, String column, String quoted) {
    ArrowType type;
    try {
      type = snapshot.schema().findField(column).getType();
    } catch (IllegalArgumentException e) {
      return quoted;
    }
    if (!(type instanceof ArrowType.Decimal)) {
      return quoted;
    }
    ArrowType.Decimal decimal = (ArrowType.Decimal) type;
    return decimal.getPrecision() <= 18
        ? "CAST(" + quoted + " * " + java.math.BigInteger.TEN.pow(decimal.getScale()) + " AS BIGINT)"
        : "CAST(" + quoted + " AS VARCHAR)";
  }

  private static double estimate(TableSnapshot snapshot, QueryResources resources, List<String> columns) {
    List<String> quoted = columns.stream().map(c -> "\"" + c.replace("\"", "\"\"") + "\"").toList();
    String sketched = quoted.size() > 1 ? "concat_ws('|', " + String.join(", ", quoted) + ")"
        : sketchable(snapshot, columns.get(0), quoted.get(0));
    String sql = "SELECT approx_distinct(" + sketched + ") FROM \"" + ScanSource.SQL_TABLE + "\"";
    long start = System.nanoTime();
    ArrowReader reader = null;
    try {
      reader = resources.track(snapshot.sql(sql, ScanSource.SQL_TABLE));
      if (!reader.loadNextBatch() || reader.getVectorSchemaRoot().getRowCount() == 0) {
        return UNKNOWN;
      }
      FieldVector vector = reader.getVectorSchemaRoot().getVector(0);
      Object value = vector.isNull(0) ? null : vector.getObject(0);
      double estimate = value instanceof Number ? ((Number) value).doubleValue() : UNKNOWN;
      LOG.debug("column statistics location={} version={} columns={} distinct={} millis={}", snapshot.location(),
          snapshot.version(), columns, estimate, (System.nanoTime() - start) / 1_000_000);
      return estimate;
    } catch (dev.lake.engine.InvalidExpressionException e) {
      LOG.debug("column statistics refused location={} version={} columns={} error={}", snapshot.location(),
          snapshot.version(), columns, e.getMessage());
      return REFUSED;
    } catch (Exception e) {
      LOG.debug("column statistics unavailable location={} version={} columns={} error={}", snapshot.location(),
          snapshot.version(), columns, e.getMessage());
      return UNKNOWN;
    } finally {
      if (reader != null) {
        resources.release(reader);
      }
    }
  }
}
