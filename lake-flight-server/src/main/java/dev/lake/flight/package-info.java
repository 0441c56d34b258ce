/**
 * The Flight SQL front door: a thin producer that translates Flight SQL commands into calls on the query and
 * metasrv services, maps every failure to a status code in one place ({@link dev.lake.flight.grpc.StatusMapper}),
 * and wires the server (config, main class).
 */
package dev.lake.flight;
