package dev.lake.flight.auth;

import java.util.Objects;

/** A configured user: name, salted password hash, role. */
public record User(String name, String passwordHash, Role role) {
  public User {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(passwordHash, "passwordHash");
    Objects.requireNonNull(role, "role");
  }
}
