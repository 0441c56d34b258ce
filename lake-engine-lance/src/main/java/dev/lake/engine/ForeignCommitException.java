package dev.lake.engine;

/**
 * A data-changing commit slipped in between the read version and the version just committed; the new version
 * must not be registered.
 */
public class ForeignCommitException extends EngineException {
  private final long readVersion;
  private final long committedVersion;
  private final long foreignVersion;

  public ForeignCommitException(String location, long readVersion, long committedVersion, long foreignVersion) {
    super("a foreign data commit (version " + foreignVersion + ") slipped in between read version "
        + readVersion + " and committed version " + committedVersion + " at " + location, null);
    this.readVersion = readVersion;
    this.committedVersion = committedVersion;
    this.foreignVersion = foreignVersion;
  }

  public long readVersion() {
    return readVersion;
  }

  public long committedVersion() {
    return committedVersion;
  }

  public long foreignVersion() {
    return foreignVersion;
  }
}
