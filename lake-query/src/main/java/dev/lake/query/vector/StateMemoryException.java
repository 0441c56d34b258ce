package dev.lake.query.vector;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import org.apache.arrow.memory.OutOfMemoryException;

/**
 * An operator's state (a hash aggregate's groups, a join's build side) would pass the query's memory limit: the
 * operator spills where it can ({@link PartitionedAggregate}, {@link PartitionedBuild}), else the query fails with
 * RESOURCE_EXHAUSTED.
 */
public final class StateMemoryException extends OutOfMemoryException implements CodedFailure {
  private static final long serialVersionUID = 1L;

  public StateMemoryException(String message) {
    super(message);
  }

  @Override
  public ErrorCode errorCode() {
    return ErrorCode.RESOURCE_EXHAUSTED;
  }
}
