/**
 * {@code lake server --demo}: the TPC-H tables at a small scale factor, generated in process (io.trino.tpch) and
 * loaded through the node's own write coordinator, so a new user can query at once.
 */
package dev.lake.flight.demo;
