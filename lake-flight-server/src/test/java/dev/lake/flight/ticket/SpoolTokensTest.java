package dev.lake.flight.ticket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.flight.auth.Signer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SpoolTokensTest {
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  private final Signer signer = new Signer("0123456789abcdef0123456789abcdef".getBytes());
  private final SpoolTokens tokens = new SpoolTokens(signer, Clock.fixed(NOW, ZoneOffset.UTC));
  private final String job = UUID.randomUUID().toString();

  @Test
  void roundTripsAndIsBoundToItsUser() {
    byte[] descriptor = tokens.encodeJob(new SpoolTokens.Job(job, "rita", NOW.plusSeconds(60)));
    assertThat(SpoolTokens.isJob(descriptor)).isTrue();
    assertThat(SpoolTokens.isPart(descriptor)).isFalse();
    assertThat(tokens.decodeJob(descriptor, "rita").jobId()).isEqualTo(job);
    assertThatThrownBy(() -> tokens.decodeJob(descriptor, "walt")).isInstanceOf(ForeignTicketException.class);
    byte[] part = tokens.encodePart(new SpoolTokens.Part(job, 3, "rita", NOW.plusSeconds(60)));
    assertThat(tokens.decodePart(part, "rita").part()).isEqualTo(3);
    assertThatThrownBy(() -> tokens.decodePart(part, "walt")).isInstanceOf(ForeignTicketException.class);
  }

  @Test
  void forgedOrSwappedTokensAreInvalidAndOldOnesExpired() {
    byte[] descriptor = tokens.encodeJob(new SpoolTokens.Job(job, "rita", NOW.plusSeconds(60)));
    byte[] flipped = descriptor.clone();
    flipped[flipped.length - 2] ^= 1;
    assertThatThrownBy(() -> tokens.decodeJob(flipped, "rita")).isInstanceOf(InvalidTicketException.class);
    assertThatThrownBy(() -> tokens.decodeJob(Arrays.copyOf(descriptor, 20), "rita"))
        .isInstanceOf(InvalidTicketException.class);
    byte[] part = tokens.encodePart(new SpoolTokens.Part(job, 0, "rita", NOW.plusSeconds(60)));
    assertThatThrownBy(() -> tokens.decodeJob(part, "rita")).as("a part ticket is no poll descriptor")
        .isInstanceOf(InvalidTicketException.class);
    SpoolTokens other = new SpoolTokens(new Signer("another-secret-another-secret-another".getBytes()),
        Clock.fixed(NOW, ZoneOffset.UTC));
    assertThatThrownBy(() -> other.decodeJob(descriptor, "rita")).isInstanceOf(InvalidTicketException.class);
    byte[] old = tokens.encodeJob(new SpoolTokens.Job(job, "rita", NOW));
    assertThatThrownBy(() -> tokens.decodeJob(old, "rita")).isInstanceOf(ExpiredTicketException.class)
        .hasMessageContaining("run the query again");
    assertThat(tokens.decodeJobForCancel(old, "rita").jobId()).as("cancelling ignores expiry").isEqualTo(job);
  }
}
