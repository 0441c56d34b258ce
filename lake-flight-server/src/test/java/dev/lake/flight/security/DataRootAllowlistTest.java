package dev.lake.flight.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.engine.TableEngine;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DataRootAllowlistTest {
  private final DataRootAllowlist s3 = new DataRootAllowlist("s3://bucket/lake/");
  private final DataRootAllowlist local = new DataRootAllowlist("/var/lib/lake/tables");

  @ParameterizedTest
  @ValueSource(strings = {"s3://bucket/lake", "s3://bucket/lake/", "s3://bucket/lake/t/0b6c0c5e-2f1d-4f57-9e3c",
      "s3://bucket/lake/t/gen/"})
  void locationsUnderTheRootAreAllowed(String location) {
    assertThat(s3.allows(location)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"s3://other/lake/t/g", "s3://bucket/lake2/t/g", "s3://bucket/lakes", "s3://bucket/t/g",
      "s3://bucket/lake/../secret", "s3://bucket/lake/t/../../x", "s3://bucket/lake/./t", "s3://bucket/lake//t",
      "s3://bucket/lake/t\\..\\x", "file:///etc/passwd", "/etc/passwd", "", "s3://bucket/lake/t/.hidden"})
  void anythingElseIsRefused(String location) {
    assertThat(s3.allows(location)).isFalse();
    assertThatThrownBy(() -> s3.check(location)).isInstanceOf(LocationNotAllowedException.class)
        .hasMessageContaining("outside the data root 's3://bucket/lake'");
  }

  @Test
  void localRoots() {
    assertThat(local.allows("/var/lib/lake/tables/t/g")).isTrue();
    assertThat(local.allows("/var/lib/lake/tables/../../../etc")).isFalse();
    assertThat(local.allows("/var/lib/lake/tablesx/t")).isFalse();
    assertThat(local.allows(null)).isFalse();
  }

  @Test
  void theGuardRefusesBeforeTheEngineIsReached() {
    List<String> reached = new ArrayList<>();
    TableEngine engine = (TableEngine) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {TableEngine.class}, (proxy, method, args) -> {
          reached.add(method.getName() + " " + (args == null ? "" : args[0]));
          return switch (method.getReturnType().getName()) {
            case "long" -> 1L;
            case "boolean" -> true;
            case "java.util.Optional" -> Optional.empty();
            case "java.util.Set" -> Set.of();
            case "java.util.List" -> List.of();
            default -> null;
          };
        });
    DataRootGuard guard = new DataRootGuard(engine, s3);
    assertThatThrownBy(() -> guard.open("s3://elsewhere/t/g", 1, null))
        .isInstanceOf(LocationNotAllowedException.class);
    assertThatThrownBy(() -> guard.drop("s3://bucket/lake/../x")).isInstanceOf(LocationNotAllowedException.class);
    assertThatThrownBy(() -> guard.listAllFiles("s3://bucket")).isInstanceOf(LocationNotAllowedException.class);
    assertThat(reached).isEmpty();
    assertThat(guard.exists("s3://bucket/lake/t/g")).isTrue();
    guard.drop("s3://bucket/lake/t/g");
    assertThat(reached).containsExactly("exists s3://bucket/lake/t/g", "drop s3://bucket/lake/t/g");
  }
}
