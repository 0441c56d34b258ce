package dev.lake.flight.metrics;

import dev.lake.flight.auth.LoginGuard;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Meters of failed logins (docs/operations.md): {@code lake_login_failures_total} (a full password check failed:
 * wrong password or unknown user, not told apart), {@code lake_login_throttled_total{by=user|address}} (refused by
 * the throttle without a check) and {@code lake_login_busy_total} (refused because too many logins were waiting).
 */
public final class LoginMeters {
  private LoginMeters() {}

  public static void bind(MeterRegistry registry, LoginGuard logins) {
    FunctionCounter.builder("lake.login.failures", logins, LoginGuard::failures)
        .description("Logins refused after a full password check (wrong password or unknown user)")
        .register(registry);
    FunctionCounter.builder("lake.login.throttled", logins, l -> l.throttled(true)).tag("by", "user")
        .description("Logins refused by the failed-login throttle without a password check").register(registry);
    FunctionCounter.builder("lake.login.throttled", logins, l -> l.throttled(false)).tag("by", "address")
        .description("Logins refused by the failed-login throttle without a password check").register(registry);
    FunctionCounter.builder("lake.login.busy", logins, LoginGuard::busy)
        .description("Logins refused because too many password checks were running or waiting").register(registry);
  }
}
