package dev.lake.flight.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.arrow.dataset.file.FileFormat;

/** One input file of {@code lake ingest} and the format its name (or {@code --format}) says it holds. */
public record SourceFile(Path path, FileFormat format, long size) {
  public SourceFile {
    if (format != FileFormat.PARQUET && format != FileFormat.CSV && format != FileFormat.ARROW_IPC) {
      throw new UsageException("unsupported format " + format + " for " + path);
    }
  }

  /** Checks the file exists and picks its format: {@code forced} if given, else from the extension. */
  public static SourceFile of(Path path, String forced) {
    Path file = path.toAbsolutePath().normalize();
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new UsageException("cannot read " + path + ": no such readable file");
    }
    String kind = forced != null ? forced : extension(file);
    FileFormat format = switch (kind.toLowerCase(Locale.ROOT)) {
      case "parquet", "pq" -> FileFormat.PARQUET;
      case "csv" -> FileFormat.CSV;
      case "arrow", "ipc", "feather", "arrows" -> FileFormat.ARROW_IPC;
      default -> throw new UsageException("cannot tell the format of " + path + " from its name: use .parquet, "
          + ".csv or .arrow/.ipc/.feather, or --format parquet|csv|arrow");
    };
    try {
      return new SourceFile(file, format, Files.size(file));
    } catch (java.io.IOException e) {
      throw new UsageException("cannot read " + path + ": " + e.getMessage());
    }
  }

  /** The {@code file://} URI Arrow's dataset reader opens. */
  public String uri() {
    return path.toUri().toString();
  }

  private static String extension(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(dot + 1);
  }
}
