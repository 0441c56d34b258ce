package dev.lake.registry.error;

/**
 * A client-visible failure with an explicit status, for the cases that need no type of their own. Prefer a named
 * subclass (or a layer's own exception implementing {@link CodedFailure}) where callers branch on the failure.
 */
public class LakeException extends RuntimeException implements CodedFailure {
  private final ErrorCode code;

  public LakeException(ErrorCode code, String message) {
    this(code, message, null);
  }

  public LakeException(ErrorCode code, String message, Throwable cause) {
    super(message, cause);
    this.code = java.util.Objects.requireNonNull(code, "code");
  }

  @Override
  public ErrorCode errorCode() {
    return code;
  }
}
