package dev.lake.flight.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BearerTokensTest {
  private static final User LAKE = new User("lake", "hash-1", Role.WRITER);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-07T12:00:00Z"));
  private final BearerTokens tokens = new BearerTokens(new Signer(secret()), clock, Duration.ofMinutes(10));

  @Test
  void aTokenNamesItsUserUntilItExpiresOnEveryCheck() {
    String token = tokens.issue(LAKE);
    assertThat(tokens.verify(token, Map.of("lake", LAKE))).contains("lake");
    clock.advance(Duration.ofMinutes(9));
    assertThat(tokens.verify(token, Map.of("lake", LAKE))).contains("lake");
    clock.advance(Duration.ofMinutes(1));
    assertThat(tokens.verify(token, Map.of("lake", LAKE))).isEmpty();
  }

  /** The generation is remembered per user configuration: a check after a change must not find the old one. */
  @Test
  void changingPasswordOrRoleRevokesATokenThatWasVerifiedBefore() {
    String token = tokens.issue(LAKE);
    assertThat(tokens.verify(token, Map.of("lake", LAKE))).contains("lake");
    assertThat(tokens.verify(token, Map.of("lake", new User("lake", "hash-2", Role.WRITER)))).isEmpty();
    assertThat(tokens.verify(token, Map.of("lake", new User("lake", "hash-1", Role.ADMIN)))).isEmpty();
    assertThat(tokens.verify(token, Map.of())).isEmpty();
    assertThat(tokens.verify(token, Map.of("lake", new User("lake", "hash-1", Role.WRITER)))).contains("lake");
  }

  @Test
  void aTokenOfAnotherSecretOrTamperedWithIsRefused() {
    String token = tokens.issue(LAKE);
    byte[] other = secret();
    other[0] ^= 1;
    String foreign = new BearerTokens(new Signer(other), clock, Duration.ofMinutes(10)).issue(LAKE);
    assertThat(tokens.verify(foreign, Map.of("lake", LAKE))).isEmpty();
    byte[] bytes = Base64.getUrlDecoder().decode(token);
    bytes[bytes.length - 2] ^= 1;
    assertThat(tokens.verify(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), Map.of("lake", LAKE)))
        .isEmpty();
  }

  private static byte[] secret() {
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) 3);
    return secret;
  }

  private static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
