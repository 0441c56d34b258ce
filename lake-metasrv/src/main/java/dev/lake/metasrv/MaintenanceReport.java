package dev.lake.metasrv;

import java.util.Optional;

/**
 * What one maintenance run of a table did.
 *
 * @param compactedTo the version the compaction registered, if it committed one
 * @param versionsRemoved Lance versions cleaned up
 * @param historyExpired history items expired
 * @param keysExpired idempotency items expired
 * @param orphansDeleted unreferenced data files deleted by the sweep
 */
public record MaintenanceReport(Optional<Long> compactedTo, long versionsRemoved, long historyExpired,
    long keysExpired, long orphansDeleted) {}
