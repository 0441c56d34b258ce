package dev.lake.registry.support;

import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;

/**
 * Argument checks every backend applies before it writes, so that both backends reject the same programming
 * errors with the same {@link IllegalArgumentException} (these are bugs in the caller, not registry states).
 */
public final class MutationArguments {
  private MutationArguments() {}

  /** A generation is a path segment of the table's location: non-blank, no '/', '\\' or NUL. */
  public static String generation(String generation) {
    Objects.requireNonNull(generation, "generation");
    if (generation.isBlank() || generation.indexOf('/') >= 0 || generation.indexOf('\\') >= 0
        || generation.indexOf('\0') >= 0 || generation.length() > 128) {
      throw new IllegalArgumentException("generation '" + generation
          + "' is not a path segment: use a fresh random id such as a UUID");
    }
    return generation;
  }

  public static void create(TableRegistration registration, Optional<IdempotencyRecord> key) {
    Objects.requireNonNull(registration, "registration");
    Objects.requireNonNull(key, "key");
    generation(registration.generation());
    key.ifPresent(k -> keyMatches(k, registration));
  }

  public static void commit(TableRegistration expected, TableRegistration next, Optional<IdempotencyRecord> key) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(next, "next");
    Objects.requireNonNull(key, "key");
    generation(next.generation());
    if (!expected.name().equals(next.name()) || !expected.generation().equals(next.generation())) {
      throw new IllegalArgumentException("commit must keep the incarnation: expected " + expected.name() + "/"
          + expected.generation() + " but next is " + next.name() + "/" + next.generation()
          + "; a new generation is a drop followed by a create");
    }
    if (!expected.location().equals(next.location())) {
      throw new IllegalArgumentException("commit must keep the location of generation " + next.generation()
          + ": expected " + expected.location() + " but next is " + next.location());
    }
    if (next.version() <= expected.version()) {
      throw new IllegalArgumentException("commit must register a higher version: expected version "
          + expected.version() + ", next version " + next.version());
    }
    key.ifPresent(k -> keyMatches(k, next));
  }

  public static void drop(TableRegistration expected, Tombstone tombstone) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(tombstone, "tombstone");
    if (!expected.name().equals(tombstone.name()) || !expected.generation().equals(tombstone.generation())
        || !expected.location().equals(tombstone.location())) {
      throw new IllegalArgumentException("the tombstone must name the dropped incarnation " + expected.name()
          + "/" + expected.generation() + " at " + expected.location() + ", not " + tombstone.name() + "/"
          + tombstone.generation() + " at " + tombstone.location());
    }
  }

  /**
   * Lease terms never go back, and a change of holder always takes a higher term (so a fence of the old holder
   * can never match again).
   */
  public static void lease(Optional<LeaderLease> expected, LeaderLease next) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(next, "next");
    expected.ifPresent(old -> {
      if (next.term() < old.term()) {
        throw new IllegalArgumentException("lease term must not go back: from " + old.term() + " to " + next.term());
      }
      if (!next.holderId().equals(old.holderId()) && next.term() == old.term()) {
        throw new IllegalArgumentException("a new holder ('" + next.holderId() + "' after '" + old.holderId()
            + "') must take a higher term than " + old.term());
      }
    });
  }

  /** Checks a retention batch and returns the normalized table name. */
  public static String retention(String name, String generation, Collection<?> items) {
    Objects.requireNonNull(items, "items");
    generation(generation);
    for (Object item : items) Objects.requireNonNull(item, "an item of the batch is null");
    return TableNames.normalize(name);
  }

  public static void limit(int limit) {
    if (limit < 1) throw new IllegalArgumentException("page limit must be >= 1, was " + limit);
  }

  private static void keyMatches(IdempotencyRecord key, TableRegistration registration) {
    if (!key.table().equals(registration.name()) || !key.generation().equals(registration.generation())
        || key.version() != registration.version()) {
      throw new IllegalArgumentException("idempotency record " + key.table() + "/" + key.generation() + " v"
          + key.version() + " does not describe the registration it is written with: " + registration.name()
          + "/" + registration.generation() + " v" + registration.version());
    }
  }
}
