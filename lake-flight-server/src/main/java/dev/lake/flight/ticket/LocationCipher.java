package dev.lake.flight.ticket;

import dev.lake.flight.auth.Signer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals a table's storage location inside a ticket (AES-256-GCM under a key derived from the cluster secret, a
 * fresh 12-byte nonce each time): a ticket is signed, not secret, and a reader who decodes one must see table
 * names and versions, never where the data lives (docs/api.md, "Tickets"). Every node of the cluster derives the
 * same key, so any node opens a ticket another issued. Thread-safe.
 */
final class LocationCipher {
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();
  private final SecretKeySpec key;
  /**
   * One AES/GCM cipher per thread, initialized afresh (key and nonce) for every seal and open: a cipher is not
   * thread-safe, and looking one up per ticket was a few percent of the point-query handlers' time.
   */
  private final ThreadLocal<Cipher> ciphers = ThreadLocal.withInitial(LocationCipher::newCipher);

  LocationCipher(Signer signer) {
    this.key = new SecretKeySpec(signer.derive("lake.ticket.location.v1"), "AES");
  }

  /** The location, encrypted and authenticated, as URL-safe base64 text. */
  String seal(String location) {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = ciphers.get();
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      byte[] sealed = cipher.doFinal(location.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(ByteBuffer.allocate(NONCE_BYTES + sealed.length)
          .put(nonce).put(sealed).array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is not available in this JVM", e);
    }
  }

  /** The location {@link #seal} sealed; {@link InvalidTicketException} for anything else. */
  String open(String sealed) {
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(sealed);
    } catch (IllegalArgumentException e) {
      throw new InvalidTicketException("malformed ticket");
    }
    if (bytes.length <= NONCE_BYTES) {
      throw new InvalidTicketException("malformed ticket");
    }
    try {
      Cipher cipher = ciphers.get();
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
      return new String(cipher.doFinal(Arrays.copyOfRange(bytes, NONCE_BYTES, bytes.length)),
          StandardCharsets.UTF_8);
    } catch (javax.crypto.AEADBadTagException e) {
      throw new InvalidTicketException("the ticket is malformed or was not issued by this cluster");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is not available in this JVM", e);
    }
  }

  private static Cipher newCipher() {
    try {
      return Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is not available in this JVM", e);
    }
  }
}
