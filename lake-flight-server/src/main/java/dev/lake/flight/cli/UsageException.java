package dev.lake.flight.cli;

/** The command line asked for something impossible (a bad URL, an unknown file type): exit code 2. */
public final class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message);
  }
}
