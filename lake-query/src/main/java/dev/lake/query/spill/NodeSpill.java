package dev.lake.query.spill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node's spill disk: the root under which every execution's {@link SpillSpace} makes its directory, the bytes all
 * of them hold at once (bounded by {@code query.node-spill-limit}), each execution's budget
 * ({@code query.spill-limit}), and counters of what was spilled since start (bytes, files, spilling executions).
 * Thread-safe; one per query service.
 */
public final class NodeSpill {
  private final Path root;
  private final long queryLimit;
  private final long nodeLimit;
  private final AtomicLong held = new AtomicLong();
  private final AtomicLong spaces = new AtomicLong();
  private final AtomicLong bytesSpilled = new AtomicLong();
  private final AtomicLong filesSpilled = new AtomicLong();
  private final AtomicLong spillingQueries = new AtomicLong();

  /**
   * @param root the directory spill directories go under (created on first spill)
   * @param queryLimit the most bytes one execution may have on disk at once; {@code nodeLimit} all of them
   */
  public NodeSpill(Path root, long queryLimit, long nodeLimit) {
    this.root = root.toAbsolutePath().normalize();
    if (queryLimit < 0 || nodeLimit < 0) {
      throw new IllegalArgumentException("spill limits must not be negative: query.spill-limit=" + queryLimit
          + " query.node-spill-limit=" + nodeLimit);
    }
    this.queryLimit = queryLimit;
    this.nodeLimit = nodeLimit;
  }

  /** Spilling off: every operator keeps to memory (a spill attempt fails with the spill budget's error). */
  public static NodeSpill disabled(Path root) {
    return new NodeSpill(root, 0, 0);
  }

  /** Whether an execution may spill at all (both budgets above zero). */
  public boolean enabled() {
    return queryLimit > 0 && nodeLimit > 0;
  }

  /** A new execution's spill space; nothing is created on disk until an operator spills. */
  public SpillSpace open(String name) {
    return new SpillSpace(this, root.resolve(safe(name) + "-" + spaces.incrementAndGet()), queryLimit);
  }

  private static String safe(String name) {
    String cleaned = name.replaceAll("[^A-Za-z0-9_.-]", "_");
    return cleaned.length() > 40 ? cleaned.substring(0, 40) : cleaned;
  }

  Path root() {
    return root;
  }

  /** Takes {@code bytes} of the node's budget; false (nothing taken) when the node's limit would be passed. */
  boolean take(long bytes) {
    while (true) {
      long now = held.get();
      if (now + bytes > nodeLimit) {
        return false;
      }
      if (held.compareAndSet(now, now + bytes)) {
        bytesSpilled.addAndGet(bytes);
        return true;
      }
    }
  }

  void give(long bytes) {
    held.addAndGet(-bytes);
  }

  void fileCreated(boolean firstOfQuery) {
    filesSpilled.incrementAndGet();
    if (firstOfQuery) {
      spillingQueries.incrementAndGet();
    }
  }

  long nodeLimit() {
    return nodeLimit;
  }

  /** What was spilled since this node started, and what is on disk now. */
  public Stats stats() {
    return new Stats(bytesSpilled.get(), filesSpilled.get(), spillingQueries.get(), held.get());
  }

  /**
   * @param bytes bytes written to spill files since start; {@code files} files created
   * @param queries executions that spilled at least once
   * @param heldBytes bytes on disk now (spill files not deleted yet)
   */
  public record Stats(long bytes, long files, long queries, long heldBytes) {}

  /** Deletes what a crashed earlier run left under the root (called at start-up, before any query runs). */
  public void clean() {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (var stream = Files.list(root)) {
      for (Path leftover : (Iterable<Path>) stream::iterator) {
        SpillSpace.deleteTree(leftover);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cleaning the spill directory " + root + " failed: " + e.getMessage(), e);
    }
  }
}
