package dev.lake.metasrv;

import dev.lake.engine.CommitConflictException;
import dev.lake.engine.ForeignCommitException;
import dev.lake.engine.IndexKind;
import dev.lake.engine.IndexSpec;
import dev.lake.engine.RegisteredSchema;
import dev.lake.engine.SqlTypeNames;
import dev.lake.engine.TableEngine;
import dev.lake.engine.TableIndex;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistrationListener;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code lake.create_index}: a scalar index (BTREE or BITMAP) built by the leader on the registered version and
 * committed as a new Lance version that is registered under the commit rule (docs/design.md invariant 2), like a
 * compaction: under the table lock, the commit rule's read version (restoring unregistered data commits first),
 * the write gate immediately before the Lance commit, the check of the versions in between, then compare-and-set of
 * the registration. A foreign data commit that slipped in (Lance rebases the index commit onto it) or a commit
 * Lance refused is retried on a fresh read version, at most {@value #ATTEMPTS} times, then ABORTED; the failed index
 * commit is never registered (the next commit restores over it), so no row is lost or gained.
 *
 * <p>Lance 7.0.0 builds the index and commits it in one call ({@code Dataset.createIndex}), so the build runs under
 * the lock: writes to that table wait for it (about a second per million rows of a BTREE here).
 */
public final class IndexBuilds {
  private static final Logger LOG = LoggerFactory.getLogger(IndexBuilds.class);
  private static final int ATTEMPTS = 3;
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

  /** What a create-index request committed. */
  public record Created(TableRegistration registration, TableIndex index) {}

  private final MetaStore store;
  private final TableEngine engine;
  private final Leadership leadership;
  private final TableLocks locks;
  private final Clock clock;
  private final WriteInterceptor interceptor;
  private final CommitRule commitRule;
  private final RegistrationListener listener;

  IndexBuilds(MetaStore store, TableEngine engine, Leadership leadership, TableLocks locks, Clock clock,
      WriteInterceptor interceptor, RegistrationListener listener) {
    this.store = store;
    this.engine = engine;
    this.leadership = leadership;
    this.locks = locks;
    this.clock = clock;
    this.interceptor = interceptor;
    this.listener = listener;
    this.commitRule = new CommitRule(engine, leadership);
  }

  /**
   * Builds index {@code name} (default {@code <column>_idx}) of {@code kind} on {@code column} of {@code table}.
   *
   * @throws TableNotFoundException NOT_FOUND when the table does not exist
   * @throws LakeException INVALID_ARGUMENT for an unknown column, a type the kind cannot index or a bad name;
   *     ALREADY_EXISTS when the name is taken or the column already has an index
   * @throws WriteConflictException ABORTED when foreign commits kept landing, or the registration moved
   */
  public Created create(String table, String column, IndexKind kind, Optional<String> name) {
    String tableName = TableNames.normalize(table);
    TableRegistration resolved = store.get(tableName).orElseThrow(() -> new TableNotFoundException(tableName));
    Field field = column(resolved, column);
    checkType(tableName, field, kind);
    String indexName = name.orElse(field.getName().toLowerCase(Locale.ROOT) + "_idx");
    if (!NAME.matcher(indexName).matches()) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "index name '" + truncate(indexName) + "' is not valid: "
          + "use 1-128 letters, digits and underscores, not starting with a digit");
    }
    IndexSpec spec = new IndexSpec(indexName, field.getName(), kind);
    leadership.enter(); // refuse early on a follower
    return locks.withLock(tableName, () -> {
      TableRegistration registration = store.get(tableName)
          .filter(r -> r.generation().equals(resolved.generation()))
          .orElseThrow(() -> new WriteConflictException("table '" + tableName + "' was dropped or recreated while "
              + "the index was requested; nothing was built: retry"));
      for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
        if (attempt > 1) {
          registration = store.get(tableName).filter(r -> r.generation().equals(resolved.generation()))
              .orElseThrow(() -> new WriteConflictException("table '" + tableName + "' was dropped or recreated "
                  + "while its index was being built; nothing was registered: retry"));
        }
        checkFree(registration, spec);
        long readVersion = commitRule.readVersion(registration); // a repair passes the gate first
        LeaseFence fence = leadership.enter();
        interceptor.beforeLanceCommit(tableName, registration.location(), readVersion);
        long version;
        try {
          version = engine.createIndex(registration.location(), readVersion, spec);
        } catch (ForeignCommitException e) {
          LOG.warn("foreign data commit during the index build, not registered table={} index={} readVersion={} "
              + "committed={} foreign={} attempt={}", tableName, indexName, readVersion, e.committedVersion(),
              e.foreignVersion(), attempt);
          continue;
        } catch (CommitConflictException e) {
          LOG.warn("Lance refused the index commit table={} index={} readVersion={} attempt={}: {}", tableName,
              indexName, readVersion, attempt, e.getMessage());
          continue;
        }
        TableRegistration next = VersionRegistrations.registerSameSchema(store, interceptor, clock, listener,
            fence, registration, version, "index");
        LOG.info("index registered table={} generation={} index={} column={} type={} from={} to={}", tableName,
            registration.generation(), indexName, field.getName(), kind, registration.version(), version);
        TableIndex index = engine.indexes(next.location(), version).stream()
            .filter(i -> i.name().equals(indexName)).findFirst()
            .orElse(new TableIndex(indexName, List.of(field.getName()), kind.name(), readVersion, 0));
        return new Created(next, index);
      }
      throw new WriteConflictException("another writer kept committing to the Lance dataset of '" + tableName
          + "' behind the registry's back while its index was built; nothing was registered: retry");
    });
  }

  /** The indexes of {@code registration}'s version, in name order. */
  public List<TableIndex> indexes(TableRegistration registration) {
    return engine.indexes(registration.location(), registration.version());
  }

  private void checkFree(TableRegistration registration, IndexSpec spec) {
    for (TableIndex existing : indexes(registration)) {
      if (existing.name().equalsIgnoreCase(spec.name())) {
        throw new LakeException(ErrorCode.ALREADY_EXISTS, "table '" + registration.name() + "' already has an "
            + "index named '" + existing.name() + "' (on " + existing.columns() + "); choose another name");
      }
      if (existing.columns().equals(List.of(spec.column()))) {
        throw new LakeException(ErrorCode.ALREADY_EXISTS, "column '" + spec.column() + "' of table '"
            + registration.name() + "' already has index '" + existing.name() + "' (" + existing.type() + ")");
      }
    }
  }

  private static Field column(TableRegistration registration, String column) {
    List<Field> fields = RegisteredSchema.of(registration).getFields();
    return fields.stream().filter(f -> f.getName().equalsIgnoreCase(column)).findFirst()
        .orElseThrow(() -> new LakeException(ErrorCode.INVALID_ARGUMENT, "table '" + registration.name()
            + "' has no column '" + truncate(column) + "'; its columns are "
            + fields.stream().map(Field::getName).toList()));
  }

  /** Scalar indexes over flat values only: numbers, strings, dates, times, timestamps, booleans. */
  private static void checkType(String table, Field field, IndexKind kind) {
    ArrowType t = field.getType();
    boolean indexable = switch (t.getTypeID()) {
      case Int, FloatingPoint, Decimal, Utf8, LargeUtf8, Date, Timestamp, Time, Bool -> true;
      default -> false;
    };
    if (!indexable) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "column '" + field.getName() + "' of table '" + table
          + "' is " + SqlTypeNames.of(t) + ": a " + kind + " index takes numbers, strings, dates, times, "
          + "timestamps or booleans");
    }
  }

  private static String truncate(String s) {
    return s.length() <= 130 ? s : s.substring(0, 128) + "...";
  }
}
