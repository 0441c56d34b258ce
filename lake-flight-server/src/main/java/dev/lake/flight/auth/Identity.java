package dev.lake.flight.auth;

import java.util.Objects;

/** The authenticated caller of one RPC. */
public record Identity(String user, Role role) {
  public Identity {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(role, "role");
  }
}
