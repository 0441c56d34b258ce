package dev.lake.flight.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of an ingest: rows and bytes sent, rate and ETA (when the total row count is known). On a terminal it
 * redraws one bar line ({@code \r}) at most every 200 ms; otherwise it prints a plain line at most every
 * {@code interval} and after each file's last batch, so a log shows steady progress. Time comes from the injected
 * monotonic {@code ticker} (nanoseconds).
 */
public final class Progress {
  private static final long REDRAW_NANOS = Duration.ofMillis(200).toNanos();
  private static final int BAR_WIDTH = 30;
  private final PrintWriter out;
  private final boolean terminal;
  private final long intervalNanos;
  private final LongSupplier ticker;
  private final long totalRows;
  private final long start;
  private long rows;
  private long bytes;
  private long lastPrint;
  private SourceFile file;
  private boolean printedSinceFile;
  private long printedRows = -1;

  /** {@code totalRows} is -1 when unknown (then no percentage and no ETA). */
  public Progress(PrintWriter out, boolean terminal, Duration interval, LongSupplier ticker, long totalRows) {
    this.out = out;
    this.terminal = terminal;
    this.intervalNanos = terminal ? REDRAW_NANOS : interval.toNanos();
    this.ticker = ticker;
    this.totalRows = totalRows;
    this.start = ticker.getAsLong();
    this.lastPrint = start;
  }

  /** A new file starts. */
  void file(SourceFile next) {
    finishFile();
    this.file = next;
    this.printedSinceFile = false;
    if (!terminal) {
      out.printf(Locale.ROOT, "reading %s (%s, %s)%n", next.path().getFileName(),
          next.format().name().toLowerCase(Locale.ROOT), bytes(next.size()));
      out.flush();
    }
  }

  /** One batch was read and is being sent. */
  void batch(int batchRows, long batchBytes) {
    rows += batchRows;
    bytes += batchBytes;
    long now = ticker.getAsLong();
    if (now - lastPrint >= intervalNanos) {
      print(now);
    }
  }

  /** The server acknowledged the ingest: prints the final line. */
  public void done(String table, long acknowledgedRows) {
    long now = ticker.getAsLong();
    if (rows != printedRows) {
      print(now);
    }
    if (terminal) {
      out.println();
    }
    double seconds = Math.max(1e-9, (now - start) / 1e9);
    out.printf(Locale.ROOT, "ingested %,d rows (%s) into %s in %.1f s (%,.0f rows/s)%n", acknowledgedRows,
        bytes(bytes), table, seconds, acknowledgedRows / seconds);
    out.flush();
  }

  /** The ingest failed: ends a terminal bar line so the error starts on its own line. */
  public void failed() {
    if (terminal) {
      out.println();
      out.flush();
    }
  }

  long rows() {
    return rows;
  }

  private void finishFile() {
    if (!terminal && file != null && !printedSinceFile) {
      print(ticker.getAsLong());
    }
  }

  private void print(long now) {
    lastPrint = now;
    printedSinceFile = true;
    printedRows = rows;
    String line = line(now);
    if (terminal) {
      out.print("\r" + line + "   ");
    } else {
      out.println(line);
    }
    out.flush();
  }

  /** The progress text at {@code now}: rows (of total), bytes, rate and ETA. */
  String line(long now) {
    double seconds = Math.max(1e-9, (now - start) / 1e9);
    double rate = rows / seconds;
    StringBuilder s = new StringBuilder();
    if (totalRows >= 0) {
      double fraction = totalRows == 0 ? 1.0 : Math.min(1.0, (double) rows / totalRows);
      if (terminal) {
        int filled = (int) Math.round(fraction * BAR_WIDTH);
        s.append('[').append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append("] ");
      }
      s.append(String.format(Locale.ROOT, "%5.1f%% %,d/%,d rows", fraction * 100, rows, totalRows));
    } else {
      s.append(String.format(Locale.ROOT, "%,d rows", rows));
    }
    s.append(String.format(Locale.ROOT, "  %s  %,.0f rows/s  %s/s", bytes(bytes), rate, bytes((long) (bytes / seconds))));
    if (totalRows >= 0) {
      s.append("  ETA ").append(rate > 0 ? duration((long) (Math.max(0, totalRows - rows) / rate)) : "?");
    }
    return s.toString();
  }

  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  static String duration(long seconds) {
    return seconds >= 3600
        ? String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        : String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
  }
}
