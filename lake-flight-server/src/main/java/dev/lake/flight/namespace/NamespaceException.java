package dev.lake.flight.namespace;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;

/**
 * A failure in the Lance Namespace error model: the spec's numeric code and HTTP status for the REST endpoint, and
 * lake's {@link ErrorCode} for the same failure on Flight ({@code lake.resolve_table}, {@code lake.pin_snapshot}).
 * The message goes to the client and never holds a server path.
 */
public final class NamespaceException extends LakeException {
  /** The spec's error kinds lake answers (codes from the Lance Namespace REST spec's {@code ErrorResponse}). */
  public enum Kind {
    UNSUPPORTED(0, 406, ErrorCode.UNIMPLEMENTED),
    NAMESPACE_NOT_FOUND(1, 404, ErrorCode.NOT_FOUND),
    TABLE_NOT_FOUND(4, 404, ErrorCode.NOT_FOUND),
    TABLE_VERSION_NOT_FOUND(11, 404, ErrorCode.NOT_FOUND),
    INVALID_INPUT(13, 400, ErrorCode.INVALID_ARGUMENT),
    PERMISSION_DENIED(15, 403, ErrorCode.PERMISSION_DENIED),
    UNAUTHENTICATED(16, 401, ErrorCode.UNAUTHENTICATED),
    SERVICE_UNAVAILABLE(17, 503, ErrorCode.UNAVAILABLE),
    INTERNAL(18, 500, ErrorCode.INTERNAL),
    THROTTLING(21, 429, ErrorCode.RESOURCE_EXHAUSTED);

    private final int code;
    private final int httpStatus;
    private final ErrorCode errorCode;

    Kind(int code, int httpStatus, ErrorCode errorCode) {
      this.code = code;
      this.httpStatus = httpStatus;
      this.errorCode = errorCode;
    }

    public int code() {
      return code;
    }

    public int httpStatus() {
      return httpStatus;
    }
  }

  private final Kind kind;

  public NamespaceException(Kind kind, String message) {
    super(kind.errorCode, message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  static NamespaceException tableNotFound(String message) {
    return new NamespaceException(Kind.TABLE_NOT_FOUND, message);
  }

  static NamespaceException invalid(String message) {
    return new NamespaceException(Kind.INVALID_INPUT, message);
  }
}
