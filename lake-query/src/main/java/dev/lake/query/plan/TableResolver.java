package dev.lake.query.plan;

import java.util.Optional;

/**
 * Resolves a table name for one statement: from the catalog when preparing, from the pins when executing. Called
 * at most once per name and statement.
 */
public interface TableResolver {
  /**
   * The table named {@code name} (already lower-case and a valid table name), or empty when there is none.
   * Backend failures are thrown, never reported as empty.
   */
  Optional<LanceTable> resolve(String name);
}
