package dev.lake.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import org.apache.arrow.memory.OutOfMemoryException;

/**
 * The one place where Lance's exceptions become {@link EngineException}s. Lance Java throws no types of its own:
 * {@link IllegalArgumentException} for a missing dataset or version, an existing dataset, a bad filter or SQL and a
 * closed handle; plain {@link RuntimeException} for commit conflicts and most write errors; {@link IOException} for
 * storage failures (mid-stream as {@code IOException: CDataJniException}). The classification reads their messages,
 * so it is pinned by tests against real Lance.
 */
final class LanceErrors {
  private static final int MAX_DETAIL = 600;

  /** What bad caller input means where the failure happened. */
  enum Input {
    /** a filter, column list or SQL text: {@link InvalidExpressionException} */
    EXPRESSION,
    /** rows or a schema being written: {@link IncompatibleDataException} */
    DATA,
    /** nothing the caller supplied can be at fault */
    NONE
  }

  private LanceErrors() {}

  /**
   * Translates {@code failure}, raised while doing {@code action} at {@code location}, into an engine exception
   * whose message says what happened and what to do.
   */
  static EngineException translate(String action, LanceLocation location, Throwable failure, Input input) {
    if (failure instanceof EngineException engine) {
      return engine;
    }
    String detail = detail(failure);
    String lower = detail.toLowerCase(Locale.ROOT);
    String what = action + " at " + location.location() + " failed: " + detail;
    if (outOfMemory(failure)) {
      // the caller's allocator limit (a query's memory limit), not its input: the cause stays for the status mapping
      return new EngineException(what + ". The request's memory limit was reached", failure);
    }
    if (lower.contains("incompatible transaction") || lower.contains("commit conflict")
        || lower.contains("retryable")) {
      return new CommitConflictException(what + ". A newer version that cannot be rebased over was committed after "
          + "the read version; nothing was committed. Read the latest version, restore the registered one if "
          + "needed, and commit again on the new read version (the staged data stays usable)", failure);
    }
    boolean notFound = lower.contains("not found") || lower.contains("no such file");
    if (failure instanceof IOException || failure instanceof UncheckedIOException) {
      if (notFound) {
        return notFound(what, failure);
      }
      return new StorageException(what + ". The storage under the table failed; retrying may succeed", failure);
    }
    if (failure instanceof IllegalArgumentException) {
      if (notFound && !lower.contains("schema error") && !lower.contains("no field named")) {
        return notFound(what, failure);
      }
      if (lower.contains("is closed")) {
        return new EngineException(what + ". The handle was already closed; this is a bug in the caller", failure);
      }
    }
    if (input == Input.EXPRESSION && (failure instanceof IllegalArgumentException || lower.contains("sql")
        || lower.contains("schema error") || lower.contains("invalid user input"))) {
      return new InvalidExpressionException(what + ". Fix the filter, column list or SQL text", failure);
    }
    if (input == Input.DATA && (failure instanceof IllegalArgumentException || mentionsBadData(lower))) {
      return new IncompatibleDataException(what + ". Make the data's schema and types fit the table", failure);
    }
    if (notFound) {
      return notFound(what, failure);
    }
    return new EngineException(what, failure);
  }

  private static boolean outOfMemory(Throwable failure) {
    for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof OutOfMemoryException) {
        return true;
      }
    }
    return false;
  }

  private static boolean mentionsBadData(String lower) {
    return lower.contains("invalid argument") || lower.contains("invalid user input") || lower.contains("schema")
        || lower.contains("type") || lower.contains("unsupported") || lower.contains("not supported")
        || lower.contains("nullable");
  }

  private static DatasetNotFoundException notFound(String what, Throwable failure) {
    return new DatasetNotFoundException(what + ". No dataset (or no such version) is there: check the location "
        + "and version; a dropped table, a cleaned-up version or a never-committed version cannot be read",
        failure);
  }

  /** Lance's message without the Rust source locations and backtrace lines it appends. */
  static String detail(Throwable failure) {
    String message = failure.getMessage();
    if (message == null || message.isBlank()) {
      return failure.getClass().getSimpleName();
    }
    String text = message.strip();
    int newline = text.indexOf('\n');
    if (newline > 0) {
      text = text.substring(0, newline);
    }
    int rustLocation = text.indexOf(", /workspace/");
    if (rustLocation > 0) {
      text = text.substring(0, rustLocation);
    }
    if (text.length() > MAX_DETAIL) {
      text = text.substring(0, MAX_DETAIL) + "...";
    }
    return text;
  }
}
