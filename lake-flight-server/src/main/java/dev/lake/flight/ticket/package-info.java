/**
 * Self-contained, signed client state: prepared-statement handles and tickets carry everything a node needs to
 * serve them (SQL, parameters, pinned versions, user, expiry, query id), signed with the cluster secret; likewise the
 * poll descriptors and spooled-part tickets of heavy results ({@link dev.lake.flight.ticket.SpoolTokens}).
 */
package dev.lake.flight.ticket;
