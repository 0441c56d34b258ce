package dev.lake.registry;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * Base of the registry's typed failures. Each subclass says whether a retry is safe:
 * <ul>
 *   <li>{@link RegistryConflictException}: the condition failed, nothing was written; re-read and decide.
 *   <li>{@link LeaseRejectedException}: this node no longer holds the lease at the fenced term; nothing was
 *       written; the caller is not the leader.
 *   <li>{@link RegistryUnavailableException}: the backend could not be reached and nothing was written.
 *   <li>{@link CommitStateUnknownException}: the write may or may not have been applied; do not clean up
 *       anything the write would reference.
 * </ul>
 */
public abstract class RegistryException extends RuntimeException implements CodedFailure {
  /** Each subclass states its status: conflict ABORTED, lease rejected or unavailable UNAVAILABLE, unknown UNKNOWN. */
  @Override
  public abstract ErrorCode errorCode();

  protected RegistryException(String message, Throwable cause) {
    super(message, cause);
  }
}
