package dev.lake.query.spill;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One spill file: written once through {@link #output} (bytes charged to the spill budgets as they are written),
 * then read back any number of times through {@link #input}, deleted by {@link #delete} or with its space.
 * One writer at a time (callers synchronize).
 */
public final class SpillFile {
  private static final int BUFFER = 1 << 16;

  private final SpillSpace space;
  private final Path path;
  private DataOutputStream out;
  private OutputStream raw;
  private long bytes;
  private boolean deleted;

  SpillFile(SpillSpace space, Path path) {
    this.space = space;
    this.path = path;
  }

  /** The stream to write to (opened on first call; {@link #finish} closes it). */
  public synchronized DataOutputStream output() {
    if (deleted) {
      throw new IllegalStateException("the spill file " + path + " was deleted (its query ended)");
    }
    if (out == null) {
      try {
        raw = Files.newOutputStream(path);
        out = new DataOutputStream(new BufferedOutputStream(new Charged(raw), BUFFER));
      } catch (IOException e) {
        throw new UncheckedIOException("opening the spill file " + path + " failed: " + e.getMessage(), e);
      }
    }
    return out;
  }

  /** Ends writing: what was written is on disk. */
  public void finish() {
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        throw new UncheckedIOException("writing the spill file " + path + " failed: " + e.getMessage(), e);
      } finally {
        out = null;
        raw = null;
      }
    }
  }

  /** Whether anything was written. */
  public boolean isEmpty() {
    return bytes == 0 && (out == null || out.size() == 0);
  }

  /** Reads the file from its start (after {@link #finish}); the caller closes the stream. */
  public DataInputStream input() {
    try {
      return new DataInputStream(new BufferedInputStream(Files.newInputStream(path), BUFFER));
    } catch (IOException e) {
      throw new UncheckedIOException("reading the spill file " + path + " failed: " + e.getMessage(), e);
    }
  }

  /** Removes the file; its bytes go back to the budgets. Idempotent. */
  public synchronized void delete() {
    if (deleted) {
      return;
    }
    deleted = true;
    try {
      if (raw != null) {
        // the file itself, not the buffer in front of it: what was not written yet is dropped, not charged
        raw.close();
      }
    } catch (IOException ignored) {
      // being deleted
    }
    out = null;
    raw = null;
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("deleting the spill file " + path + " failed: " + e.getMessage(), e);
    } finally {
      space.released(this, bytes);
    }
  }

  /** Counts and charges bytes on their way to the file. */
  private final class Charged extends FilterOutputStream {
    Charged(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      space.charge(1);
      bytes++;
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      space.charge(len);
      bytes += len;
      out.write(b, off, len);
    }
  }
}
