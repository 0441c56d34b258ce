package dev.lake.query.exec;

import dev.lake.engine.DatasetNotFoundException;
import dev.lake.query.sql.Echo;
import org.apache.arrow.memory.OutOfMemoryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When a pushed-down statement's failure before its first row means "Lance cannot run this statement" (then Calcite
 * runs the subtree instead) and when the query must report it: a missing dataset or version, a memory limit and a
 * cancelled query are reported at once; anything else falls back — planning errors, unsupported constructs, an answer
 * lake cannot read, and errors computing the first batch (Lance reports those, e.g. a division by zero, as I/O
 * errors of the stream, so they cannot be told from storage failures: Calcite then reads again and reports what it
 * meets, in Calcite's terms).
 */
final class LanceSqlFailures {
  private static final Logger LOG = LoggerFactory.getLogger(LanceSqlFailures.class);

  private LanceSqlFailures() {}

  static boolean fallsBack(Throwable failure) {
    return failure instanceof Exception && !(failure instanceof DatasetNotFoundException)
        && !(failure instanceof OutOfMemoryException);
  }

  static void logFallback(String sql, Throwable failure, PushdownCounters counters) {
    counters.fellBack();
    LOG.warn("lance sql rejected; calcite runs the subtree instead sql={} error={}", Echo.of(sql),
        Echo.of(String.valueOf(failure.getMessage())));
  }
}
