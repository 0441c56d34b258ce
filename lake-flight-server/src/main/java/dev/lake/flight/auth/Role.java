package dev.lake.flight.auth;

import java.util.Locale;

/** What a user may do: readers query, writers also ingest, admins also drop and maintain. */
public enum Role {
  READER, WRITER, ADMIN;

  public boolean allows(Role needed) {
    return compareTo(needed) >= 0;
  }

  public static Role parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException("unknown role '" + text + "': use reader, writer or admin");
    }
  }
}
