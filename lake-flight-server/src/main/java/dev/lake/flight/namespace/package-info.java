/**
 * lake as a read-only Lance REST Namespace (docs/api.md, "Lance REST Namespace"): the HTTP endpoint other engines
 * (Spark's, Trino's and Doris' Lance catalogs) resolve lake's tables through, the {@code lake.resolve_table} and
 * {@code lake.pin_snapshot} Flight actions, and snapshot pins. One {@link dev.lake.flight.namespace.TableResolver}
 * answers all of them from the query side's catalog: every answer names a registered (or pinned) version, never
 * "latest on storage". Writes are refused; they go through Flight SQL ingest.
 */
package dev.lake.flight.namespace;
