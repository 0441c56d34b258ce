#!/usr/bin/env python3
"""RED/GREEN evidence: for each acceptance test, remove the mechanism it pins (a one-line mutation of the
production code), show the test fails (RED), restore the code and show it passes (GREEN).

Usage: python3 verification/red_green.py [ISSUE] [TEST_NAME ...]   (offline build)

Each run builds the test's module with its upstream modules in one reactor (`-pl <module> -am`), so nothing is
installed into ~/.m2 and a checkout can be mutated without disturbing other builds; run it in its own clone.
Writes verification/red-green-<issue>.md. Each mutation must match its file exactly once, or the run stops.

A row may end with an options dict: {"package": "<module>"} packages that module (with its upstream modules,
-DskipTests, into its target/ only) after the mutation is applied and again after it is restored, before the RED and
the GREEN test runs: for tests that start the server from its packaged jar (bin/lake uses
lake-flight-server/target/lake-server.jar), which `test` alone would leave unmutated.
"""
import subprocess, sys, time, pathlib, re

ROOT = pathlib.Path(__file__).resolve().parent.parent
MVN = [str(ROOT / "mvnw"), "-B", "-o"]

# (issue, test module, test selector, module to rebuild, file, old, new, what the mutation removes[, options])
MUTATIONS = [
    ("2", "lake-it", "CommitProtocolTest#foreignLanceCommitIsNeverRegistered", "lake-engine-lance",
     "lake-engine-lance/src/main/java/dev/lake/engine/NeutralityCheck.java",
     "Optional<VersionOperation> foreign = between.stream().filter(v -> !v.dataNeutral()).findFirst();",
     "Optional<VersionOperation> foreign = Optional.empty();",
     "the engine's check that every version between the read version and the new one is data-neutral"),
    ("2", "lake-it", "CommitProtocolTest#failedIngestRowsNeverAppear", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/CommitRule.java",
     "if (unregistered.isEmpty()) {", "if (true) {",
     "the restore of the registered version when Lance holds unregistered data commits"),
    ("2", "lake-it", "CommitProtocolTest#ingestIsAcknowledgedOnlyAfterRegistryCas", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/WriteCoordinator.java",
     """          throw new WriteConflictException("the registration of '" + table + "' changed during the commit (another "
              + "leader?); version " + version + " was not registered and nothing was acknowledged: retry", e);""",
     """          return new WriteResult(next, staged.rowCount(), false);""",
     "failing the ingest when its registry CAS fails (acknowledging regardless)"),
    ("2", "lake-it", "FlightSqlEndToEndTest#badInputGetsClearErrors", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/grpc/StatusMapper.java",
     "|| e instanceof InvalidTicketException ", "",
     "the mapping of malformed tickets to INVALID_ARGUMENT"),
    ("2", "lake-it", "FlightSqlEndToEndTest#jdbcClientIngestsAndQueriesThroughFlightSql", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/LakeFlightSqlProducer.java",
     "MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), schema);",
     "out.write(MessageSerializer.serializeMetadata(schema).array());",
     "the IPC framing of the prepared statement's schemas (the first bug the JDBC driver found)"),
    ("2", "lake-it", "FlightSqlEndToEndTest#preparedStatementBindsParameters", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/LakeFlightSqlProducer.java",
     "bound = ArrowParameters.row(root, 0);", "bound = List.of();",
     "binding the parameter values a client sends into the statement handle"),
    ("2", "lake-it", "JdbcMetadataTest#allDatabaseMetaDataGettersAnswer", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/metadata/LakeSqlInfo.java",
     'a.put(SqlInfo.FLIGHT_SQL_SERVER_NAME, utf8("lake"));', 'a.put(SqlInfo.FLIGHT_SQL_SERVER_NAME, utf8("other"));',
     "the truthful product name in GetSqlInfo"),
    ("2", "lake-it", "SqllineTest#sqllineSessionListsTablesAndQueries", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/metadata/FlightSqlMetadata.java",
     'public static final String TABLE_TYPE = "TABLE";', 'public static final String TABLE_TYPE = "VIEW";',
     "the TABLE type in GetTables (sqlline's !tables then shows the wrong type)"),
    ("2", "lake-engine-lance", "AlignedBatchesTest#misalignedBuffersAreAlignedBeforeLanceReadsThem", "lake-engine-lance",
     "lake-engine-lance/src/main/java/dev/lake/engine/CountingReader.java",
     "        AlignedBatches.align(root, allocator);", "",
     "aligning misaligned Flight buffers before Lance's native code reads them (without it the JVM aborts)"),
    # ---- issue 3: the registry contract and the commit protocol around it ----
    ("3", "lake-registry", "RocksDbMetaStoreContractTest#metaStoreContract", "lake-registry",
     "lake-registry/src/main/java/dev/lake/registry/rocksdb/RocksDbMetaStore.java",
     "      putHistory(tx, next);\n", "",
     "RocksDB: the commit's history item, written in the same transaction as the registration"),
    ("3", "lake-registry", "DynamoDbMetaStoreContractTest#metaStoreContract", "lake-registry",
     "lake-registry/src/main/java/dev/lake/registry/dynamodb/DynamoDbMetaStore.java",
     "        .put(DynamoItems.history(next, m.token()))\n", "",
     "DynamoDB: the commit's history item, in the same TransactWriteItems as the registration"),
    ("3", "lake-registry", "RocksDbMetaStoreContractTest#staleConditionalDeleteCannotRemoveReplacement", "lake-registry",
     "lake-registry/src/main/java/dev/lake/registry/rocksdb/RocksDbMetaStore.java",
     """      if (current.isEmpty() || !current.get().sameSnapshot(expected)) {
        throw Failures.registrationMoved("drop", expected, current);""",
     """      if (current.isEmpty()) {
        throw Failures.registrationMoved("drop", expected, current);""",
     "RocksDB: the generation/version condition of the drop's compare-and-delete"),
    ("3", "lake-registry", "DynamoDbMetaStoreContractTest#staleConditionalDeleteCannotRemoveReplacement", "lake-registry",
     "lake-registry/src/main/java/dev/lake/registry/dynamodb/DynamoDbMetaStore.java",
     'm.deleteTarget(DynamoItems.registrationKey(t), "#g = :g AND #v = :v", snapshotNames(), snapshotValues(expected))',
     'm.deleteTarget(DynamoItems.registrationKey(t), "attribute_exists(#pk)", Map.of(), Map.of())',
     "DynamoDB: the generation/version condition of the drop's conditional Delete (only existence is checked)"),
    ("3", "lake-registry", "DynamoDbCommitOutcomeTest#sdkRetryOfAnAppliedWriteIsClassifiedNotGuessed", "lake-registry",
     "lake-registry/src/main/java/dev/lake/registry/dynamodb/DynamoTransactions.java",
     "mayHaveLanded |= DynamoAccess.attempts(e) > 1 || !DynamoAccess.neverSent(e);",
     "mayHaveLanded |= DynamoAccess.attempts(e) > 1;",
     "treating a lost response (sent, no answer) as possibly applied: the retry's failed condition is then "
     "classified from the cancellation reasons alone (here a duplicate idempotency key) instead of by re-reading "
     "for the write's own token"),
    ("3", "lake-it", "DropRecreateTest#pausedDropThenRecreateThenResumedDropPreservesReplacement", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/WriteCoordinator.java",
     "boolean sameIncarnation = now.isPresent() && now.get().generation().equals(resolved.generation());",
     "boolean sameIncarnation = now.isPresent();",
     "the generation check before a drop retries: the stale drop retries with the replacement's fresh registration"),
    ("3", "lake-metasrv", "MaintenanceCommitTest#maintenanceCommitsThroughRegistry", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/Maintenance.java",
     "store.commit(fence, registration, next, Optional.empty());", "",
     "the registry CAS that registers the compaction's Lance commit"),
    ("3", "lake-metasrv", "MaintenanceCommitTest#staleMaintenanceNeverOverwritesNewerRegistration", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/Maintenance.java",
     "if (current.isEmpty() || !current.get().sameSnapshot(planned)) {", "if (current.isEmpty()) {",
     "the check, under the lock, that the registration is still the one the compaction was planned on"),
    ("3", "lake-it", "S3RetentionTest#cleanupNeverRemovesVersionsInsideRetentionWindow", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/Maintenance.java",
     "keep.add(v.version());", "",
     "keeping every version the registry's history says was current inside the window (only the registered one "
     "is kept)"),
    ("3", "lake-it", "DropRecreateTest#recreatedTableNeverSeesOldFiles", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/TableLocations.java",
     'return dataRoot + "/" + table + "/" + generation;', 'return dataRoot + "/" + table;',
     "the per-generation location (every incarnation of a name would share one path)"),
    ("3", "lake-it", "ConcurrentWritersTest#concurrentWritersLoseNothing", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/TableLocks.java",
     """      try {
        return body.get();
      } finally {
        entry.lock.unlock();
      }""",
     """      entry.lock.unlock();
      return body.get();""",
     "holding the table's write lock around the commit (it is released before the commit runs)"),
    ("3", "lake-it", "SlowIngestTest#slowIngestDoesNotBlockOtherWriters", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/WriteCoordinator.java",
     "StagedData staged = stage(registration.location(), conformed);",
     "StagedData staged = locks.withLock(request.table(), () -> stage(registration.location(), conformed));",
     "staging an append's data files outside the table lock (staged under it, a stalled client holds the lock)"),

    # ---- issue 4: S3 and DynamoDB ----
    ("4", "lake-it", "S3ClusterEndToEndTest#s3DropAndRecreateSameNameStartsClean", "lake-metasrv",
     "lake-metasrv/src/main/java/dev/lake/metasrv/TableLocations.java",
     'return dataRoot + "/" + table + "/" + generation;', 'return dataRoot + "/" + table;',
     "the per-generation S3 prefix (every incarnation of a name would share one prefix)"),
    ("4", "lake-it", "S3ClusterEndToEndTest#s3EndToEndIngestQueryMaintainDrop", "lake-engine-lance",
     "lake-engine-lance/src/main/java/dev/lake/engine/S3ObjectStore.java",
     "return S3Uri.isS3(root);", "return false;",
     "the S3 object store (lake's own listing and deletion of a table's objects: orphan sweep, retention, GC)"),
    ("4", "lake-it", "S3StartupChecksTest#startupRejectsStoreWithoutConditionalPut", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/storage/S3StartupCheck.java",
     "      checkConditionalPut(conditional);\n", "",
     "the start-up probe that the store honours If-None-Match: * (the second conditional PUT must get 412)"),
    ("4", "lake-it", "S3StartupChecksTest#missingDynamoTableGivesClearError", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/storage/Registries.java",
     "      new DynamoDbStartupCheck(client, d, where).run();\n", "",
     "the DynamoDB start-up check (the registry's own error is all the operator gets)"),
    ("4", "lake-it", "S3StartupChecksTest#unreachableS3GivesClearError", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/storage/S3StartupCheck.java",
     "throw failure(permission, key, e);", "throw e;",
     "translating an S3 SDK failure of a probe step into a start-up error that says what to check"),
    ("4", "lake-it", "S3StartupChecksTest#missingS3PermissionIsNamed", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/storage/S3StartupCheck.java",
     'case "AccessDenied", "AllAccessDisabled" -> {', 'case "AllAccessDisabled" -> {',
     "naming the missing permission when S3 answers AccessDenied"),

    # ---- issue 6: the caching catalog, read-your-writes, time travel ----
    ("6", "lake-query", "CachingCatalogTest#repeatedQueriesDoNotRescanRegistryWithinTtl", "lake-query",
     "lake-query/src/main/java/dev/lake/query/CachingCatalog.java",
     "if (listed != null || recent.accepted(key).isPresent()) {", "if (recent.accepted(key).isPresent()) {",
     "answering look-ups from the snapshot (every look-up goes to the registry)"),
    ("6", "lake-query", "CachingCatalogTest#registryErrorsSurfaceRatherThanTableNotFound", "lake-query",
     "lake-query/src/main/java/dev/lake/query/CachingCatalog.java",
     "      return new PointRead(store.get(name), at);",
     """      try {
        return new PointRead(store.get(name), at);
      } catch (RegistryUnavailableException e) {
        return new PointRead(Optional.empty(), at);
      }""",
     "letting a point read's registry error through (it is taken to mean 'no such table')"),
    ("6", "lake-query", "CachingCatalogTest#lastGoodSnapshotServedDuringBackendOutage", "lake-query",
     "lake-query/src/main/java/dev/lake/query/CachingCatalog.java",
     "      refreshFailures.increment();\n",
     "      refreshFailures.increment();\n      snapshot = null;\n",
     "keeping the last good snapshot when a refresh fails (it is dropped)"),
    ("6", "lake-query", "CachingCatalogTest#concurrentMissesCoalesceIntoOneLoad", "lake-query",
     "lake-query/src/main/java/dev/lake/query/CoalescingCache.java",
     "CompletableFuture<V> running = loading.putIfAbsent(key, mine);", "CompletableFuture<V> running = null;",
     "sharing one in-flight load among concurrent callers of a key (each caller loads)"),
    ("6", "lake-it", "ReadYourWritesTest#nodeReadsItsOwnWrites", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/IngestHandler.java",
     "      catalog.accept(result.registration());\n", "",
     "handing an acknowledged ingest's registration to the node's catalog"),
    ("6", "lake-query", "TimeTravelTest#timeTravelReadsRetainedVersionsByVersionAndTimestamp", "lake-query",
     "lake-query/src/main/java/dev/lake/query/TimeTravel.java",
     "if (items.stream().anyMatch(item -> item.version() == asked)) {", "if (true) {",
     "resolving a version through the registry's history (any Lance version would be readable)"),

    # ---- issue 7: streaming and bounded memory ----
    ("7", "lake-it", "StreamingTest#flightEmitsFirstBatchBeforeProducerCompletes", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/ResultStreamer.java",
     """    control.start(root);
    while (control.interruptibly(reader::loadNextBatch)) {""",
     """    java.util.List<org.apache.arrow.vector.ipc.message.ArrowRecordBatch> all = new java.util.ArrayList<>();
    while (control.interruptibly(reader::loadNextBatch)) {
      all.add(new org.apache.arrow.vector.VectorUnloader(root).getRecordBatch());
    }
    control.start(root);
    for (org.apache.arrow.vector.ipc.message.ArrowRecordBatch batch : all) {
      new org.apache.arrow.vector.VectorLoader(root).load(batch);
      batch.close();""",
     "sending each batch as it is produced (the result is collected, then sent)"),
    ("7", "lake-it", "StreamingTest#lanceConsumesIngestStreamWithoutCollecting", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/IngestHandler.java",
     "      WriteResult result = writes.ingest(request, new FlightStreamReader(stream, ingestAllocator));",
     """      java.io.ByteArrayOutputStream collected = new java.io.ByteArrayOutputStream();
      try (FlightStreamReader in = new FlightStreamReader(stream, ingestAllocator);
          org.apache.arrow.vector.ipc.ArrowStreamWriter writer =
              new org.apache.arrow.vector.ipc.ArrowStreamWriter(in.getVectorSchemaRoot(), null, collected)) {
        writer.start();
        while (in.loadNextBatch()) {
          writer.writeBatch();
        }
        writer.end();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      WriteResult result = writes.ingest(request, new org.apache.arrow.vector.ipc.ArrowStreamReader(
          new java.io.ByteArrayInputStream(collected.toByteArray()), ingestAllocator));""",
     "handing the DoPut stream to Lance as it arrives (the ingest is collected in memory, then written)"),
    ("7", "lake-it", "StreamingTest#queryOverMemoryLimitFailsAloneWithResourceExhausted", "lake-query",
     "lake-query/src/main/java/dev/lake/query/exec/QueryResources.java",
     "this.allocator = parent.newChildAllocator(name, 0, memoryLimit);",
     "this.allocator = parent.newChildAllocator(name, 0, Long.MAX_VALUE);",
     "the per-query memory limit on the statement's allocator"),
    ("7", "lake-it", "StreamingTest#clientCancelReleasesResources", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/LakeFlightSqlProducer.java",
     """      try (ArrowReader reader = query.execute(decoded.sql(), decoded.pins(), decoded.parameters(), queryAllocator)) {
        ResultStreamer.stream(reader, control);
      }""",
     """      ArrowReader reader = query.execute(decoded.sql(), decoded.pins(), decoded.parameters(), queryAllocator);
      ResultStreamer.stream(reader, control);
      reader.close();""",
     "closing a query's reader (its scans, Lance handles and memory) when its stream ends early: only a stream "
     "that completes closes it"),
    ("7", "lake-it", "LargeResultTest#largeResultStreamsThroughSmallHeap", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/ResultStreamer.java",
     """    control.start(root);
    while (control.interruptibly(reader::loadNextBatch)) {""",
     """    java.util.List<org.apache.arrow.vector.ipc.message.ArrowRecordBatch> all = new java.util.ArrayList<>();
    while (control.interruptibly(reader::loadNextBatch)) {
      all.add(new org.apache.arrow.vector.VectorUnloader(root).getRecordBatch());
    }
    control.start(root);
    for (org.apache.arrow.vector.ipc.message.ArrowRecordBatch batch : all) {
      new org.apache.arrow.vector.VectorLoader(root).load(batch);
      batch.close();""",
     "sending each batch as it is produced (the result is collected, then sent; the server process runs from "
     "the packaged jar, rebuilt with the mutation)",
     {"package": "lake-flight-server"}),
    ("2", "lake-query", "QueryServiceSnapshotTest#tableProviderReadsRequestedSnapshot", "lake-query",
     "lake-query/src/main/java/dev/lake/query/exec/QueryResources.java",
     "TableSnapshot snapshot = engine.open(pin.location(), pin.version(), allocator);",
     "TableSnapshot snapshot = engine.open(pin.location(), engine.latestVersion(pin.location()), allocator);",
     "opening exactly the pinned version (Lance's latest is opened instead)"),
    ("2", "lake-it", "FlightSqlEndToEndTest#readOnlySurfaceRejectsDdlAndDml", "lake-query",
     "lake-query/src/main/java/dev/lake/query/sql/SqlSurfacePolicy.java",
     "    if (!QUERY_KINDS.contains(kind)) {", "    if (false) {",
     "the read-only statement policy (a parsed INSERT/UPDATE/... goes on to validation)"),
    # ---- issue 8: whole-subtree pushdown into Lance's SQL engine, TPC-H against DuckDB ----
    ("8", "lake-it", "TpchEndToEndTest#tpchQueriesMatchDuckDb", "lake-query",
     "lake-query/src/main/java/dev/lake/query/plan/RuntimeKeys.java",
     "        keys.add(key);\n", "        if (keys.isEmpty()) {\n          keys.add(key);\n        }\n",
     "collecting every build-side key for a runtime join filter (only the first is kept: probe scans drop rows)"),
    ("8", "lake-it", "TpchEndToEndTest#tpchQueriesMatchDuckDb", "lake-query",
     "lake-query/src/main/java/dev/lake/query/plan/LakeTypeSystem.java",
     "    int widenedScale = Math.max(scale, Math.min(scale + AVG_EXTRA_SCALE, MAX_DECIMAL_PRECISION - integerDigits));",
     "    int widenedScale = scale;",
     "widening AVG over DECIMAL by 4 fraction digits (stock Calcite truncates Q1's averages to the column's scale)"),
    ("8", "lake-it", "TpchEndToEndTest#singleTableSubtreeIsPushedDownWhole", "lake-query",
     "lake-query/src/main/java/dev/lake/query/plan/LancePushdown.java",
     'return Optional.of(input.get().with("aggregate", true));', "return Optional.empty();",
     "absorbing an aggregate into the single-table subtree (it runs in Calcite's Enumerable runtime instead)"),
    ("8", "lake-it", "TpchEndToEndTest#pushdownPreservesExactTypes", "lake-query",
     "lake-query/src/main/java/dev/lake/query/plan/LakeTypeSystem.java",
     "        widened = typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, argumentType.getScale());",
     "        widened = typeFactory.createSqlType(SqlTypeName.DOUBLE);",
     "SUM over DECIMAL staying DECIMAL(38,s) (it becomes a DOUBLE)"),
    ("9", "lake-query", "OuterJoinCountsTest#outerJoinCountsAreCountedBeforeTheJoin", "lake-query",
     "lake-query/src/main/java/dev/lake/query/plan/StatementPlanner.java",
     "      rel = OuterJoinCounts.rewrite(rel, relBuilder);\n", "",
     "counting the null-producing side of an outer join before the join (Q13 counts 1.5M joined rows instead)"),
    ("9", "lake-query", "VectorizedJoinTest#buildSideScansReadTheColumnCacheWithTheirFilter", "lake-query",
     "lake-query/src/main/java/dev/lake/query/vector/VectorExecutor.java",
     "    if (!fitsCache(scan.columns().size(), scans, fragments)) {\n      return false;",
     "    if (true) {\n      return false;",
     "reading a join's scanned build side from the column cache (it decodes Lance pages every time)"),
    ("9", "lake-query", "VectorizedJoinTest#duplicateBuildKeysYieldOneRowPerMatchAndNullKeysNeverMatch", "lake-query",
     "lake-query/src/main/java/dev/lake/query/vector/JoinTable.java",
     "          next[last[g]] = i;\n", "",
     "chaining build rows of a duplicated key (a probe row then meets only the first)"),
    ("9", "lake-query", "VectorizedJoinTest#randomJoinAggregatesMatchCalcitesJoins", "lake-query",
     "lake-query/src/main/java/dev/lake/query/plan/StatementPlanner.java",
     "        rel = VectorJoins.rewrite(rel);\n", "",
     "the vectorized join rewrite (the EXPLAIN check sees Calcite's joins)"),
    ("9", "lake-query", "VectorizedExecutorTest#plainScansUnderCalcitesJoinsReadCachedColumns", "lake-query",
     "lake-query/src/main/java/dev/lake/query/plan/LanceScanCall.java",
     "    if (cached.isPresent()) {\n", "    if (false && cached.isPresent()) {\n",
     "serving plain scans under Calcite's joins from the column cache"),
    ("9", "lake-query", "VectorizedExecutorTest#aggregateOfAggregatesRunsVectorized", "lake-query",
     "lake-query/src/main/java/dev/lake/query/plan/VectorPlanner.java",
     "      } else if (rel instanceof Aggregate && aggregate != null) {",
     "      } else if (rel instanceof Aggregate && aggregate != null && false) {",
     "running an aggregate of the grouped rows in the vectorized executor"),
    ("9", "lake-query", "RuntimeFilterTest#runtimeFiltersOverCachedColumnsKeepEveryMatchingRow", "lake-query",
     "lake-query/src/main/java/dev/lake/query/vector/InKeys.java",
     "      if (at == value) {\n        return true;", "      if (at == value) {\n        return false;",
     "finding a key in the runtime filter's IN set over cached columns (matching rows would be dropped)"),
    # ---- issue 2 follow-up (a demanding user's expectation): an abandoned ingest does not hold a thread forever ----
    ("2", "lake-it", "IngestIdleTimeoutTest#abandonedIngestIsStoppedAfterIdleTimeout", "lake-flight-server",
     "lake-flight-server/src/main/java/dev/lake/flight/limits/IdleStreams.java",
     "      thread.interrupt();\n", "",
     "interrupting the thread that waits for an idle client's next batch (ingest.idle-timeout)"),
    ("9", "lake-query", "VectorizedExecutorTest#columnCacheServesRepeatedScansAndReadsNewVersionsAfresh", "lake-query",
     "lake-query/src/main/java/dev/lake/query/exec/LanceScanSource.java",
     'return snapshot.location() + "@" + snapshot.version();', "return snapshot.location();",
     "the table version in the column cache's key (an overwrite restarts fragment ids: stale rows come back)"),
    ("9", "lake-query", "VectorizedExecutorTest#columnCacheServesRepeatedScansAndReadsNewVersionsAfresh", "lake-query",
     "lake-query/src/main/java/dev/lake/query/vector/ColumnCache.java",
     "return maxBytes > 0;", "return false;",
     "the column cache (every run decodes Lance pages again)"),
    ("9", "lake-query", "VectorizedExecutorTest#vectorizedAggregateMatchesReference", "lake-query",
     "lake-query/src/main/java/dev/lake/query/vector/HashAggregate.java",
     "int[] mapping = groupIds(partial.keyBatch(), groups, KEY_BATCH_COLUMNS);",
     "int[] mapping = groupIds(partial.keyBatch(), groups, keys);",
     "merging partials by their key batch's own columns (keys that are not the input's first columns fail)"),
    ("9", "lake-query", "VectorizedExecutorTest#vectorizedAggregateMatchesReference", "lake-query",
     "lake-query/src/main/java/dev/lake/query/vector/Range.java",
     "    int[] x = direct.ints();\n    int base = direct.offset();\n    long width = high - low;\n    int kept = 0;\n"
     "    for (int j = 0; j < count; j++) {\n      int p = identity ? j : positions[j];\n      positions[kept] = p;\n"
     "      kept += Long.compareUnsigned(x[base + p] - low, width) <= 0 ? 1 : 0;",
     "    int[] x = direct.ints();\n    int base = direct.offset();\n    long width = high - low;\n    int kept = 0;\n"
     "    for (int j = 0; j < count; j++) {\n      int p = identity ? j : positions[j];\n      positions[kept] = p;\n"
     "      kept += x[base + p] - low <= width ? 1 : 0;",
     "the unsigned comparison of a merged range (values below its lower bound pass)"),
]


