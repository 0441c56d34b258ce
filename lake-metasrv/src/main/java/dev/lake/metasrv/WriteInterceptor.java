package dev.lake.metasrv;

/**
 * Test-only hooks at the points of the commit protocol where a fault or a pause is worth injecting. Production
 * uses {@link #NONE}.
 */
public interface WriteInterceptor {
  WriteInterceptor NONE = new WriteInterceptor() {};

  /** Under the table lock, after the read version was established, just before the Lance commit. */
  default void beforeLanceCommit(String table, String location, long readVersion) {}

  /**
   * The test-only pause point: after the write gate was passed ({@link Leadership#enter()} captured the fence the
   * registry write will carry) and before that registry write (commit, create, drop, compaction). A write held here
   * past its lease must not commit once another node took over, nor after this node regained the lease in a later
   * term: the registry checks the fence captured at the gate. For a drop, {@code newVersion} is the dropped version.
   */
  default void beforeRegistryWrite(String table, long newVersion) {}

  /** A drop resolved its registration and is about to take the table lock. */
  default void beforeDropLock(String table) {}

  /** Maintenance planned and rewrote a compaction outside the lock and is about to take the table lock. */
  default void afterCompactionPrepared(String table) {}
}
