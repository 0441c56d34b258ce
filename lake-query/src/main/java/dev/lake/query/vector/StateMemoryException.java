package dev.lake.query.vector;

import org.apache.arrow.memory.OutOfMemoryException;

/**
 * An operator's state (a hash aggregate's groups, a join's build side) would pass the query's memory limit: the
 * operator spills where it can ({@link PartitionedAggregate}), else the query fails with RESOURCE_EXHAUSTED.
 */
public final class StateMemoryException extends OutOfMemoryException {
  private static final long serialVersionUID = 1L;

  StateMemoryException(String message) {
    super(message);
  }
}