def run(cmd, log):
    """Runs cmd, appending its output to log; returns (exit code, the output of this run)."""
    start = pathlib.Path(log).stat().st_size if pathlib.Path(log).exists() else 0
    with open(log, "a") as f:
        f.write("\n$ " + " ".join(cmd) + "\n")
        f.flush()
        rc = subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT).returncode
    with open(log, "rb") as f:
        f.seek(start)
        return rc, f.read().decode("utf-8", "replace")


def summary(text):
    runs = re.findall(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Time|$)", text, re.M)
    crashed = "Crashed tests" in text or "panicked" in text
    if runs:
        t, f, e, s = runs[-1]
        return f"tests {t}, failures {f}, errors {e}" + (", JVM crashed" if crashed else "")
    return "JVM crashed" if crashed else "no test summary (build failed)"


def main():
    issue = sys.argv[1] if len(sys.argv) > 1 else "2"
    only = set(sys.argv[2:])
    rows = []
    log = ROOT / "verification" / f"red-green-{issue}.log"
    log.write_text("")
    for row in MUTATIONS:
        (iss, test_module, selector, module, path, old, new, what) = row[:8]
        options = row[8] if len(row) > 8 else {}
        if iss != issue or (only and selector.split("#")[1] not in only):
            continue
        file = ROOT / path
        original = file.read_text()
        if original.count(old) != 1:
            sys.exit(f"mutation for {selector} does not match {path} exactly once")
        test_cmd = MVN + ["-pl", test_module, "-am", "test", f"-Dtest={selector}",
                          "-Dsurefire.failIfNoSpecifiedTests=false"]
        package_cmd = (MVN + ["-q", "-pl", options["package"], "-am", "package", "-DskipTests"]
                       if "package" in options else None)

        def test_run():
            """(exit code, summary) of one test run, after packaging when the row asks for it."""
            if package_cmd:
                rc, _ = run(package_cmd, log)
                if rc != 0:
                    return rc, f"packaging {options['package']} failed (build failed)"
            rc, text = run(test_cmd, log)
            return rc, summary(text)

        try:
            file.write_text(original.replace(old, new))
            red_rc, red = test_run()
        finally:
            file.write_text(original)
        green_rc, green = test_run()
        rows.append((selector, what, red_rc, red, green_rc, green))
        print(f"{selector}: RED rc={red_rc} ({red}); GREEN rc={green_rc} ({green})", flush=True)
    out = ROOT / "verification" / f"red-green-{issue}.md"
    with open(out, "w") as f:
        f.write(f"# RED/GREEN for issue {issue}\n\nGenerated by `python3 verification/red_green.py {issue}`: each "
                "row removes one mechanism (RED: the test must fail), then restores it (GREEN: it must pass).\n\n")
        f.write("| test | mechanism removed for RED | RED | GREEN |\n|---|---|---|---|\n")
        for (sel, what, rrc, red, grc, green) in rows:
            f.write(f"| `{sel}` | {what} | {'FAIL' if rrc else 'PASS (!)'}: {red} | "
                    f"{'PASS' if grc == 0 else 'FAIL (!)'}: {green} |\n")
    print(f"wrote {out}")
    bad = [r for r in rows if r[2] == 0 or r[4] != 0]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
