package dev.lake.metasrv;

import dev.lake.engine.CommitConflictException;
import dev.lake.engine.EngineException;
import dev.lake.engine.ForeignCommitException;
import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.engine.TableEngine;
import dev.lake.registry.CommitStateUnknownException;
import dev.lake.registry.DuplicateIdempotencyKeyException;
import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistrationListener;
import dev.lake.registry.RegistryConflictException;
import dev.lake.registry.TableExistsException;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serializes every write on this (leader) node and runs docs/design.md's commit rule (invariant 2):
 *
 * <ol>
 *   <li>data files are staged outside the table lock (a slow client holds no lock);
 *   <li>under the lock: re-read the registration R; if Lance holds data commits after R, commit a Restore of R;
 *       commit the change on the version read; the engine checks that nothing data-changing slipped in between;
 *   <li>pass the write gate and make one atomic registry write (expects R, registers N, with the history item and
 *       the idempotency item, fenced by the lease); only then acknowledge.
 * </ol>
 * Every Lance commit (the repair's Restore included) passes the write gate immediately before it, so a node that
 * lost the lease commits nothing to storage. A commit Lance refuses under the table lock
 * ({@link CommitConflictException}: e.g. a Restore by a deposed leader that passed its gate just before it was
 * paused) is a foreign commit: re-read, restore if needed and retry, up to {@value #COMMIT_ATTEMPTS} attempts;
 * then {@link WriteConflictException} (ABORTED, retry).
 * A Lance version that was committed but not registered is never read (reads open registered versions only) and
 * is undone by the next writer's restore.
 *
 * <p>Every acknowledged write (a replay included) and every drop is told to the {@link RegistrationListener}
 * (the node's catalog: read-your-writes) right after its registry write, before the caller hears of it.
 */
public final class WriteCoordinator {
  private static final Logger LOG = LoggerFactory.getLogger(WriteCoordinator.class);
  private static final int COMMIT_ATTEMPTS = 3;

  private final MetaStore store;
  private final TableEngine engine;
  private final Leadership leadership;
  private final TableLocks locks;
  private final TableLocations locations;
  private final BufferAllocator allocator;
  private final Clock clock;
  private final WriteInterceptor interceptor;
  private final CommitRule commitRule;
  private final RegistrationListener listener;

  public WriteCoordinator(MetaStore store, TableEngine engine, Leadership leadership, TableLocks locks,
      TableLocations locations, BufferAllocator allocator, Clock clock, WriteInterceptor interceptor) {
    this(store, engine, leadership, locks, locations, allocator, clock, interceptor, RegistrationListener.NONE);
  }

  /** @param listener told of every registration this coordinator acknowledges and of every drop */
  public WriteCoordinator(MetaStore store, TableEngine engine, Leadership leadership, TableLocks locks,
      TableLocations locations, BufferAllocator allocator, Clock clock, WriteInterceptor interceptor,
      RegistrationListener listener) {
    this.listener = java.util.Objects.requireNonNull(listener, "listener");
    this.store = store;
    this.engine = engine;
    this.leadership = leadership;
    this.locks = locks;
    this.locations = locations;
    this.allocator = allocator;
    this.clock = clock;
    this.interceptor = interceptor;
    this.commitRule = new CommitRule(engine, leadership);
  }

  /**
   * Creates, appends to or replaces {@code request.table()} with {@code data}; consumes and closes the reader. The
   * acknowledged registration is told to the listener before this returns.
   */
  public WriteResult ingest(IngestRequest request, ArrowReader data) {
    WriteResult result = ingestUntold(request, data);
    tell(result.registration());
    return result;
  }

  private WriteResult ingestUntold(IngestRequest request, ArrowReader data) {
    String table = request.table();
    boolean handedOff = false;
    try {
      Optional<TableRegistration> current = store.get(table);
      if (current.isEmpty()) {
        if (request.ifMissing() == IngestRequest.IfMissing.FAIL) {
          throw new TableNotFoundException(table);
        }
        handedOff = true;
        return create(request, data);
      }
      TableRegistration registration = current.get();
      Optional<WriteResult> replay = replay(request, registration);
      if (replay.isPresent()) {
        return replay.get();
      }
      switch (request.ifExists()) {
        case FAIL:
          throw new TableExistsException(table);
        case APPEND:
          handedOff = true;
          return append(request, registration, data);
        default:
          handedOff = true;
          return replace(request, registration, data);
      }
    } finally {
      if (!handedOff) {
        closeQuietly(data);
      }
    }
  }

  /**
   * Drops {@code table}: compare-and-delete on the registration resolved here, plus a tombstone, in one atomic
   * write. A drop that resolved an incarnation that has since been replaced by a new one fails and removes nothing.
   */
  public TableRegistration drop(String table) {
    String name = TableNames.normalize(table);
    TableRegistration resolved = store.get(name).orElseThrow(() -> new TableNotFoundException(name));
    interceptor.beforeDropLock(name);
    return locks.withLock(name, () -> {
      TableRegistration expected = resolved;
      for (int attempt = 1; ; attempt++) {
        LeaseFence fence = leadership.enter();
        Tombstone tombstone = new Tombstone(name, expected.generation(), expected.location(), clock.instant());
        interceptor.beforeRegistryWrite(name, expected.version());
        try {
          store.drop(fence, expected, tombstone);
          tellDropped(expected);
          LOG.info("table dropped table={} generation={} version={}", name, expected.generation(),
              expected.version());
          return expected;
        } catch (RegistryConflictException e) {
          Optional<TableRegistration> now = store.get(name);
          boolean sameIncarnation = now.isPresent() && now.get().generation().equals(resolved.generation());
          if (!sameIncarnation || attempt >= COMMIT_ATTEMPTS) {
            throw new WriteConflictException("table '" + name + "' was dropped or recreated by another request "
                + "after this drop looked it up; nothing was dropped. Run the drop again if you still mean it", e);
          }
          expected = now.get(); // only the version moved (an append); drop the same incarnation
        }
      }
    });
  }

  private WriteResult create(IngestRequest request, ArrowReader data) {
    String table = request.table();
    String generation = UUID.randomUUID().toString();
    String location = locations.locationOf(table, generation);
    Schema schema = schemaOf(data);
    NewTableSchemas.validate(table, schema);
    StagedData staged;
    try {
      staged = stage(location, data);
    } catch (RuntimeException e) {
      discardUnregistered(location);
      throw e;
    }
    try {
      return locks.withLock(table, () -> createUnderLock(request, generation, location, staged));
    } catch (CommitStateUnknownException e) {
      throw e; // the registration may exist: its files must stay
    } catch (RuntimeException e) {
      if (store.get(table).filter(r -> r.generation().equals(generation)).isEmpty()) {
        discardUnregistered(location);
      }
      throw e;
    }
  }

  private WriteResult createUnderLock(IngestRequest request, String generation, String location,
      StagedData staged) {
    String table = request.table();
    Optional<TableRegistration> raced = store.get(table);
    if (raced.isPresent()) {
      Optional<WriteResult> replay = replay(request, raced.get());
      if (replay.isPresent()) {
        return replay.get();
      }
      if (request.ifExists() == IngestRequest.IfExists.FAIL) {
        throw new TableExistsException(table);
      }
      throw new WriteConflictException("table '" + table + "' was created by another request while this "
          + "ingest was streaming; nothing was written: retry");
    }
    LeaseFence fence = leadership.enter();
    interceptor.beforeLanceCommit(table, location, 0);
    long version = engine.create(location, staged);
    Instant now = clock.instant();
    TableRegistration registration = new TableRegistration(table, generation, location, version,
        staged.schema().toJson(), fence.term(), now, now);
    interceptor.beforeRegistryWrite(table, version);
    store.create(fence, registration, idempotencyRecord(request, registration, staged.rowCount(), now));
    LOG.info("table created table={} generation={} version={} rows={}", table, generation, version,
        staged.rowCount());
    return new WriteResult(registration, staged.rowCount(), false);
  }

  /**
   * Deletes a fresh generation's location that no registration names (a create that failed or lost its race):
   * nobody else ever writes there. If this fails, the orphan-generation sweep removes it after the guard.
   */
  private void discardUnregistered(String location) {
    try {
      leadership.enter(); // a node that is not the leader deletes nothing; the sweep will
      engine.drop(location);
    } catch (RuntimeException e) {
      LOG.warn("could not delete the files of a failed create location={}; the orphan sweep will", location, e);
    }
  }


  private WriteResult append(IngestRequest request, TableRegistration registration, ArrowReader data) {
    Schema tableSchema = parseSchema(registration);
    ArrowReader conformed;
    try {
      conformed = ConformingReader.conform(request.table(), tableSchema, data, allocator);
    } catch (IOException e) {
      closeQuietly(data);
      throw new UncheckedIOException("could not read the schema of the ingest stream", e);
    } catch (RuntimeException e) {
      closeQuietly(data);
      throw e;
    }
    StagedData staged = stage(registration.location(), conformed);
    if (staged.rowCount() == 0) {
      // Nothing to add: Lance commits no version for an empty append, and there is nothing to acknowledge but 0.
      return new WriteResult(registration, 0, false);
    }
    return commitUnderLock(request, registration, staged, TableChange.Append::new, registration.schema());
  }

  private WriteResult replace(IngestRequest request, TableRegistration registration, ArrowReader data) {
    Schema schema = schemaOf(data);
    NewTableSchemas.validate(request.table(), schema);
    StagedData staged = stage(registration.location(), data);
    return commitUnderLock(request, registration, staged, TableChange.Overwrite::new, staged.schema().toJson());
  }

  private WriteResult commitUnderLock(IngestRequest request, TableRegistration resolved, StagedData staged,
      Function<StagedData, TableChange> change, String newSchema) {
    String table = request.table();
    return locks.withLock(table, () -> {
      TableRegistration registration = store.get(table)
          .filter(r -> r.generation().equals(resolved.generation()))
          .orElseThrow(() -> new WriteConflictException("table '" + table + "' was dropped or recreated while "
              + "this ingest was streaming; nothing was written: retry"));
      Optional<WriteResult> replay = replay(request, registration);
      if (replay.isPresent()) {
        return replay.get();
      }
      String location = registration.location();
      for (int attempt = 1; attempt <= COMMIT_ATTEMPTS; attempt++) {
        if (attempt > 1) {
          registration = reread(table, registration);
        }
        long readVersion = commitRule.readVersion(registration);
        LeaseFence fence = leadership.enter();
        interceptor.beforeLanceCommit(table, location, readVersion);
        long version;
        try {
          version = engine.commit(location, readVersion, change.apply(staged));
        } catch (ForeignCommitException e) {
          LOG.warn("foreign data commit detected, not registering table={} readVersion={} committed={} foreign={} "
              + "operation={} attempt={}", table, readVersion, e.committedVersion(), e.foreignVersion(),
              e.foreignOperation(), attempt);
          continue;
        } catch (CommitConflictException e) {
          LOG.warn("Lance refused the commit: a foreign commit landed after the read version table={} "
              + "readVersion={} attempt={}: {}", table, readVersion, attempt, e.getMessage());
          continue;
        }
        Instant now = clock.instant();
        TableRegistration next = registration.withVersion(version, newSchema, fence.term(), now);
        interceptor.beforeRegistryWrite(table, version);
        try {
          store.commit(fence, registration, next, idempotencyRecord(request, next, staged.rowCount(), now));
        } catch (DuplicateIdempotencyKeyException e) {
          return new WriteResult(registration, e.original().rowCount(), true);
        } catch (RegistryConflictException e) {
          throw new WriteConflictException("the registration of '" + table + "' changed during the commit (another "
              + "leader?); version " + version + " was not registered and nothing was acknowledged: retry", e);
        }
        LOG.info("version registered table={} generation={} version={} rows={}", table,
            registration.generation(), version, staged.rowCount());
        return new WriteResult(next, staged.rowCount(), false);
      }
      throw new WriteConflictException("another writer kept committing to the Lance dataset of '" + table
          + "' behind the registry's back; nothing was acknowledged: retry");
    });
  }

  /**
   * The registration again before a retry: under the lock only another leader can have moved it, and then this
   * write cannot commit (its registry write would be refused): answer ABORTED at once.
   */
  private TableRegistration reread(String table, TableRegistration expected) {
    Optional<TableRegistration> now = store.get(table);
    if (now.isEmpty() || !now.get().sameSnapshot(expected)) {
      throw new WriteConflictException("the registration of '" + table + "' changed while this ingest was being "
          + "committed (another leader?); nothing was acknowledged: retry");
    }
    return now.get();
  }

  private Optional<WriteResult> replay(IngestRequest request, TableRegistration registration) {
    if (request.idempotencyKey().isEmpty()) {
      return Optional.empty();
    }
    return store.idempotencyRecord(registration.name(), registration.generation(), request.idempotencyKey().get())
        .map(r -> new WriteResult(registration, r.rowCount(), true));
  }

  private static Optional<IdempotencyRecord> idempotencyRecord(IngestRequest request,
      TableRegistration registration, long rows, Instant now) {
    return request.idempotencyKey().map(k -> new IdempotencyRecord(registration.name(),
        registration.generation(), k, registration.version(), rows, now));
  }

  private StagedData stage(String location, ArrowReader data) {
    try {
      return engine.stage(location, data);
    } catch (EngineException e) {
      if (data instanceof ReportsFailure source && source.failure().isPresent()) {
        RuntimeException cause = source.failure().get();
        cause.addSuppressed(e);
        throw cause;
      }
      throw e;
    }
  }

  private static Schema schemaOf(ArrowReader data) {
    try {
      return data.getVectorSchemaRoot().getSchema();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the schema of the ingest stream", e);
    }
  }

  private static Schema parseSchema(TableRegistration registration) {
    return dev.lake.engine.RegisteredSchema.of(registration);
  }

  /** Tells the listener ({@link VersionRegistrations#tell}). */
  private void tell(TableRegistration registration) {
    VersionRegistrations.tell(listener, registration);
  }

  private void tellDropped(TableRegistration dropped) {
    try {
      listener.dropped(dropped.name(), dropped.generation());
    } catch (RuntimeException e) {
      LOG.error("the registration listener failed on a drop table={} generation={}", dropped.name(),
          dropped.generation(), e);
    }
  }

  private static void closeQuietly(ArrowReader reader) {
    try {
      reader.close();
    } catch (Exception e) {
      LOG.debug("closing an ingest stream failed", e);
    }
  }
}
