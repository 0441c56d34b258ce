package dev.lake.flight.auth;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 with the cluster secret. {@link #seal} prefixes a payload with its MAC; {@link #open} returns the
 * payload only when the MAC verifies (constant-time comparison). Thread-safe.
 */
public final class Signer {
  private static final int MAC_BYTES = 32;
  private final SecretKeySpec key;

  public Signer(byte[] secret) {
    if (secret.length < 32) {
      throw new IllegalArgumentException("the cluster secret must be at least 32 bytes");
    }
    this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
  }

  /** A domain label keeps a token of one kind from being accepted as another (a handle is not a ticket). */
  public byte[] seal(String domain, byte[] payload) {
    byte[] mac = mac(domain, payload);
    return ByteBuffer.allocate(MAC_BYTES + payload.length).put(mac).put(payload).array();
  }

  public Optional<byte[]> open(String domain, byte[] sealed) {
    if (sealed == null || sealed.length < MAC_BYTES) {
      return Optional.empty();
    }
    byte[] payload = Arrays.copyOfRange(sealed, MAC_BYTES, sealed.length);
    byte[] expected = mac(domain, payload);
    byte[] given = Arrays.copyOfRange(sealed, 0, MAC_BYTES);
    return MessageDigest.isEqual(expected, given) ? Optional.of(payload) : Optional.empty();
  }

  /**
   * A 32-byte key for {@code purpose} derived from the cluster secret (HMAC of the purpose under its own domain):
   * every node of a cluster derives the same key, and no derived key tells anything about the secret or another key.
   */
  public byte[] derive(String purpose) {
    return mac("lake.derived-key", purpose.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private byte[] mac(String domain, byte[] payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update(domain.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return mac.doFinal(payload);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }
}
