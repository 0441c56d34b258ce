package dev.lake.query.exec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The distinct-value sketches {@link DistinctValueEstimates} made, kept in a file so that a restarted node does not
 * scan its tables for statistics again ({@code <data.dir>/statistics/distinct-values.txt}). A sketch is kept with
 * what it was computed over: the table location, the columns, the version and the digests of that version's
 * fragment keys ({@code TableSnapshot.fragmentKey}: data files and deletion state, which never change) and its rows;
 * an estimate of -1 means Lance's SQL engine refused to sketch those columns. A snapshot whose fragments are exactly
 * those reads the same rows, so the kept estimate is the one a new sketch would give; any other snapshot is judged by
 * {@link DistinctValueEstimates}'s reuse rule or sketched again — a kept estimate is never applied to data it was not
 * computed over. One line per sketch, appended; the last line for a (location, columns) wins; a line that cannot be
 * read (a torn write) is skipped. The file is rewritten with only the live sketches when it holds more than twice as
 * many lines, and holds at most {@link #MAX_SKETCHES} sketches (the oldest dropped). I/O failures are logged, never
 * thrown: statistics only steer plans. Thread-safe.
 */
public final class KeptSketches {
  private static final Logger LOG = LoggerFactory.getLogger(KeptSketches.class);
  /** The most sketches kept (in memory and in the file). */
  static final int MAX_SKETCHES = 10_000;
  private static final String FORMAT = "v1";

  /** Where none are kept: every sketch lives as long as the process. */
  public static final KeptSketches NONE = new KeptSketches(null);

  private final Path file;
  private final Map<TableColumns, Sketch> sketches = new LinkedHashMap<>(16, 0.75f, false);
  private int lines;

  /** The table and the set of columns a sketch estimates. */
  record TableColumns(String location, List<String> columns) {
    TableColumns {
      columns = List.copyOf(columns);
    }
  }

  /**
   * One sketch: the version it was made on, the digests of that version's fragment keys, its rows and the estimate.
   */
  record Sketch(long version, Set<String> fragments, long rows, double estimate) {
    Sketch {
      fragments = Set.copyOf(fragments);
    }
  }

  private KeptSketches(Path file) {
    this.file = file;
  }

  /** The sketches kept in {@code directory} (created if missing); unreadable contents are skipped. */
  public static KeptSketches open(Path directory) {
    KeptSketches kept = new KeptSketches(directory.resolve("distinct-values.txt"));
    try {
      Files.createDirectories(directory);
      kept.load();
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("statistics not read file={} error={} (they are computed again as queries need them)", kept.file,
          e.toString());
    }
    return kept;
  }

  /** The digest a fragment key is kept as. */
  static String digest(String fragmentKey) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(fragmentKey.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The digests of the keys of every fragment {@code snapshot} holds (no I/O beyond its opened manifest). */
  static Set<String> fragmentDigests(dev.lake.engine.TableSnapshot snapshot) {
    Set<String> digests = new java.util.HashSet<>();
    for (int fragment : snapshot.fragmentIds()) {
      digests.add(digest(snapshot.fragmentKey(fragment)));
    }
    return digests;
  }

  synchronized Optional<Sketch> get(TableColumns key) {
    return Optional.ofNullable(sketches.get(key));
  }

  /** Keeps {@code sketch} as the last one of {@code key} (in memory, and appended to the file). */
  synchronized void put(TableColumns key, Sketch sketch) {
    sketches.remove(key);
    sketches.put(key, sketch);
    while (sketches.size() > MAX_SKETCHES) {
      sketches.remove(sketches.keySet().iterator().next());
    }
    if (file == null) {
      return;
    }
    try {
      if (lines + 1 > 2 * Math.max(sketches.size(), 64)) {
        rewrite();
      } else {
        Files.writeString(file, line(key, sketch), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
        lines++;
      }
    } catch (IOException e) {
      LOG.warn("statistics not kept file={} location={} error={}", file, key.location(), e.toString());
    }
  }

  private void load() throws IOException {
    if (!Files.exists(file)) {
      return;
    }
    int read = 0;
    int skipped = 0;
    for (String text : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      read++;
      try {
        parse(text);
      } catch (RuntimeException e) {
        skipped++;
      }
    }
    while (sketches.size() > MAX_SKETCHES) {
      sketches.remove(sketches.keySet().iterator().next());
    }
    lines = read;
    LOG.info("statistics read file={} sketches={} lines={} skipped={}", file, sketches.size(), read, skipped);
  }

  private void parse(String text) {
    String[] fields = text.split(" ", -1);
    if (fields.length != 7 || !fields[0].equals(FORMAT)) {
      throw new IllegalArgumentException("not a " + FORMAT + " line");
    }
    String location = decode(fields[1]);
    List<String> columns = Arrays.stream(fields[2].split(",", -1)).map(KeptSketches::decode).toList();
    long version = Long.parseLong(fields[3]);
    long rows = Long.parseLong(fields[4]);
    double estimate = Double.parseDouble(fields[5]);
    Set<String> fragments = fields[6].isEmpty() ? Set.of() : Set.of(fields[6].split(","));
    if (location.isEmpty() || columns.isEmpty() || version < 0 || rows < 0 || !(estimate >= 0 || estimate == -1)) {
      throw new IllegalArgumentException("out of range");
    }
    TableColumns key = new TableColumns(location, columns);
    sketches.remove(key);
    sketches.put(key, new Sketch(version, fragments, rows, estimate));
  }

  private void rewrite() throws IOException {
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    List<String> out = new ArrayList<>();
    sketches.forEach((key, sketch) -> out.add(line(key, sketch).stripTrailing()));
    Files.write(temporary, out, StandardCharsets.UTF_8);
    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    lines = out.size();
  }

  private static String line(TableColumns key, Sketch sketch) {
    return FORMAT + " " + encode(key.location()) + " "
        + String.join(",", key.columns().stream().map(KeptSketches::encode).toList()) + " " + sketch.version() + " "
        + sketch.rows() + " " + sketch.estimate() + " " + String.join(",", sketch.fragments().stream().sorted()
        .toList()) + "\n";
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}
