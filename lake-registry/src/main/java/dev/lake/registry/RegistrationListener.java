package dev.lake.registry;

import java.util.List;
import java.util.Objects;

/**
 * Told of every registration a writer made and acknowledged: the hook that keeps read-your-writes by structure.
 * lake-metasrv's {@code WriteCoordinator} and {@code Maintenance} call it after each successful registry write
 * (create, append, replace, compaction; a drop), and a follower's forwarding client calls it with what the leader's
 * answer names; lake-query's {@code CachingCatalog} implements it, so the node's next query sees the new version.
 * The node wires the catalog in once; no request handler calls it (docs/architecture.md, "Read-your-writes").
 *
 * <p>It lives in the registry model because lake-metasrv and lake-query never import each other. Implementations
 * are in-memory, fast and thread-safe; they are called under the table lock and must not block or throw.
 */
public interface RegistrationListener {
  /** Tells nobody (tests, tools). */
  RegistrationListener NONE = new RegistrationListener() {
    @Override
    public void registered(TableRegistration registration) {
      Objects.requireNonNull(registration, "registration");
    }

    @Override
    public void dropped(String name, String generation) {
      Objects.requireNonNull(name, "name");
    }
  };

  /** Tells each of {@code listeners}, in order (the node's catalog first, then its background analysis). */
  static RegistrationListener all(RegistrationListener... listeners) {
    List<RegistrationListener> all = List.of(listeners);
    return new RegistrationListener() {
      @Override
      public void registered(TableRegistration registration) {
        all.forEach(listener -> listener.registered(registration));
      }

      @Override
      public void dropped(String name, String generation) {
        all.forEach(listener -> listener.dropped(name, generation));
      }
    };
  }

  /** {@code registration} is registered and acknowledged (a new table, version, or incarnation). */
  void registered(TableRegistration registration);

  /** The incarnation {@code generation} of table {@code name} was dropped. */
  void dropped(String name, String generation);
}
