/**
 * The embedded registry backend: a RocksDB {@code TransactionDB} on local disk, for the single-node topology.
 * Every mutation is one pessimistic transaction that locks (getForUpdate) the lease item and every item it
 * checks, then writes the registration with its history, idempotency or tombstone items together.
 */
package dev.lake.registry.rocksdb;
