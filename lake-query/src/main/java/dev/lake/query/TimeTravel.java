package dev.lake.query;

import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Resolves a time-travel reference through the registry's history of the table's current incarnation. Only versions
 * that were once registered (that have a history item) are readable: a Lance version that was never registered
 * (a restore, a maintenance step, a failed write) or whose item expired by retention is not found, and the message
 * says which and what is readable instead.
 */
final class TimeTravel {
  private TimeTravel() {}

  /**
   * The pin of {@code reference} in the incarnation {@code current}.
   *
   * @param history that incarnation's history items (any order)
   * @throws TableNotFoundException when no registered, retained version matches
   */
  static TablePin pin(TableReference reference, TableRegistration current, List<VersionRecord> history) {
    List<VersionRecord> items = history.stream().sorted(Comparator.comparingLong(VersionRecord::version)).toList();
    long version = reference.version().isPresent() ? byVersion(reference, current, items)
        : byInstant(reference, current, items);
    return new TablePin(current.name(), current.generation(), current.location(), version);
  }

  private static long byVersion(TableReference reference, TableRegistration current, List<VersionRecord> items) {
    long asked = reference.version().orElseThrow();
    if (items.stream().anyMatch(item -> item.version() == asked)) {
      return asked;
    }
    String name = current.name();
    Optional<VersionRecord> oldest = items.stream().findFirst();
    if (oldest.isPresent() && asked < oldest.get().version()) {
      throw new TableNotFoundException(name, "version " + asked + " of table '" + name + "' is no longer retained:"
          + " the oldest retained version is " + oldest.get().version() + " (registered at "
          + oldest.get().registeredAt() + "); read that or a newer version, e.g. \"" + name + "@v"
          + oldest.get().version() + "\"");
    }
    throw new TableNotFoundException(name, "version " + asked + " of table '" + name + "' was never registered,"
        + " so it is not readable (only registered versions are; the current version is " + current.version()
        + ", the oldest retained " + oldest.map(VersionRecord::version).orElse(current.version()) + ")");
  }

  private static long byInstant(TableReference reference, TableRegistration current, List<VersionRecord> items) {
    var at = reference.asOf().orElseThrow();
    Optional<VersionRecord> match = items.stream()
        .filter(item -> !item.registeredAt().isAfter(at))
        .max(Comparator.comparingLong(VersionRecord::version));
    if (match.isPresent()) {
      return match.get().version();
    }
    String name = current.name();
    if (at.isBefore(current.createdAt())) {
      throw new TableNotFoundException(name, "table '" + name + "' did not exist at " + at + ": its current"
          + " incarnation was created at " + current.createdAt() + "; ask for a later instant");
    }
    Optional<VersionRecord> oldest = items.stream().findFirst();
    throw new TableNotFoundException(name, "the version of table '" + name + "' current at " + at
        + " is no longer retained" + oldest.map(o -> ": the oldest retained version is " + o.version()
            + ", registered at " + o.registeredAt() + "; ask for that instant or a later one").orElse(""));
  }
}
