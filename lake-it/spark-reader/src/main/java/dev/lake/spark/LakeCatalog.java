package dev.lake.spark;

import java.util.Map;

import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.lance.spark.LanceNamespaceSparkCatalog;

/**
 * lance-spark's namespace catalog made read-only, for reading lake through its Lance REST Namespace
 * (docs/operations.md, "When one node is not enough"): {@code spark.sql.catalog.lake=dev.lake.spark.LakeCatalog}
 * with the same {@code impl}, {@code uri} and {@code header.*} options as {@code LanceNamespaceSparkCatalog}.
 *
 * <p>Why: lake's namespace refuses every write route, but lance-spark 0.4.0 (lance-core 4.0.0) stages an INSERT's
 * data files first and then takes the refused {@code CreateTableVersion} for a commit conflict, retrying with a
 * growing back-off instead of failing. This catalog refuses writes inside Spark instead, before any file is written:
 * tables load as {@link ReadOnlyTable}, and creating, replacing, altering, renaming or dropping tables and namespaces
 * raise {@link LakeReadOnlyException} without asking the namespace.
 */
public class LakeCatalog extends LanceNamespaceSparkCatalog {
    @Override
    public Table loadTable(Identifier ident) throws NoSuchTableException {
        return new ReadOnlyTable(super.loadTable(ident), ident.toString());
    }

    @Override
    public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
        return new ReadOnlyTable(super.loadTable(ident, version), ident.toString());
    }

    @Override
    public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
        return new ReadOnlyTable(super.loadTable(ident, timestamp), ident.toString());
    }

    @Override
    public Table createTable(Identifier ident, StructType schema, Transform[] partitions,
            Map<String, String> properties) {
        throw new LakeReadOnlyException("CREATE TABLE " + ident);
    }

    @Override
    public StagedTable stageCreate(Identifier ident, StructType schema, Transform[] partitions,
            Map<String, String> properties) {
        throw new LakeReadOnlyException("CREATE TABLE " + ident);
    }

    @Override
    public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions,
            Map<String, String> properties) {
        throw new LakeReadOnlyException("REPLACE TABLE " + ident);
    }

    @Override
    public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions,
            Map<String, String> properties) {
        throw new LakeReadOnlyException("CREATE OR REPLACE TABLE " + ident);
    }

    @Override
    public Table alterTable(Identifier ident, TableChange... changes) {
        throw new LakeReadOnlyException("ALTER TABLE " + ident);
    }

    @Override
    public boolean dropTable(Identifier ident) {
        throw new LakeReadOnlyException("DROP TABLE " + ident);
    }

    @Override
    public boolean purgeTable(Identifier ident) {
        throw new LakeReadOnlyException("DROP TABLE " + ident + " PURGE");
    }

    @Override
    public void renameTable(Identifier oldIdent, Identifier newIdent) {
        throw new LakeReadOnlyException("RENAME TABLE " + oldIdent);
    }

    @Override
    public void createNamespace(String[] namespace, Map<String, String> properties) {
        throw new LakeReadOnlyException("CREATE NAMESPACE " + String.join(".", namespace));
    }

    @Override
    public void alterNamespace(String[] namespace, NamespaceChange... changes) {
        throw new LakeReadOnlyException("ALTER NAMESPACE " + String.join(".", namespace));
    }

    @Override
    public boolean dropNamespace(String[] namespace, boolean cascade) {
        throw new LakeReadOnlyException("DROP NAMESPACE " + String.join(".", namespace));
    }
}
