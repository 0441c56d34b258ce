package dev.lake.spark;

import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsRowLevelOperations;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TruncatableTable;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperationBuilder;
import org.apache.spark.sql.connector.write.RowLevelOperationInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A lake table as {@link LakeCatalog} hands it to Spark: reads (scans, metadata columns, time travel) go to
 * lance-spark's table unchanged; every write is refused with lake's message before anything is written.
 *
 * <p>It still states {@code BATCH_WRITE} and {@code TRUNCATE}: without them Spark's analyzer refuses an INSERT with
 * its own "does not support append in batch mode", which says nothing of where writes go. With them Spark asks
 * {@link #newWriteBuilder} while it plans the statement — before any task runs, so no data file is staged — and gets
 * lake's answer. DELETE, UPDATE and MERGE ask {@link #newRowLevelOperationBuilder} during analysis, TRUNCATE asks
 * {@link #truncateTable}. It is deliberately not a lance-spark {@code LanceDataset}: lance-spark's SQL extensions
 * (OPTIMIZE, VACUUM, CREATE INDEX, column backfills), which open the dataset and write to storage themselves, then
 * refuse the table instead of compacting or deleting files behind lake's registry.
 */
final class ReadOnlyTable implements SupportsRead, SupportsWrite, SupportsMetadataColumns, SupportsRowLevelOperations,
        TruncatableTable {
    private static final Set<TableCapability> CAPABILITIES = Set.of(TableCapability.BATCH_READ,
            TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);

    private final Table table;
    private final String identifier;

    /** {@code identifier}: the table as the statement named it (lance-spark's own name is its directory's). */
    ReadOnlyTable(Table table, String identifier) {
        this.table = table;
        this.identifier = identifier;
    }

    @Override
    public String name() {
        return table.name();
    }

    @Override
    @SuppressWarnings("deprecation")
    public StructType schema() {
        return table.schema();
    }

    @Override
    public Column[] columns() {
        return table.columns();
    }

    @Override
    public Transform[] partitioning() {
        return table.partitioning();
    }

    @Override
    public Map<String, String> properties() {
        return table.properties();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return ((SupportsRead) table).newScanBuilder(options);
    }

    @Override
    public MetadataColumn[] metadataColumns() {
        return table instanceof SupportsMetadataColumns m ? m.metadataColumns() : new MetadataColumn[0];
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        throw new LakeReadOnlyException("write to " + identifier);
    }

    @Override
    public RowLevelOperationBuilder newRowLevelOperationBuilder(RowLevelOperationInfo info) {
        throw new LakeReadOnlyException(info.command() + " on " + identifier);
    }

    @Override
    public boolean truncateTable() {
        throw new LakeReadOnlyException("TRUNCATE of " + identifier);
    }

    @Override
    public String toString() {
        return "lake read-only " + table;
    }
}
