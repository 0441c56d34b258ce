package dev.lake.engine;

import java.util.List;
import java.util.Optional;
import org.lance.Dataset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check after every data commit (docs/design.md invariant 2): every version strictly between the read version and
 * the version just committed must be data-neutral, else a foreign data commit slipped in and the new version must
 * not be registered.
 */
final class NeutralityCheck {
  private static final Logger LOG = LoggerFactory.getLogger(NeutralityCheck.class);

  private final VersionHistory history;

  NeutralityCheck(VersionHistory history) {
    this.history = history;
  }

  /**
   * Throws unless every version in ({@code readVersion}, {@code committed}) is data-neutral.
   *
   * @param result the dataset handle at {@code committed} (any version of the dataset would do)
   * @throws ForeignCommitException when one of them changed data
   * @throws StorageException when the versions in between could not be read
   */
  void check(LanceLocation at, long readVersion, long committed, Dataset result) {
    List<VersionOperation> between;
    try {
      between = history.operations(result, readVersion + 1, committed - 1);
    } catch (Exception e) {
      throw new StorageException("version " + committed + " was committed at " + at.location() + " on read version "
          + readVersion + ", but the versions in between could not be read (" + LanceErrors.detail(e) + "); do not "
          + "register version " + committed + ": restore the registered version and retry", e);
    }
    Optional<VersionOperation> foreign = between.stream().filter(v -> !v.dataNeutral()).findFirst();
    if (foreign.isPresent()) {
      LOG.warn("foreign data commit location={} readVersion={} committedVersion={} foreignVersion={} "
          + "foreignOperation={}", at, readVersion, committed, foreign.get().version(), foreign.get().operation());
      throw new ForeignCommitException(at.location(), readVersion, committed, foreign.get().version(),
          foreign.get().operation());
    }
  }
}
