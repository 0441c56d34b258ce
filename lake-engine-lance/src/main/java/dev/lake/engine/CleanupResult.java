package dev.lake.engine;

/**
 * What one {@link TableEngine#cleanup} removed.
 *
 * @param beforeVersion the bound handed to Lance: versions below it that were removable are gone
 * @param versionsRemoved manifests (versions) removed
 * @param dataFilesRemoved data files removed (referenced only by removed versions, or unreferenced and older
 *     than Lance's fixed 7 days)
 * @param deletionFilesRemoved deletion files removed
 * @param transactionFilesRemoved transaction files removed
 * @param indexFilesRemoved index files removed
 * @param bytesRemoved bytes removed in total
 */
public record CleanupResult(long beforeVersion, long versionsRemoved, long dataFilesRemoved,
    long deletionFilesRemoved, long transactionFilesRemoved, long indexFilesRemoved, long bytesRemoved) {}
