package dev.lake.query.plan;

import dev.lake.query.plan.lance.LanceTable;
import dev.lake.query.model.TableReference;
import java.util.Optional;

/**
 * Resolves the table references of one statement: from the catalog when preparing, from the pins when executing.
 * Called at most once per reference and statement.
 */
public interface TableResolver {
  /**
   * The table {@code reference} names, or empty when there is no such table. A time-travel reference to a version
   * that is not readable throws {@link dev.lake.registry.TableNotFoundException} saying why. Backend failures are
   * thrown, never reported as empty.
   */
  Optional<LanceTable> resolve(TableReference reference);
}
