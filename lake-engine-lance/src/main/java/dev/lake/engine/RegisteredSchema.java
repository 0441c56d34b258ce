package dev.lake.engine;

import dev.lake.registry.TableRegistration;
import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.io.IOException;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The one place a registration's schema (Arrow schema JSON, as the registry stores it) is parsed: the write path's
 * appends, the catalog's tables, the Flight SQL metadata, {@code lake.describe_table} and the namespace all read it
 * here. A schema that does not parse is a damaged registry entry: INTERNAL, naming the table, generation and
 * version (never a path).
 */
public final class RegisteredSchema {
  private RegisteredSchema() {}

  /** The Arrow schema {@code registration} holds. */
  public static Schema of(TableRegistration registration) {
    return of(registration.name(), registration.generation(), registration.version(), registration.schema());
  }

  /** The Arrow schema {@code json} registered for version {@code version} of {@code table}'s {@code generation}. */
  public static Schema of(String table, String generation, long version, String json) {
    try {
      return Schema.fromJSON(json);
    } catch (IOException | RuntimeException e) {
      throw new LakeException(ErrorCode.INTERNAL, "the registration of table '" + table + "' (generation "
          + generation + ", version " + version + ") holds a schema that is not Arrow schema JSON; the registry "
          + "entry is damaged", e);
    }
  }
}
