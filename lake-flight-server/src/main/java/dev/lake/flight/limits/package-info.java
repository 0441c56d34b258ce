/**
 * Per-query limits on the read path: a timeout and a server-wide admission control (a number of running queries
 * and a bounded queue), both running from DoGet's start to the last batch, and the per-node registry of running
 * queries that {@code CancelFlightInfo} stops. Time is a monotonic ticker, injected.
 */
package dev.lake.flight.limits;
