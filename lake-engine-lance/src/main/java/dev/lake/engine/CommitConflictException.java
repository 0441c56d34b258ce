package dev.lake.engine;

import dev.lake.registry.error.ErrorCode;

/**
 * Lance rejected a commit because a newer version it cannot rebase over (a Restore, an Overwrite, a conflicting
 * rewrite) was committed after the read version. Nothing was committed; the staged data stays usable. Read the
 * latest version, restore the registered one if needed, and commit again on the new read version.
 */
public class CommitConflictException extends EngineException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.ABORTED;
  }

  public CommitConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
