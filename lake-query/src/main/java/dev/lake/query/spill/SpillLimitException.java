package dev.lake.query.spill;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * An execution's spilled bytes would pass its spill budget ({@code query.spill-limit}) or what the node's
 * ({@code query.node-spill-limit}) leaves, after its memory limit was spent too. Maps to RESOURCE_EXHAUSTED.
 */
public final class SpillLimitException extends RuntimeException implements CodedFailure {
  public SpillLimitException(String message) {
    super(message);
  }

  @Override
  public ErrorCode errorCode() {
    return ErrorCode.RESOURCE_EXHAUSTED;
  }
}
