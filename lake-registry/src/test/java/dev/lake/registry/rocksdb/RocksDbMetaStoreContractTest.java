package dev.lake.registry.rocksdb;

import dev.lake.registry.MetaStore;
import dev.lake.registry.MetaStoreContract;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;

/** {@link MetaStoreContract} on a real RocksDB TransactionDB on disk (fsync on, as in production). */
@DisplayName("metaStoreContract on RocksDB")
class RocksDbMetaStoreContractTest extends MetaStoreContract {
  @TempDir Path dir;
  private final AtomicInteger stores = new AtomicInteger();

  @Override
  protected MetaStore openStore() {
    return RocksDbMetaStore.open(dir.resolve("registry-" + stores.incrementAndGet()));
  }

  @Override
  protected void makeUnreachable(MetaStore store) {
    store.close();
  }
}
