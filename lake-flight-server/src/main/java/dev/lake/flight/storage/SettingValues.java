package dev.lake.flight.storage;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Parsing and checks shared by the storage and registry settings; messages name the configuration key. */
final class SettingValues {
  private SettingValues() {}

  static Optional<String> text(Map<String, String> values, String key) {
    return Optional.ofNullable(values.get(key)).map(String::strip).filter(s -> !s.isEmpty());
  }

  static boolean bool(String key, String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(key + " = '" + text + "' is not a boolean: use true or false");
    };
  }

  static URI endpoint(String key, String text) {
    try {
      URI uri = new URI(text.strip());
      checkHttpEndpoint(key, uri);
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(key + " = '" + text + "' is not a URL (e.g. http://127.0.0.1:9000)");
    }
  }

  static void checkHttpEndpoint(String key, URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new IllegalArgumentException(key + " = '" + uri + "' is not an http(s) URL with a host (e.g. "
          + "http://127.0.0.1:9000)");
    }
  }

  /**
   * An SDK message short enough for a one-line error: the credential chain's message lists every provider's own
   * failure; keep its first sentence.
   */
  static String brief(String message) {
    String m = message == null ? "" : message.strip();
    int chain = m.indexOf(" AwsCredentialsProviderChain(");
    if (chain > 0) {
      m = m.substring(0, chain) + " (system properties, environment, web identity, profile, container, instance)";
    }
    return m.length() > 400 ? m.substring(0, 400) + "..." : m;
  }

  static void checkKeyPair(String prefix, Optional<String> id, Optional<String> secret) {
    if (id.isPresent() != secret.isPresent()) {
      String missing = id.isPresent() ? prefix + ".secret-access-key" : prefix + ".access-key-id";
      throw new IllegalArgumentException(missing + " is not set but its partner is: set both " + prefix
          + ".access-key-id and " + prefix + ".secret-access-key (or LAKE_" + prefix.toUpperCase(Locale.ROOT)
          + "_ACCESS_KEY_ID and LAKE_" + prefix.toUpperCase(Locale.ROOT) + "_SECRET_ACCESS_KEY), or neither to use "
          + "the AWS default credential chain");
    }
  }
}
