package dev.lake.flight.streams;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts each user's open DoPut streams on this node against {@code ingest.max-streams-per-user}, so one client cannot
 * park the node's threads on streams it never finishes. Thread-safe.
 */
public final class OpenStreams {
  private final int maxPerUser;
  private final ConcurrentHashMap<String, AtomicInteger> open = new ConcurrentHashMap<>();

  public OpenStreams(int maxPerUser) {
    this.maxPerUser = maxPerUser;
  }

  /** Counts one more stream of {@code user}; RESOURCE_EXHAUSTED when the user already has the maximum open. */
  public Permit open(String user) {
    AtomicInteger count = open.computeIfAbsent(user, u -> new AtomicInteger());
    if (count.incrementAndGet() > maxPerUser) {
      count.decrementAndGet();
      throw new LakeException(ErrorCode.RESOURCE_EXHAUSTED, "user '" + user + "' already has " + maxPerUser
          + " streams open on this node (ingest.max-streams-per-user): finish or cancel one, then retry");
    }
    return () -> count.decrementAndGet();
  }

  /** How many streams {@code user} has open. */
  public int count(String user) {
    AtomicInteger count = open.get(user);
    return count == null ? 0 : count.get();
  }

  /** One counted stream; closing it gives the slot back. */
  @FunctionalInterface
  public interface Permit extends AutoCloseable {
    @Override
    void close();
  }
}
