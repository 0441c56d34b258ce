/**
 * The table engine over Lance: writes uncommitted data files, commits them (create, append, overwrite,
 * restore, two-phase compaction) on an explicit read version, opens an exact version, cleans up old versions with a
 * version bound, lists and deletes a location's files for lake's own orphan sweep, drops an incarnation.
 *
 * <p>Knows nothing of the registry's protocol: it returns the versions it creates and reports commits that slipped
 * in between; the metasrv decides what to register, what to keep and what is an orphan. Imports lake-registry
 * value types only.
 *
 * <p>The contract is {@link dev.lake.engine.TableEngine}, {@link dev.lake.engine.TableSnapshot},
 * {@link dev.lake.engine.StagedData}, {@link dev.lake.engine.TableChange}, {@link dev.lake.engine.CompactionWork},
 * {@link dev.lake.engine.ObjectStore} (local disk: {@link dev.lake.engine.LocalObjectStore}; S3:
 * {@link dev.lake.engine.S3ObjectStore}), {@link dev.lake.engine.StorageOptions} (asked at every Lance call; for S3
 * {@link dev.lake.engine.S3StorageOptions} resolves current credentials) and the
 * {@link dev.lake.engine.EngineException} hierarchy;
 * {@link dev.lake.engine.LanceTableEngine} implements it with the Lance Java SDK (package-private helpers: staging,
 * commits, compaction, cleanup, data files, version history and the neutrality check, error translation, handle
 * counting).
 */
package dev.lake.engine;
