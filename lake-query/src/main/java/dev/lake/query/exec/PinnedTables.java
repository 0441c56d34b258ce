package dev.lake.query.exec;

import dev.lake.query.vector.VectorExecutor;
import dev.lake.engine.DatasetNotFoundException;
import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import dev.lake.query.plan.lance.LanceTable;
import dev.lake.query.plan.lance.ScanSource;
import dev.lake.query.plan.TableResolver;
import dev.lake.registry.TableNotFoundException;
import dev.lake.query.model.ColumnIndex;
import dev.lake.query.model.PlannedVersion;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tables of one executing statement, opened at exactly their pinned versions (never "latest"). Pins are keyed
 * by {@link TableReference#key()}: a reference without a pin is not found; a pinned version that is gone is not
 * found either, with a message saying so. Each reference is opened once; its snapshot belongs to the statement's
 * {@link QueryResources}.
 */
public final class PinnedTables implements TableResolver {
  private final Map<String, TablePin> pins;
  private final TableEngine engine;
  private final QueryResources resources;
  private final int batchSize;
  private final PushdownCounters counters;
  private final DistinctValueEstimates estimates;
  private final VectorExecutor vectors;
  private final Map<String, Opened> opened = new HashMap<>();

  /**
   * @param pins by reference key (as {@link #normalize} gives them)
   */
  public PinnedTables(Map<String, TablePin> pins, TableEngine engine, QueryResources resources, int batchSize,
      PushdownCounters counters, DistinctValueEstimates estimates, VectorExecutor vectors) {
    this.vectors = vectors;
    this.counters = counters;
    this.estimates = estimates;
    this.pins = Map.copyOf(pins);
    this.engine = engine;
    this.resources = resources;
    this.batchSize = batchSize;
  }

  /** The pins keyed canonically ({@code T@V1} -> {@code t@v1}); keys that are no table reference are dropped. */
  public static Map<String, TablePin> normalize(Map<String, TablePin> pins) {
    Map<String, TablePin> normalized = new HashMap<>();
    pins.forEach((key, pin) -> TableReference.parse(key).ifPresent(reference ->
        normalized.put(reference.key(), pin)));
    return normalized;
  }

  @Override
  public Optional<LanceTable> resolve(TableReference reference) {
    TablePin pin = pins.get(reference.key());
    if (pin == null && reference.timeTravel()) {
      throw new TableNotFoundException(reference.name(), "the statement reads '" + reference.key() + "' but was"
          + " given no pin for it (pins are keyed by table reference: t, t@v42, t@2026-01-01T00:00:00Z); prepare"
          + " the statement again and execute it with the pins it returned");
    }
    if (pin == null) {
      return Optional.empty();
    }
    Opened opened = open(reference, pin);
    LanceTable table = new LanceTable(reference, pin, opened.snapshot.schema());
    describe(table, opened);
    return Optional.of(table);
  }

  /**
   * Opens the tables of a statement validated before (a cached plan), so their scans can be bound, and gives each
   * table what the join-order heuristics read of its pinned version (row count, column statistics).
   */
  public void openAll(Map<String, LanceTable> tables) {
    tables.values().forEach(table -> describe(table, open(table.reference(), pinOf(table))));
  }

  /**
   * Opens the tables of a statement validated before only to bind their scans: for a plan that needs nothing of
   * their versions' statistics (a parameterized scan binds its values without planning).
   */
  public void openSources(Map<String, LanceTable> tables) {
    tables.values().forEach(table -> open(table.reference(), pinOf(table)));
  }

  /**
   * Whether a statement validated and planned over {@code tables} may run at this execution's pins as it is: every
   * table it reads is pinned here at the version it was planned over, or at a later version of the same registration
   * that is a small append of it ({@link PlannedVersion#isSmallAppend}: same schema and indexes, every fragment kept,
   * at most a tenth more rows). Opens the later versions (the execution reads them anyway). False when a table was
   * never described by an execution (nothing is known of what it was planned over) or this execution does not pin it.
   */
  public boolean smallAppendsOf(Map<String, LanceTable> tables) {
    for (LanceTable table : tables.values()) {
      TablePin pin = pins.get(table.reference().key());
      if (pin == null) {
        return false;
      }
      if (pin.equals(table.pin())) {
        continue;
      }
      TablePin planned = table.pin();
      if (!pin.name().equals(planned.name()) || !pin.generation().equals(planned.generation())
          || !pin.location().equals(planned.location()) || pin.version() <= planned.version()) {
        return false;
      }
      Optional<PlannedVersion> before = table.plannedVersion();
      if (before.isEmpty() || !before.get().isSmallAppend(plannedVersion(open(table.reference(), pin).snapshot))) {
        return false;
      }
    }
    return true;
  }

  /** The execution's pin of the table's reference; the table's own when the execution pins none for it. */
  private TablePin pinOf(LanceTable table) {
    return pins.getOrDefault(table.reference().key(), table.pin());
  }

  private void describe(LanceTable table, Opened opened) {
    table.rowCount(opened.snapshot.countRows());
    table.indexes(indexes(opened.snapshot));
    table.statistics(estimates.of(opened.snapshot, resources));
    table.plannedOver(() -> plannedVersion(opened.snapshot));
  }

  private static List<ColumnIndex> indexes(TableSnapshot snapshot) {
    return snapshot.indexes().stream().filter(i -> i.columns().size() == 1)
        .map(i -> new ColumnIndex(i.name(), i.columns().get(0), i.type())).toList();
  }

  private static PlannedVersion plannedVersion(TableSnapshot snapshot) {
    return new PlannedVersion(snapshot.version(), snapshot.schema(), snapshot.countRows(), indexes(snapshot),
        KeptSketches.fragmentDigests(snapshot));
  }

  /** The scan source of every opened reference, by reference key. */
  public Map<String, ScanSource> sources() {
    Map<String, ScanSource> sources = new HashMap<>();
    opened.forEach((key, table) -> sources.put(key, table.source));
    return sources;
  }

  private Opened open(TableReference reference, TablePin pin) {
    Opened table = opened.get(reference.key());
    if (table != null) {
      return table;
    }
    TableSnapshot snapshot;
    try {
      snapshot = resources.open(engine, pin);
    } catch (DatasetNotFoundException e) {
      throw new TableNotFoundException(pin.name(), "version " + pin.version() + " of table '" + pin.name()
          + "' is no longer available (the table was dropped, or the version was cleaned up after the retention"
          + " window); run the query again to read the current version");
    }
    table = new Opened(snapshot, new LanceScanSource(snapshot, resources, batchSize, counters, vectors));
    opened.put(reference.key(), table);
    return table;
  }

  private record Opened(TableSnapshot snapshot, ScanSource source) {}
}
