package dev.lake.registry.rocksdb;

import dev.lake.registry.CommitStateUnknownException;
import dev.lake.registry.Page;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.support.RetryPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Status;
import org.rocksdb.Transaction;
import org.rocksdb.TransactionDB;
import org.rocksdb.TransactionDBOptions;
import org.rocksdb.TransactionOptions;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open {@link TransactionDB} and everything native that belongs to it: guarded reads, scans over one
 * prefix, and transactions retried on lock time-outs. A read-write lock keeps {@link #close()} from freeing
 * native handles under a running call; after close every call throws {@link RegistryUnavailableException}.
 */
final class RocksAccess implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RocksAccess.class);

  /** A read against the database. */
  interface Read<T> {
    T run(RocksDB db) throws RocksDBException;
  }

  /** The body of one transaction attempt; it may throw a registry exception to abort without writing. */
  interface Body {
    void run(Transaction tx, ReadOptions readOptions) throws RocksDBException;
  }

  private final Path dir;
  private final RocksDbSettings settings;
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private final Options options;
  private final TransactionDBOptions dbOptions;
  private final WriteOptions writeOptions;
  private final TransactionOptions txOptions;
  private final TransactionDB db;
  private boolean closed;

  RocksAccess(Path dir, RocksDbSettings settings) {
    RocksDB.loadLibrary();
    this.dir = dir;
    this.settings = settings;
    long lockMillis = settings.lockTimeout().toMillis();
    this.options = new Options().setCreateIfMissing(true);
    this.dbOptions = new TransactionDBOptions().setTransactionLockTimeout(lockMillis)
        .setDefaultLockTimeout(lockMillis);
    this.writeOptions = new WriteOptions().setSync(settings.syncWrites());
    this.txOptions = new TransactionOptions().setLockTimeout(lockMillis).setDeadlockDetect(true);
    try {
      Files.createDirectories(dir);
      this.db = TransactionDB.open(options, dbOptions, dir.toString());
    } catch (Exception e) {
      closeOptions();
      String hint = e.getMessage() != null && e.getMessage().contains("lock")
          ? "another process (or another store in this one) has it open: stop it or use another directory"
          : "check that the directory exists, is writable and holds a RocksDB registry";
      throw new RegistryUnavailableException(
          "cannot open the RocksDB registry at " + dir + " (" + e.getMessage() + "): " + hint, e);
    }
  }

  <T> T read(String what, Read<T> read) {
    lifecycle.readLock().lock();
    try {
      ensureOpen(what);
      return read.run(db);
    } catch (RocksDBException e) {
      throw unavailable(what, e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Items whose keys start with {@code prefix}, in key order, resuming after {@code startAfter} (a key suffix),
   * at most {@code limit}; the page's cursor is the suffix of the last item when more follow.
   */
  <T> Page<T> scan(String what, byte[] prefix, Optional<String> startAfter, int limit, Decoder<T> decoder) {
    return read(what, db -> {
      List<T> items = new ArrayList<>();
      String lastSuffix = null;
      try (ReadOptions ro = new ReadOptions(); Slice upper = new Slice(RocksKeys.upperBound(prefix))) {
        ro.setIterateUpperBound(upper);
        try (RocksIterator it = db.newIterator(ro)) {
          byte[] start = startAfter.map(s -> RocksKeys.concat(prefix, s)).orElse(prefix);
          it.seek(start);
          if (startAfter.isPresent() && it.isValid() && Arrays.equals(it.key(), start)) it.next();
          while (it.isValid() && items.size() < limit) {
            byte[] key = it.key();
            lastSuffix = RocksKeys.suffix(key, prefix);
            items.add(decoder.decode(lastSuffix, it.value()));
            it.next();
          }
          it.status();
          boolean more = it.isValid();
          return new Page<>(items, more ? Optional.of(lastSuffix) : Optional.empty());
        }
      }
    });
  }

  /** Decodes one scanned item. */
  interface Decoder<T> {
    T decode(String keySuffix, byte[] value);
  }

  /**
   * Runs {@code body} in a pessimistic transaction and commits it. Lock time-outs and busy/deadlock
   * statuses (nothing written) are retried with backoff; a failure of the commit itself may have reached the
   * write-ahead log and is reported as {@link CommitStateUnknownException}.
   */
  void transact(String what, Body body) {
    RetryPolicy retry = settings.retry();
    RocksDBException last = null;
    for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
      retry.pauseBefore(attempt, what);
      lifecycle.readLock().lock();
      try {
        ensureOpen(what);
        try (Transaction tx = db.beginTransaction(writeOptions, txOptions);
            ReadOptions ro = new ReadOptions()) {
          boolean committed = false;
          try {
            body.run(tx, ro);
          } catch (RocksDBException e) {
            rollback(tx);
            if (!retryable(e)) throw unavailable(what, e);
            last = e;
            LOG.debug("registry transaction retry op={} attempt={} status={}", what, attempt, code(e));
            continue;
          } catch (RuntimeException e) {
            rollback(tx);
            throw e;
          }
          try {
            tx.commit();
            committed = true;
          } catch (RocksDBException e) {
            throw new CommitStateUnknownException(what + " failed while committing to the RocksDB registry at "
                + dir + " (" + e.getMessage() + "): the write may have reached the log; re-read the registry "
                + "before acting and do not delete anything it would reference", e);
          } finally {
            if (!committed) rollback(tx);
          }
          return;
        }
      } finally {
        lifecycle.readLock().unlock();
      }
    }
    throw new RegistryUnavailableException(what + " could not lock the RocksDB registry at " + dir + " in "
        + retry.maxAttempts() + " attempts (" + (last == null ? "?" : last.getMessage())
        + "): other writes hold it; nothing was written, retry later", last);
  }

  String dir() {
    return dir.toString();
  }

  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) return;
      closed = true;
      db.close();
      closeOptions();
      LOG.info("registry closed dir={}", dir);
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  private void closeOptions() {
    txOptions.close();
    writeOptions.close();
    dbOptions.close();
    options.close();
  }

  private void ensureOpen(String what) {
    if (closed) {
      throw new RegistryUnavailableException(
          what + " failed: the RocksDB registry at " + dir + " is closed (the server is shutting down)", null);
    }
  }

  private RegistryUnavailableException unavailable(String what, RocksDBException e) {
    return new RegistryUnavailableException(what + " failed in the RocksDB registry at " + dir + " ("
        + code(e) + ": " + e.getMessage() + "); nothing was written: check the disk and the server log", e);
  }

  private static void rollback(Transaction tx) {
    try {
      tx.rollback();
    } catch (RocksDBException e) {
      LOG.warn("registry transaction rollback failed status={}", code(e), e);
    }
  }

  private static boolean retryable(RocksDBException e) {
    Status.Code code = e.getStatus() == null ? null : e.getStatus().getCode();
    return code == Status.Code.TimedOut || code == Status.Code.Busy || code == Status.Code.TryAgain;
  }

  private static String code(RocksDBException e) {
    return e.getStatus() == null ? "unknown" : e.getStatus().getCodeString();
  }
}
