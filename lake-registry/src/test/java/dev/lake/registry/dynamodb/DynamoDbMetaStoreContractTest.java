package dev.lake.registry.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.registry.MetaStore;
import dev.lake.registry.MetaStoreContract;
import dev.lake.registry.support.RetryPolicy;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;

/**
 * {@link MetaStoreContract} on {@link DynamoDbMetaStore} against a real dynoxide server (one per store), with an
 * interceptor that fails the test if any item read is not strongly consistent.
 */
@DisplayName("metaStoreContract on DynamoDB (dynoxide)")
class DynamoDbMetaStoreContractTest extends MetaStoreContract {
  static final RetryPolicy FAST_RETRY = new RetryPolicy(3, Duration.ofMillis(2), Duration.ofMillis(10));
  private final Map<MetaStore, Dynoxide> servers = new IdentityHashMap<>();
  private final ConsistentReadCheck consistentReads = new ConsistentReadCheck();

  @Override
  protected MetaStore openStore() {
    Dynoxide server = Dynoxide.start();
    try {
      MetaStore store = DynamoDbMetaStore.open(server.newClient(consistentReads),
          DynamoDbMetaStoreConfig.of("lake_registry").withCreateTableIfMissing(true).withRetry(FAST_RETRY));
      servers.put(store, server);
      return store;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  @Override
  protected void makeUnreachable(MetaStore store) {
    servers.get(store).close();
  }

  @AfterEach
  void stopServersAndCheckReads() {
    servers.values().forEach(Dynoxide::close);
    assertThat(consistentReads.checked()).isPositive();
    assertThat(consistentReads.violations()).as("reads without ConsistentRead=true").isEmpty();
  }
}
