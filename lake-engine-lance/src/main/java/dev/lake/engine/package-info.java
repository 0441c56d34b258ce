/**
 * The table engine over Lance: writes uncommitted data files, commits them (create, append, overwrite,
 * restore, compaction) on an explicit read version, opens an exact version, drops an incarnation.
 *
 * <p>Knows nothing of the registry's protocol: it returns the versions it creates and reports commits that slipped
 * in between; the metasrv decides what to register. Imports lake-registry value types only.
 */
package dev.lake.engine;
