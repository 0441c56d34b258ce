package dev.lake.flight;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The secret that signs bearer tokens, statement handles and tickets. Configured for a cluster (every node must
 * share it); for a single node generated once into {@code <data-dir>/cluster.secret} (mode 600) and reused.
 */
final class ClusterSecret {
  static final String FILE = "cluster.secret";

  private ClusterSecret() {}

  static byte[] resolve(Optional<String> configured, Path dataDir) {
    if (configured.isPresent()) {
      byte[] bytes = configured.get().getBytes(StandardCharsets.UTF_8);
      if (bytes.length < 32) {
        throw new IllegalArgumentException("cluster.secret must be at least 32 characters");
      }
      return bytes;
    }
    Path file = dataDir.resolve(FILE);
    try {
      if (!Files.exists(file)) {
        byte[] fresh = new byte[48];
        new SecureRandom().nextBytes(fresh);
        Files.createDirectories(dataDir);
        try {
          Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
          Files.write(file, Base64.getEncoder().encode(fresh), StandardOpenOption.TRUNCATE_EXISTING);
        } catch (FileAlreadyExistsException raced) {
          // another process created it first: use theirs
        }
      }
      byte[] text = Files.readAllBytes(file);
      byte[] secret = Base64.getDecoder().decode(new String(text, StandardCharsets.US_ASCII).trim());
      if (secret.length < 32) {
        throw new IllegalStateException(file + " holds fewer than 32 bytes; delete it to generate a new one");
      }
      return secret;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the cluster secret at " + file, e);
    }
  }
}
