package dev.lake.flight.security;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Transport security of the Flight SQL endpoint (keys {@code server.tls.*} and {@code server.allow-plaintext} in
 * docs/config.md).
 *
 * @param certChain PEM certificate chain the server presents (leaf first); empty: no TLS
 * @param privateKey PEM PKCS#8 private key of the leaf certificate (set together with {@code certChain})
 * @param clientCa PEM CA certificate(s) client certificates must chain to; present: every client must present one
 *     (mutual TLS), and a client whose certificate's subject CN names a configured user is authenticated as that
 *     user without a password
 * @param allowPlaintext serve plaintext on a non-loopback address (off by default: plaintext only on loopback)
 * @param clusterCa PEM CA certificate(s) the certificates of the other nodes of a cluster chain to (the internal
 *     endpoint is served with mutual TLS whenever TLS is configured); empty: every node uses the same
 *     {@code certChain}, whose leaf certificate is then the one trusted
 */
public record SecuritySettings(Optional<Path> certChain, Optional<Path> privateKey, Optional<Path> clientCa,
    boolean allowPlaintext, Optional<Path> clusterCa) {
  /** The keys this record reads, with their defaults (null = none). */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("server.tls.cert-chain", null);
    keys.put("server.tls.private-key", null);
    keys.put("server.tls.client-ca", null);
    keys.put("server.allow-plaintext", "false");
    keys.put("server.tls.cluster-ca", null);
    KEYS = Collections.unmodifiableMap(keys);
  }

  public SecuritySettings {
    Objects.requireNonNull(certChain, "certChain");
    Objects.requireNonNull(privateKey, "privateKey");
    Objects.requireNonNull(clientCa, "clientCa");
    Objects.requireNonNull(clusterCa, "clusterCa");
    if (clusterCa.isPresent() && certChain.isEmpty()) {
      throw new IllegalArgumentException("server.tls.cluster-ca (mutual TLS between nodes) needs TLS: set "
          + "server.tls.cert-chain and server.tls.private-key too");
    }
    if (certChain.isPresent() != privateKey.isPresent()) {
      throw new IllegalArgumentException("server.tls.cert-chain and server.tls.private-key go together: set both "
          + "(PEM files) to serve TLS, or neither");
    }
    if (clientCa.isPresent() && certChain.isEmpty()) {
      throw new IllegalArgumentException("server.tls.client-ca (mutual TLS) needs TLS: set server.tls.cert-chain "
          + "and server.tls.private-key too");
    }
  }

  /** No TLS; plaintext on loopback only. */
  public static SecuritySettings plaintext() {
    return new SecuritySettings(Optional.empty(), Optional.empty(), Optional.empty(), false, Optional.empty());
  }

  public boolean tls() {
    return certChain.isPresent();
  }

  public boolean mutualTls() {
    return clientCa.isPresent();
  }

  /** Reads {@link #KEYS} from merged configuration values (missing keys take their defaults). */
  public static SecuritySettings fromKeys(Map<String, String> values) {
    return new SecuritySettings(path(values, "server.tls.cert-chain"), path(values, "server.tls.private-key"),
        path(values, "server.tls.client-ca"), bool(values, "server.allow-plaintext"),
        path(values, "server.tls.cluster-ca"));
  }

  private static Optional<Path> path(Map<String, String> values, String key) {
    return Optional.ofNullable(values.get(key)).map(String::strip).filter(s -> !s.isEmpty())
        .map(s -> Path.of(s).toAbsolutePath().normalize());
  }

  private static boolean bool(Map<String, String> values, String key) {
    String text = values.getOrDefault(key, KEYS.get(key));
    String t = text == null ? "false" : text.strip().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "true" -> true;
      case "false", "" -> false;
      default -> throw new IllegalArgumentException(key + " = '" + text + "' is not a boolean: use true or false");
    };
  }
}
