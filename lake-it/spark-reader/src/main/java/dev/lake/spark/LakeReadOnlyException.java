package dev.lake.spark;

/**
 * What Spark raises for a write through {@link LakeCatalog}: lake's namespace serves snapshots to read; writes go
 * through lake's Flight SQL ingest, whose leader keeps the registry the one authority (docs/operations.md).
 */
public final class LakeReadOnlyException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    /** The text lake's namespace endpoint answers every write route with (docs/api.md). */
    public static final String MESSAGE = "lake's Lance namespace is read-only: writes go through Flight SQL ingest "
            + "(bulk ingest or INSERT through a Flight SQL client; docs/api.md)";

    LakeReadOnlyException(String what) {
        super(MESSAGE + " [refused: " + what + "]");
    }
}
