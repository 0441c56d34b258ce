package dev.lake.flight.auth;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Salted password hashes with the JDK's PBKDF2WithHmacSHA256, stored as
 * {@code pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>}.
 */
public final class PasswordHasher {
  public static final String PREFIX = "pbkdf2-sha256";
  private static final int ITERATIONS = 210_000;
  private static final int SALT_BYTES = 16;
  private static final int HASH_BITS = 256;
  private final SecureRandom random = new SecureRandom();

  public String hash(char[] password) {
    byte[] salt = new byte[SALT_BYTES];
    random.nextBytes(salt);
    byte[] hash = derive(password, salt, ITERATIONS);
    Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
    return PREFIX + "$" + ITERATIONS + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
  }

  public static boolean verify(char[] password, String stored) {
    String[] parts = stored == null ? new String[0] : stored.split("\\$");
    if (parts.length != 4 || !PREFIX.equals(parts[0])) {
      return false;
    }
    try {
      int iterations = Integer.parseInt(parts[1]);
      byte[] salt = Base64.getDecoder().decode(parts[2]);
      byte[] expected = Base64.getDecoder().decode(parts[3]);
      return MessageDigest.isEqual(expected, derive(password, salt, iterations));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** True when {@code stored} is a hash this class can verify. */
  public static boolean isHash(String stored) {
    return stored != null && stored.startsWith(PREFIX + "$") && stored.split("\\$").length == 4;
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations) {
    try {
      PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
      try {
        return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
      } finally {
        spec.clearPassword();
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available in this JVM", e);
    }
  }
}
