package dev.lake.registry;

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
public abstract class RegistryException extends RuntimeException {
  protected RegistryException(String message, Throwable cause) {
    super(message, cause);
  }
}
