/**
 * The read path: the catalog of registrations ({@link dev.lake.query.CachingCatalog}, the cache shield of
 * docs/design.md invariant 6, with read-your-writes), time travel through the registry's history, the read-only SQL
 * surface, Calcite planning with a plan cache, execution, and Arrow result streams. Never takes a write lock; imports
 * lake-registry and lake-engine-lance only.
 */
package dev.lake.query;
