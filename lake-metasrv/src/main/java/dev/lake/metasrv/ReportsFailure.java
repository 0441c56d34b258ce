package dev.lake.metasrv;

import java.util.Optional;

/**
 * An ingest source that remembers why it stopped. Lance pulls batches from native code and reports a producer's
 * exception only as a generic error; the coordinator asks the source for the real cause (a schema mismatch, a
 * NOT NULL violation, a client that went away) and reports that instead.
 */
public interface ReportsFailure {
  Optional<RuntimeException> failure();
}
