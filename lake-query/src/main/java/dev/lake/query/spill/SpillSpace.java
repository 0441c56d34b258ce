package dev.lake.query.spill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One execution's spill directory: created when the first {@link SpillFile} is, removed with all its files when the
 * execution closes (whether it finished, failed or was cancelled). Bytes written are charged to the execution's spill
 * budget and the node's ({@link NodeSpill}) as they are written; past either the write fails with a
 * {@link SpillLimitException} naming the key. Thread-safe: an execution's workers spill at once.
 */
public final class SpillSpace implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SpillSpace.class);

  private final NodeSpill node;
  private final Path dir;
  private final long limit;
  private final List<SpillFile> files = new ArrayList<>();
  private long held;
  private long written;
  private int created;
  private boolean closed;

  SpillSpace(NodeSpill node, Path dir, long limit) {
    this.node = node;
    this.dir = dir;
    this.limit = limit;
  }

  /** Whether operators of this execution may spill (the budgets are above zero). */
  public boolean enabled() {
    return node.enabled();
  }

  /** A new empty file in this execution's directory (the directory is made on first use). */
  public synchronized SpillFile create(String what) {
    if (closed) {
      throw new IllegalStateException("the query's spill space is closed (the query ended)");
    }
    if (!enabled()) {
      throw new SpillLimitException("the query's " + what + " does not fit its memory limit (query.memory-limit)"
          + " and spilling to disk is off (query.spill-limit is 0); raise either limit");
    }
    try {
      Files.createDirectories(dir);
      Path path = dir.resolve(what.replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + created + ".spill");
      SpillFile file = new SpillFile(this, Files.createFile(path));
      files.add(file);
      node.fileCreated(created == 0);
      created++;
      if (created == 1) {
        LOG.info("query spills to disk dir={} what={}", dir, what);
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("creating a spill file under " + dir + " failed: " + e.getMessage()
          + " (query.spill-dir)", e);
    }
  }

  /** Charges {@code bytes} about to be written; refused past this execution's or the node's spill budget. */
  synchronized void charge(long bytes) {
    if (closed) {
      throw new IllegalStateException("the query's spill space is closed (the query ended)");
    }
    if (held + bytes > limit) {
      throw new SpillLimitException("the query needs more than " + mb(held + bytes) + " of spill disk beyond its"
          + " memory limit (query.memory-limit), more than its spill budget (query.spill-limit) allows; add"
          + " filters or raise the limits");
    }
    if (!node.take(bytes)) {
      throw new SpillLimitException("the query needs more spill disk than this node has left for spilling queries"
          + " (query.node-spill-limit, " + mb(node.nodeLimit()) + "); run it when the node is less busy or raise"
          + " the limit");
    }
    held += bytes;
    written += bytes;
  }

  /** A file was deleted: its bytes go back to the budgets. */
  synchronized void released(SpillFile file, long bytes) {
    if (files.remove(file)) {
      held -= bytes;
      node.give(bytes);
    }
  }

  /** Bytes written to this execution's spill files so far (deleted ones included). */
  public synchronized long bytesWritten() {
    return written;
  }

  /** Files this execution created so far. */
  public synchronized int filesCreated() {
    return created;
  }

  /** Deletes every file and the directory; the budgets get their bytes back. Idempotent. */
  @Override
  public void close() {
    List<SpillFile> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = new ArrayList<>(files);
    }
    for (SpillFile file : open) {
      try {
        file.delete();
      } catch (RuntimeException e) {
        LOG.warn("removing a spill file failed dir={} error={}", dir, e.toString());
      }
    }
    if (created > 0) {
      try {
        deleteTree(dir);
      } catch (IOException e) {
        LOG.warn("removing the spill directory failed dir={} error={}", dir, e.toString());
      }
    }
  }

  static void deleteTree(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    if (Files.isDirectory(path)) {
      try (var children = Files.list(path)) {
        for (Path child : (Iterable<Path>) children::iterator) {
          deleteTree(child);
        }
      }
    }
    Files.deleteIfExists(path);
  }

  private static String mb(long bytes) {
    return (bytes >> 20) + " MB";
  }
}
