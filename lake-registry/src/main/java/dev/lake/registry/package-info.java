/**
 * The registry: the one authority for which version of each table is current.
 *
 * <p>Owns the data model ({@link dev.lake.registry.TableRegistration}, history, idempotency keys, tombstones,
 * the leader lease and node items) and the {@link dev.lake.registry.MetaStore} SPI with its backends. Imports no
 * other lake module.
 */
package dev.lake.registry;
