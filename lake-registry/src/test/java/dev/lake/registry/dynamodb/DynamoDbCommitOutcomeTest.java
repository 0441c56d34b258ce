package dev.lake.registry.dynamodb;

import static dev.lake.registry.RegistryFixtures.firstVersion;
import static dev.lake.registry.RegistryFixtures.historyItem;
import static dev.lake.registry.RegistryFixtures.key;
import static dev.lake.registry.RegistryFixtures.nextVersion;
import static dev.lake.registry.RegistryFixtures.tombstone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lake.registry.CommitStateUnknownException;
import dev.lake.registry.DuplicateIdempotencyKeyException;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.LeaseTakeover;
import dev.lake.registry.RegistryConflictException;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.support.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How {@link DynamoDbMetaStore} classifies a transaction whose attempts were lost, refused or cancelled, on
 * dynoxide behind a {@link FaultProxy}: a write whose response was lost is recognised by its token; an ambiguous
 * attempt followed by a condition failure is unknown, never a plain conflict; nothing is applied twice.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DynamoDbCommitOutcomeTest {
  private static final String TRANSACT = "TransactWriteItems";
  private static final Instant FOREVER = Instant.parse("9999-12-31T23:59:59Z");
  private static final RetryPolicy RETRY = new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5));
  private final ConsistentReadCheck consistentReads = new ConsistentReadCheck();
  private Dynoxide server;
  private FaultProxy proxy;
  private DynamoDbMetaStore store;
  private DynamoDbMetaStore direct;
  private LeaseFence fence;

  @BeforeEach
  void start() {
    server = Dynoxide.start();
    proxy = FaultProxy.start(server.endpoint());
    DynamoDbMetaStoreConfig config = DynamoDbMetaStoreConfig.of("registry").withCreateTableIfMissing(true)
        .withRetry(RETRY);
    direct = DynamoDbMetaStore.open(server.newClient(), config);
    store = DynamoDbMetaStore.open(server.clientBuilder(java.util.List.of(consistentReads))
        .endpointOverride(proxy.endpoint()).build(), config);
    fence = LeaseTakeover.takeOver(store, "node-a", "10.0.0.1:7000", FOREVER).fence();
  }

  @AfterEach
  void stop() {
    store.close();
    direct.close();
    proxy.close();
    server.close();
    assertThat(consistentReads.violations()).isEmpty();
  }

  @Test
  void sdkRetryOfAnAppliedWriteIsClassifiedNotGuessed() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration v2 = nextVersion(v1, fence.term());
    int before = proxy.forwarded(TRANSACT);
    proxy.inject(TRANSACT, new FaultProxy.LoseResponse(), new FaultProxy.ForgetToken());

    Throwable outcome = catchThrowable(() -> store.commit(fence, v1, v2, key(v2, "ingest-1", 42)));

    assertThat(outcome).as("a lost response is success or unknown, never a conflict")
        .satisfiesAnyOf(o -> assertThat(o).isNull(),
            o -> assertThat(o).isInstanceOf(CommitStateUnknownException.class));
    assertThat(outcome).as("the store recognises its own write by its token").isNull();
    assertThat(proxy.forwarded(TRANSACT) - before).as("the lost attempt and one retry").isEqualTo(2);
    assertThat(direct.get("t")).contains(v2);
    assertThat(direct.history("t", v1.generation())).containsExactly(historyItem(v1), historyItem(v2));
    assertThat(direct.idempotencyRecord("t", v1.generation(), "ingest-1")).isEqualTo(key(v2, "ingest-1", 42));
  }

  @Test
  void aRetryThatTheServerRecognisesByItsTokenIsSuccess() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration v2 = nextVersion(v1, fence.term());
    proxy.inject(TRANSACT, new FaultProxy.LoseResponse());

    store.commit(fence, v1, v2, key(v2, "ingest-1", 42));

    assertThat(direct.get("t")).contains(v2);
    assertThat(direct.history("t", v1.generation())).containsExactly(historyItem(v1), historyItem(v2));
  }

  @Test
  void aLostResponseOfEveryKindOfMutationIsRecognisedAsApplied() {
    TableRegistration v1 = firstVersion("t", fence.term());
    proxy.inject(TRANSACT, new FaultProxy.LoseResponse(), new FaultProxy.ForgetToken());
    store.create(fence, v1, key(v1, "first", 1));
    assertThat(direct.get("t")).contains(v1);

    Tombstone dropped = tombstone(v1);
    proxy.inject(TRANSACT, new FaultProxy.LoseResponse(), new FaultProxy.ForgetToken());
    store.drop(fence, v1, dropped);
    assertThat(direct.get("t")).isEmpty();
    assertThat(direct.tombstones()).containsExactly(dropped);

    proxy.inject(TRANSACT, new FaultProxy.LoseResponse(), new FaultProxy.ForgetToken());
    store.deleteTombstone(fence, dropped);
    assertThat(direct.tombstones()).isEmpty();

    LeaderLease current = direct.lease().orElseThrow();
    LeaderLease next = new LeaderLease("node-b", "10.0.0.2:7000", current.term() + 1, FOREVER);
    proxy.inject(TRANSACT, new FaultProxy.LoseResponse(), new FaultProxy.ForgetToken());
    store.writeLease(Optional.of(current), next);
    assertThat(direct.lease()).contains(next);
    assertThat(proxy.pending(TRANSACT)).isZero();
  }

  @Test
  void anAmbiguousAttemptFollowedByAForeignWriteIsUnknownNeverAConflict() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration ours = nextVersion(v1, fence.term());
    TableRegistration[] theirs = new TableRegistration[1];
    proxy.inject(TRANSACT, new FaultProxy.ServerErrorBeforeForwarding(), new FaultProxy.Before(() -> {
      LeaseFence successor = LeaseTakeover.takeOver(direct, "node-b", "10.0.0.2:7000", FOREVER).fence();
      theirs[0] = v1.withVersion(2, "{\"theirs\":true}", successor.term(), v1.updatedAt().plusSeconds(5));
      direct.commit(successor, v1, theirs[0], Optional.empty());
    }));

    assertThatThrownBy(() -> store.commit(fence, v1, ours, key(ours, "k", 1)))
        .isExactlyInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining("re-read");

    assertThat(direct.get("t")).contains(theirs[0]);
    assertThat(direct.history("t", v1.generation())).containsExactly(historyItem(v1), historyItem(theirs[0]));
    assertThat(direct.idempotencyRecord("t", v1.generation(), "k")).isEmpty();
  }

  @Test
  void anAmbiguousAttemptThatMeetsAnotherWritesKeyReturnsTheOriginal() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration ours = nextVersion(v1, fence.term());
    TableRegistration theirs = v1.withVersion(2, "{\"theirs\":true}", fence.term(), v1.updatedAt().plusSeconds(5));
    proxy.inject(TRANSACT, new FaultProxy.ServerErrorBeforeForwarding(),
        new FaultProxy.Before(() -> direct.commit(fence, v1, theirs, key(theirs, "k", 7))));

    DuplicateIdempotencyKeyException duplicate = catchThrowableOfType(DuplicateIdempotencyKeyException.class,
        () -> store.commit(fence, v1, ours, key(ours, "k", 1)));

    assertThat(duplicate.original()).isEqualTo(key(theirs, "k", 7).orElseThrow());
    assertThat(direct.get("t")).contains(theirs);
  }

  @Test
  void transactionConflictsAndThrottlingAreRetriedAndApplyOnce() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration v2 = nextVersion(v1, fence.term());
    int before = proxy.forwarded(TRANSACT);
    proxy.inject(TRANSACT, new FaultProxy.Conflict(4), new FaultProxy.Throttle());

    store.commit(fence, v1, v2, key(v2, "k", 1));

    assertThat(proxy.forwarded(TRANSACT) - before).isEqualTo(1);
    assertThat(direct.get("t")).contains(v2);
    assertThat(direct.history("t", v1.generation())).containsExactly(historyItem(v1), historyItem(v2));
  }

  @Test
  void conflictsOnEveryAttemptEndUnavailableWithNothingWritten() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration v2 = nextVersion(v1, fence.term());
    for (int i = 0; i < RETRY.maxAttempts(); i++) proxy.inject(TRANSACT, new FaultProxy.Conflict(4));

    assertThatThrownBy(() -> store.commit(fence, v1, v2, Optional.empty()))
        .isExactlyInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining(RETRY.maxAttempts() + " attempts");
    assertThat(direct.get("t")).contains(v1);
  }

  @Test
  void serverErrorsOnEveryAttemptOfAnUnappliedWriteAreUnknown() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration v2 = nextVersion(v1, fence.term());
    for (int i = 0; i < RETRY.maxAttempts(); i++) {
      proxy.inject(TRANSACT, new FaultProxy.ServerErrorBeforeForwarding());
    }

    assertThatThrownBy(() -> store.commit(fence, v1, v2, Optional.empty()))
        .isExactlyInstanceOf(CommitStateUnknownException.class);
    assertThat(direct.get("t")).contains(v1);
  }

  @Test
  void aServerErrorBeforeAnyWriteIsRetriedToSuccess() {
    TableRegistration v1 = firstVersion("t", fence.term());
    proxy.inject(TRANSACT, new FaultProxy.ServerErrorBeforeForwarding());
    proxy.inject("GetItem", new FaultProxy.ServerErrorBeforeForwarding(), new FaultProxy.Throttle());

    store.create(fence, v1, Optional.empty());

    assertThat(store.get("t")).contains(v1);
    assertThat(proxy.pending("GetItem")).isZero();
  }

  @Test
  void aPlainConditionFailureWithoutAmbiguityIsAConflict() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration stale = v1.withVersion(3, v1.schema(), fence.term(), v1.updatedAt());
    proxy.inject(TRANSACT, new FaultProxy.Conflict(3));

    assertThatThrownBy(() -> store.commit(fence, stale, nextVersion(stale, fence.term()), Optional.empty()))
        .isExactlyInstanceOf(RegistryConflictException.class);
  }

  @Test
  void aMissingTableIsAClearErrorUnlessCreationIsAllowed() {
    assertThatThrownBy(() -> DynamoDbMetaStore.open(server.newClient(), DynamoDbMetaStoreConfig.of("absent")))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("absent").hasMessageContaining("does not exist")
        .hasMessageContaining("pk HASH");
    try (DynamoDbMetaStore created = DynamoDbMetaStore.open(server.newClient(),
        DynamoDbMetaStoreConfig.of("absent").withCreateTableIfMissing(true))) {
      assertThat(created.lease()).isEmpty();
    }
    try (DynamoDbMetaStore reopened =
        DynamoDbMetaStore.open(server.newClient(), DynamoDbMetaStoreConfig.of("absent"))) {
      assertThat(reopened.describe()).isEqualTo("dynamodb:absent");
    }
  }
}
