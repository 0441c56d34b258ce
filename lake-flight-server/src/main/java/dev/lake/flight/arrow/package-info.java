/**
 * Arrow helpers used by both sides of the wire, the server's ingest and the client commands
 * ({@link dev.lake.flight.arrow.DictionaryColumns}). Imports no server-side package, so the CLI may use it.
 */
package dev.lake.flight.arrow;
