package dev.lake.registry;

import static dev.lake.registry.RegistryFixtures.firstVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fixture of the {@link MetaStoreContract} and its lease and node cases: a fresh store per test, led by
 * node-a at {@link #fence}. Extend {@link MetaStoreContract}, not this class.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class MetaStoreLeaseContract {
  protected static final Instant FOREVER = Instant.parse("9999-12-31T23:59:59Z");
  private final List<MetaStore> opened = new ArrayList<>();
  protected MetaStore store;
  protected LeaseFence fence;

  /** A fresh, empty store (no lease, no tables). Closed by the suite after the test. */
  protected abstract MetaStore openStore() throws Exception;

  /** Takes the backend of {@code store} down (a closed store, a stopped server); called once per test. */
  protected abstract void makeUnreachable(MetaStore store) throws Exception;

  @BeforeEach
  void openStoreLedByNodeA() throws Exception {
    store = open();
    fence = LeaseTakeover.takeOver(store, "node-a", "10.0.0.1:7000", FOREVER).fence();
  }

  @AfterEach
  void closeStores() {
    opened.forEach(MetaStore::close);
  }

  /** Opens another fresh store that the suite closes after the test. */
  protected final MetaStore open() throws Exception {
    MetaStore opened = openStore();
    this.opened.add(opened);
    return opened;
  }

  @Test
  void anOlderTermOfTheSameHolderIsRejected() {
    LeaseFence before = fence;
    LeaseFence after = LeaseTakeover.takeOver(store, "node-a", "10.0.0.1:7000", FOREVER).fence();
    TableRegistration t = firstVersion("t", before.term());

    assertThatThrownBy(() -> store.create(before, t, Optional.empty())).isInstanceOf(LeaseRejectedException.class);
    assertThat(store.get("t")).isEmpty();
    store.create(after, t, Optional.empty());
    assertThat(store.get("t")).contains(t);
  }

  @Test
  void mutationsWithoutAnyLeaseAreRejected() throws Exception {
    MetaStore unled = open();
    TableRegistration t = firstVersion("t", 1);
    assertThatThrownBy(() -> unled.create(new LeaseFence("node-a", 1), t, Optional.empty()))
        .isInstanceOf(LeaseRejectedException.class);
    assertThat(unled.get("t")).isEmpty();
  }

  @Test
  void writeLeaseOnAnEmptyRegistryRequiresAnEmptyExpectation() throws Exception {
    MetaStore fresh = open();
    LeaderLease first = new LeaderLease("node-a", "10.0.0.1:7000", 1, FOREVER);
    LeaderLease rival = new LeaderLease("node-b", "10.0.0.2:7000", 1, FOREVER);

    assertThatThrownBy(() -> fresh.writeLease(Optional.of(rival), rival))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThat(fresh.lease()).isEmpty();
    fresh.writeLease(Optional.empty(), first);
    assertThatThrownBy(() -> fresh.writeLease(Optional.empty(), rival))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThat(fresh.lease()).contains(first);
  }

  @Test
  void writeLeaseComparesHolderAndTerm() {
    LeaderLease current = store.lease().orElseThrow();
    LeaderLease renewed = new LeaderLease(current.holderId(), current.internalAddress(), current.term(),
        RegistryFixtures.T0.plusSeconds(30));
    LeaderLease otherHolder = new LeaderLease("node-b", "a", current.term(), FOREVER);
    LeaderLease olderTerm = new LeaderLease(current.holderId(), "a", current.term(), FOREVER);
    LeaderLease takeover = new LeaderLease("node-b", "10.0.0.2:7000", current.term() + 1, FOREVER);

    assertThatThrownBy(() -> store.writeLease(Optional.of(otherHolder), takeover))
        .isExactlyInstanceOf(RegistryConflictException.class);
    store.writeLease(Optional.of(new LeaderLease(current.holderId(), "any address", current.term(), FOREVER)),
        renewed);
    assertThat(store.lease()).contains(renewed);
    store.create(fence, firstVersion("still_leading", fence.term()), Optional.empty());
    store.writeLease(Optional.of(renewed), takeover);
    assertThat(store.lease()).contains(takeover);
    assertThatThrownBy(() -> store.writeLease(Optional.of(olderTerm), renewed))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThat(store.lease()).contains(takeover);
  }

  @Test
  void leaseTermsNeverGoBackAndANewHolderTakesAHigherTerm() {
    LeaderLease current = store.lease().orElseThrow();
    assertThatThrownBy(() -> store.writeLease(Optional.of(current),
        new LeaderLease("node-b", "a", current.term(), FOREVER))).isInstanceOf(IllegalArgumentException.class);
    LeaderLease higher = new LeaderLease("node-a", "a", current.term() + 2, FOREVER);
    store.writeLease(Optional.of(current), higher);
    assertThatThrownBy(() -> store.writeLease(Optional.of(higher),
        new LeaderLease("node-a", "a", current.term(), FOREVER))).isInstanceOf(IllegalArgumentException.class);
    assertThat(store.lease()).contains(higher);
  }

  @Test
  void heartbeatsKeepOneItemPerNode() {
    NodeInfo a = new NodeInfo("node-a", "10.0.0.1:8815", "10.0.0.1:7000", RegistryFixtures.T0);
    NodeInfo b = new NodeInfo("node-b", "10.0.0.2:8815", "10.0.0.2:7000", RegistryFixtures.T0);
    NodeInfo aLater = new NodeInfo("node-a", "10.0.0.1:8815", "10.0.0.1:7000", RegistryFixtures.T0.plusSeconds(5));
    store.heartbeat(a);
    store.heartbeat(b);
    store.heartbeat(aLater);
    assertThat(store.nodes()).containsExactlyInAnyOrder(aLater, b);
  }

}
