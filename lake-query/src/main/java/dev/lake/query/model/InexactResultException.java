package dev.lake.query.model;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * A value the statement computes cannot be represented exactly in its result type — an integer sum or a decimal
 * beyond its type's digits, a temporal value out of range, a division by zero — or the operation would have to
 * change a value's precision silently (docs/api.md, "Exactness"). lake fails the statement rather than wrap, round
 * or truncate. Answers INVALID_ARGUMENT; the message names the operation and the type.
 *
 * <p>It is an {@link IllegalArgumentException} so that it is recognized as a data error wherever Calcite's generated
 * code wraps it (for example in a class initializer that evaluated a constant).
 */
public final class InexactResultException extends IllegalArgumentException implements CodedFailure {
  public InexactResultException(String message) {
    super(message);
  }

  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INVALID_ARGUMENT;
  }
}
