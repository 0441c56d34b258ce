/**
 * The value syntax of the configuration ({@link dev.lake.flight.values.ConfigValues}: durations, sizes), shared by
 * {@code dev.lake.flight.config} and every package's settings without a cycle between them.
 */
package dev.lake.flight.values;
