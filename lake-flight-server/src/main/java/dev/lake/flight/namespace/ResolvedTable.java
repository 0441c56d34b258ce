package dev.lake.flight.namespace;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One table resolved to the snapshot a reader must open: the registered (or pinned) version of its current
 * incarnation, where its manifest is, and how to reach the storage.
 *
 * @param name the table's name
 * @param generation its incarnation
 * @param version the registered or pinned Lance version (never "latest on storage")
 * @param location the incarnation's dataset URI (no trailing slash)
 * @param manifestPath the object-store path of that version's manifest (Lance's V2 naming)
 * @param storageOptions Lance storage options for the data root (empty for a local root)
 * @param expiresAt when vended credentials in {@code storageOptions} stop being valid; empty when none are vended
 * @param schema the table's Arrow schema as JSON (at the registered version)
 * @param registeredAt when that version was registered
 * @param pin the snapshot pin it was resolved through, if any
 */
public record ResolvedTable(String name, String generation, long version, String location, String manifestPath,
    Map<String, String> storageOptions, Optional<Instant> expiresAt, String schema, Instant registeredAt,
    Optional<String> pin) {
  public ResolvedTable {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(generation, "generation");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(manifestPath, "manifestPath");
    storageOptions = Map.copyOf(storageOptions);
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(registeredAt, "registeredAt");
    Objects.requireNonNull(pin, "pin");
  }
}
