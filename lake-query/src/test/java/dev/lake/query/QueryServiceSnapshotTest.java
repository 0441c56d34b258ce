package dev.lake.query;

import dev.lake.query.model.TablePin;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.registry.TableRegistration;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Every read opens exactly the pinned version (docs/design.md invariant 1), on both execution paths. */
class QueryServiceSnapshotTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  @Test
  void tableProviderReadsRequestedSnapshot() {
    TableRegistration v1 = createTable("t", SCHEMA, List.of(Rows.row(1L, "one"), Rows.row(2L, "two")));
    TableRegistration v2 = appendRows(v1, SCHEMA, List.of(Rows.row(3L, "three")));
    assertThat(v2.version()).isGreaterThan(v1.version());
    Map<String, TablePin> atV1 = Map.of("t", TablePin.of(v1));
    Map<String, TablePin> atV2 = Map.of("t", TablePin.of(v2));

    assertThat(execute("SELECT id, name FROM t", atV1, List.of()).rows())
        .containsExactlyInAnyOrder(List.of(1L, "one"), List.of(2L, "two"));
    assertThat(execute("SELECT id, name FROM t", atV2, List.of()).rows())
        .containsExactlyInAnyOrder(List.of(1L, "one"), List.of(2L, "two"), List.of(3L, "three"));

    // The Calcite path (an aggregate) reads the pinned version too.
    assertThat(execute("SELECT COUNT(*), SUM(id) FROM t", atV1, List.of()).rows())
        .containsExactly(List.of(2L, 3L));
    assertThat(execute("SELECT COUNT(*), SUM(id) FROM t", atV2, List.of()).rows())
        .containsExactly(List.of(3L, 6L));

    // prepare pins the current registration.
    assertThat(service.prepare("SELECT * FROM t").pins()).isEqualTo(atV2);
  }
}
