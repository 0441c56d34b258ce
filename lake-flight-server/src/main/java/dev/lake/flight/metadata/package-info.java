/**
 * Answers the Flight SQL metadata commands for lake: GetSqlInfo, GetCatalogs, GetDbSchemas,
 * GetTables, GetTableTypes, GetPrimaryKeys, GetExportedKeys, GetImportedKeys, GetCrossReference and
 * GetXdbcTypeInfo.
 *
 * <p>lake has one catalog {@code lake} with one schema {@code main}, whose tables are all of type
 * {@code TABLE}; its SQL surface is read-only. {@link dev.lake.flight.metadata.FlightSqlMetadata} is
 * the one entry point the producer delegates to; every result uses exactly the column names and
 * types of {@code FlightSqlProducer.Schemas}.
 */
package dev.lake.flight.metadata;
