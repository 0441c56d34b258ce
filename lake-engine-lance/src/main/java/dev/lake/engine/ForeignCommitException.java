package dev.lake.engine;

import dev.lake.registry.error.ErrorCode;

/**
 * A data-changing commit slipped in between the read version and the version just committed; the new version
 * must not be registered. The caller restores the registered version and retries, or answers ABORTED.
 */
public class ForeignCommitException extends EngineException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.ABORTED;
  }

  private final long readVersion;
  private final long committedVersion;
  private final long foreignVersion;
  private final String foreignOperation;

  public ForeignCommitException(String location, long readVersion, long committedVersion, long foreignVersion) {
    this(location, readVersion, committedVersion, foreignVersion, "unknown");
  }

  /**
   * @param foreignOperation the Lance operation of {@code foreignVersion} (Append, Overwrite, Restore, ...)
   */
  public ForeignCommitException(
      String location, long readVersion, long committedVersion, long foreignVersion, String foreignOperation) {
    super("a foreign data commit (version " + foreignVersion + ", operation " + foreignOperation
        + ") slipped in between read version " + readVersion + " and committed version " + committedVersion
        + " at " + location + "; do not register version " + committedVersion
        + ": restore the registered version and retry", null);
    this.readVersion = readVersion;
    this.committedVersion = committedVersion;
    this.foreignVersion = foreignVersion;
    this.foreignOperation = foreignOperation;
  }

  public long readVersion() {
    return readVersion;
  }

  public long committedVersion() {
    return committedVersion;
  }

  /** The first data-changing version found in (readVersion, committedVersion). */
  public long foreignVersion() {
    return foreignVersion;
  }

  /** The Lance operation name of {@link #foreignVersion()}. */
  public String foreignOperation() {
    return foreignOperation;
  }
}
