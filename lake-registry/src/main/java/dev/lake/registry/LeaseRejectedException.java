package dev.lake.registry;

import dev.lake.registry.error.ErrorCode;

/**
 * The mutation's lease check failed: the lease item no longer names the fenced holder at the fenced term (this
 * node was deposed, or the term moved on). Nothing was written. Maps to UNAVAILABLE: retry against the leader.
 */
public class LeaseRejectedException extends RegistryException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.UNAVAILABLE;
  }

  public LeaseRejectedException(String message) {
    super(message, null);
  }
}
