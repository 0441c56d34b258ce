/**
 * The client commands of {@code bin/lake} ({@code ingest}, {@code tables}, {@code describe}, {@code drop},
 * {@code maintain}, {@code status}): each talks to a server over Flight SQL like any other client, with the
 * connection options of {@link dev.lake.flight.cli.ConnectionOptions}. User output goes to stdout, errors to stderr
 * as one line; exit codes are {@link dev.lake.flight.cli.CliErrors}'s (0 ok, 1 the server or the input failed,
 * 2 usage).
 */
package dev.lake.flight.cli;
