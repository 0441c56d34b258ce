/**
 * Heavy results (API tier 2): PollFlightInfo runs a query in the background and spools its result as Arrow IPC
 * stream objects under {@code results.prefix}, with the job's poll state beside them (so any node answers a poll);
 * the final FlightInfo lists presigned URLs (S3) followed by a gRPC fallback; expired results are swept.
 */
package dev.lake.flight.spool;
