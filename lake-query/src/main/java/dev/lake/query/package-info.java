/**
 * The read path: the catalog of registrations, the read-only SQL surface, Calcite planning and execution, and
 * Arrow result streams. Never takes a write lock; imports lake-registry and lake-engine-lance only.
 */
package dev.lake.query;
