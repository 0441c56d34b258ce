package dev.lake.registry.support;

import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.LeaseRejectedException;
import dev.lake.registry.RegistryConflictException;
import dev.lake.registry.TableRegistration;
import java.util.Optional;

/** The registry's failure messages, shared so that every backend says the same thing in the same words. */
public final class Failures {
  private Failures() {}

  public static LeaseRejectedException leaseRejected(String what, LeaseFence fence, Optional<LeaderLease> current) {
    String holder = current
        .map(l -> "the lease is held by '" + l.holderId() + "' at term " + l.term())
        .orElse("no node holds the lease");
    return new LeaseRejectedException(what + " was rejected: " + holder + ", not by '" + fence.holderId()
        + "' at term " + fence.term() + "; this node is not the leader (deposed or not yet elected): nothing was "
        + "written, send the write to the current leader");
  }

  /** A conditional change of {@code expected} found {@code current} instead. */
  public static RegistryConflictException registrationMoved(
      String what, TableRegistration expected, Optional<TableRegistration> current) {
    String found = current
        .map(c -> "it is at generation " + c.generation() + " version " + c.version())
        .orElse("it no longer exists");
    return new RegistryConflictException(what + " of table '" + expected.name() + "' expected generation "
        + expected.generation() + " version " + expected.version() + " but " + found
        + ": another write came first; nothing was written, re-read the registration and decide again");
  }

  public static RegistryConflictException leaseMoved(Optional<LeaderLease> expected, Optional<LeaderLease> current) {
    return new RegistryConflictException("lease write expected " + describe(expected) + " but found "
        + describe(current) + ": another node wrote the lease first; nothing was written, re-read the lease");
  }

  public static RegistryConflictException historyStillCurrent(
      String name, String generation, long version, long registered) {
    return new RegistryConflictException("history item " + name + "/" + generation + " v" + version
        + " cannot expire: version " + registered + " is the registered version of that incarnation and only "
        + "older versions expire; nothing was deleted");
  }

  private static String describe(Optional<LeaderLease> lease) {
    return lease.map(l -> "holder '" + l.holderId() + "' at term " + l.term()).orElse("no lease item");
  }
}
