package dev.lake.flight;

import dev.lake.flight.auth.Identity;
import dev.lake.flight.auth.Role;
import dev.lake.flight.auth.User;
import java.util.Map;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;

/** Who is calling, and whether their role allows an operation (roles are looked up on every call). */
final class Access {
  private final Map<String, User> users;

  Access(Map<String, User> users) {
    this.users = Map.copyOf(users);
  }

  Identity identity(CallContext context) {
    String name = context.peerIdentity();
    User user = name == null ? null : users.get(name);
    if (user == null) {
      throw CallStatus.UNAUTHENTICATED.withDescription("unknown caller: log in again").toRuntimeException();
    }
    return new Identity(user.name(), user.role());
  }

  Identity require(CallContext context, Role needed, String what) {
    Identity identity = identity(context);
    if (!identity.role().allows(needed)) {
      throw CallStatus.UNAUTHORIZED.withDescription("user '" + identity.user() + "' (role "
          + identity.role().name().toLowerCase() + ") may not " + what + ": it needs role "
          + needed.name().toLowerCase()).toRuntimeException();
    }
    return identity;
  }
}
