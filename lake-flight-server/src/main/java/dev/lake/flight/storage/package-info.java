/**
 * Where a node keeps its tables and its registry: the storage and registry settings ({@link
 * dev.lake.flight.storage.StorageSettings}), the AWS clients built from them, the start-up checks that name what
 * is missing before the node serves anything (S3 reachability, permissions and conditional writes; the DynamoDB
 * table and its key schema), and the wiring that hands the engine its Lance storage options and object stores and
 * the server its registry.
 */
package dev.lake.flight.storage;
