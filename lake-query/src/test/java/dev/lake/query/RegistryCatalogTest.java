package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.registry.LeaseFence;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.rocksdb.RocksDbMetaStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog reads registrations point by point from a real (RocksDB) registry and reads this node's writes. */
class RegistryCatalogTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir
  Path dir;

  private RocksDbMetaStore store;
  private LeaseFence fence;

  @BeforeEach
  void openStore() {
    store = RocksDbMetaStore.open(dir.resolve("registry"));
    fence = store.takeLeaseAtStartup("node-1", "localhost:1", T0.plusSeconds(3_600)).fence();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void pointLookupIsCaseInsensitiveAndMissingIsEmpty() {
    TableRegistration orders = register("orders", 1, T0);
    RegistryCatalog catalog = new RegistryCatalog(store);
    assertThat(catalog.table("ORDERS")).contains(orders);
    assertThat(catalog.table("Orders")).contains(orders);
    assertThat(catalog.table("nope")).isEmpty();
    assertThat(catalog.table("s3://bucket/x")).isEmpty();
  }

  @Test
  void tablesPagesThroughTheWholeRegistryInNameOrder() {
    for (String name : new String[] {"e", "a", "d", "c", "b"}) {
      register(name, 1, T0);
    }
    RegistryCatalog catalog = new RegistryCatalog(store, 2);
    assertThat(catalog.tables()).extracting(TableRegistration::name).containsExactly("a", "b", "c", "d", "e");
  }

  @Test
  void acceptedRegistrationIsVisibleBeforeTheStoreHasIt() {
    TableRegistration v1 = register("t", 1, T0);
    RegistryCatalog catalog = new RegistryCatalog(store);
    TableRegistration v2 = v1.withVersion(2, v1.schema(), fence.term(), T0.plusSeconds(1));
    catalog.accept(v2);
    assertThat(catalog.table("t")).contains(v2);
    assertThat(catalog.tables()).containsExactly(v2);
    // An older acknowledgement never replaces a newer one.
    catalog.accept(v1);
    assertThat(catalog.table("t")).contains(v2);
  }

  @Test
  void storeNewerThanTheOverlayWins() {
    TableRegistration v1 = register("t", 1, T0);
    RegistryCatalog catalog = new RegistryCatalog(store);
    catalog.accept(v1);
    TableRegistration v2 = v1.withVersion(2, v1.schema(), fence.term(), T0.plusSeconds(1));
    store.commit(fence, v1, v2, Optional.empty());
    assertThat(catalog.table("t")).contains(v2);
  }

  @Test
  void droppedGenerationIsHiddenWhileTheStoreStillShowsIt() {
    TableRegistration v1 = register("t", 1, T0);
    RegistryCatalog catalog = new RegistryCatalog(store);
    catalog.dropped("t", v1.generation());
    assertThat(catalog.table("t")).isEmpty();
    assertThat(catalog.tables()).isEmpty();
    // A recreated incarnation acknowledged through this node is visible.
    TableRegistration recreated = new TableRegistration("t", UUID.randomUUID().toString(), "/data/t/new/", 1,
        v1.schema(), fence.term(), T0.plusSeconds(5), T0.plusSeconds(5));
    catalog.accept(recreated);
    assertThat(catalog.table("t")).contains(recreated);
  }

  private TableRegistration register(String name, long version, Instant at) {
    String generation = UUID.randomUUID().toString();
    TableRegistration registration = new TableRegistration(name, generation, "/data/" + name + "/" + generation + "/",
        version, "{\"fields\":[]}", fence.term(), at, at);
    store.create(fence, registration, Optional.empty());
    return registration;
  }
}
