/**
 * Self-contained, signed client state: prepared-statement handles and tickets carry everything a node needs to
 * serve them (SQL, parameters, pinned versions, user, expiry), signed with the cluster secret.
 */
package dev.lake.flight.ticket;
