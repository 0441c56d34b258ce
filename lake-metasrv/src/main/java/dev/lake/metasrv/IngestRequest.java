package dev.lake.metasrv;

import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.TableNames;
import java.util.Objects;
import java.util.Optional;

/**
 * What to do with an incoming stream (Flight SQL's {@code TableDefinitionOptions}).
 *
 * @param table the table name (normalized to lower case)
 * @param ifMissing what to do when the table does not exist
 * @param ifExists what to do when it does
 * @param idempotencyKey {@code lake.idempotency_key}: a repeat returns the first outcome instead of applying twice
 */
public record IngestRequest(String table, IfMissing ifMissing, IfExists ifExists, Optional<String> idempotencyKey) {
  public enum IfMissing { CREATE, FAIL }

  public enum IfExists { FAIL, APPEND, REPLACE }

  public IngestRequest {
    table = TableNames.normalize(table);
    Objects.requireNonNull(ifMissing, "ifMissing");
    Objects.requireNonNull(ifExists, "ifExists");
    idempotencyKey.ifPresent(IdempotencyRecord::validateKey);
  }
}
