package dev.lake.engine;

import java.util.Map;
import java.util.Objects;

/**
 * Where the engine gets the Lance storage options (credentials, region, endpoint) for each operation. The engine
 * asks again for every Lance call it makes (open, stage, commit, drop), so a source backed by expiring credentials
 * hands out fresh ones without the engine being rebuilt; a Lance handle keeps the options it was opened with.
 * Implementations are thread-safe, cheap (cache what they fetch) and never log what they return.
 */
@FunctionalInterface
public interface StorageOptions {

  /** The options to use for the operation about to start; never null. */
  Map<String, String> current();

  /** The same options for every operation (empty for local disk). */
  static StorageOptions fixed(Map<String, String> options) {
    Map<String, String> copy = Map.copyOf(Objects.requireNonNull(options, "options"));
    return () -> copy;
  }
}
