package dev.lake.query;

import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.util.List;
import java.util.Optional;

/**
 * The registrations the read path sees (read-only: what this node's writes acknowledged reaches the catalog through
 * {@link dev.lake.registry.RegistrationListener}, which {@link CachingCatalog} implements). Backend errors surface as
 * {@link dev.lake.registry.RegistryUnavailableException}, never as an empty answer.
 */
public interface Catalog {
  /** The current registration of {@code name} (matched case-insensitively), or empty when there is none. */
  Optional<TableRegistration> table(String name);

  /** All registrations, in name order. */
  List<TableRegistration> tables();

  /**
   * The registered versions of one incarnation, ascending by version (time travel reads only these). Items expired
   * by retention are gone from it. Not on the path of ordinary queries.
   */
  List<VersionRecord> history(String name, String generation);
}
