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
 * payload only when the MAC verifies (constant-time comparison). Thread-safe: every MAC is computed on its own copy
 * of one keyed {@link Mac} (a clone, no provider look-up and key set-up per call: every Flight call of a query opens
 * or seals tokens with it).
 */
public final class Signer {
  private static final int MAC_BYTES = 32;
  private final SecretKeySpec key;
  /** Initialised with the key and never updated: only cloned (null when the provider's Mac cannot be cloned). */
  private final Mac keyed;

  public Signer(byte[] secret) {
    if (secret.length < 32) {
      throw new IllegalArgumentException("the cluster secret must be at least 32 bytes");
    }
    this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    this.keyed = keyedPrototype(key);
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
      Mac mac = newMac();
      mac.update(domain.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return mac.doFinal(payload);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }

  private Mac newMac() throws GeneralSecurityException {
    if (keyed != null) {
      try {
        return (Mac) keyed.clone();
      } catch (CloneNotSupportedException e) {
        // fall through: a fresh instance (checked once in keyedPrototype, so not expected)
      }
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(key);
    return mac;
  }

  private static Mac keyedPrototype(SecretKeySpec key) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.clone();
      return mac;
    } catch (GeneralSecurityException | CloneNotSupportedException e) {
      return null;
    }
  }
}
