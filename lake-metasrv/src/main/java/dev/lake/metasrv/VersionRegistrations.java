package dev.lake.metasrv;

import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistrationListener;
import dev.lake.registry.RegistryConflictException;
import dev.lake.registry.TableRegistration;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry half of a commit that keeps the table's schema (compaction, an index build): the version Lance
 * committed is registered by compare-and-set under the leader's fence, then the node's listener is told
 * (docs/design.md, the commit rule).
 */
final class VersionRegistrations {
  private static final Logger LOG = LoggerFactory.getLogger(VersionRegistrations.class);

  private VersionRegistrations() {}

  /**
   * Registers {@code version} of {@code registration}'s table with its schema unchanged, then tells {@code listener}.
   *
   * @param activity what committed the version, for the conflict's message ("compaction", "index")
   * @throws WriteConflictException when the registration changed since it was read (nothing registered)
   */
  static TableRegistration registerSameSchema(MetaStore store, WriteInterceptor interceptor, Clock clock,
      RegistrationListener listener, LeaseFence fence, TableRegistration registration, long version,
      String activity) {
    TableRegistration next = registration.withVersion(version, registration.schema(), fence.term(), clock.instant());
    interceptor.beforeRegistryWrite(registration.name(), version);
    try {
      store.commit(fence, registration, next, Optional.empty());
    } catch (RegistryConflictException e) {
      throw new WriteConflictException("the registration of '" + registration.name() + "' changed during the "
          + activity + " commit (another leader?); version " + version + " was not registered: retry", e);
    }
    tell(listener, next);
    return next;
  }

  /** Tells the listener; its failure cannot undo a registered write, so it is logged, not thrown. */
  static void tell(RegistrationListener listener, TableRegistration registration) {
    try {
      listener.registered(registration);
    } catch (RuntimeException e) {
      LOG.error("the registration listener failed table={} version={}", registration.name(),
          registration.version(), e);
    }
  }
}
