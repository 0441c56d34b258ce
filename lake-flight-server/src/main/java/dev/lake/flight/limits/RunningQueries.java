package dev.lake.flight.limits;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This node's running queries by query id (the id a ticket carries; several DoGets of one ticket share it), and the
 * ids cancelled before any DoGet of theirs ran here, kept until their ticket expires so a later DoGet of that ticket
 * is refused. Nodes share nothing: a cancel reaches the queries running on the node that receives it.
 */
public final class RunningQueries {
  /** At most this many cancelled ids are remembered; past it the oldest expiries are dropped first. */
  static final int MAX_CANCELLED = 100_000;
  private final Map<String, Set<QueryControl>> running = new ConcurrentHashMap<>();
  private final Map<String, Instant> cancelled = new ConcurrentHashMap<>();
  private final Clock clock;

  public RunningQueries(Clock clock) {
    this.clock = clock;
  }

  /** What a cancel did. */
  public enum Outcome {
    /** One or more running queries were stopped. */
    STOPPED,
    /** Nothing ran here; later DoGets of the ticket on this node are refused. */
    REFUSED_FROM_NOW
  }

  void register(QueryControl control) {
    Instant until = cancelled.get(control.queryId());
    if (until != null && clock.instant().isBefore(until)) {
      throw new QueryCancelledException("the query was cancelled (CancelFlightInfo): run it again for a new ticket");
    }
    running.computeIfAbsent(control.queryId(), k -> ConcurrentHashMap.newKeySet()).add(control);
  }

  void unregister(QueryControl control) {
    running.computeIfPresent(control.queryId(), (k, set) -> {
      set.remove(control);
      return set.isEmpty() ? null : set;
    });
  }

  /** Stops every running query with {@code queryId} and refuses its ticket on this node until {@code until}. */
  public Outcome cancel(String queryId, Instant until) {
    remember(queryId, until);
    Set<QueryControl> controls = running.get(queryId);
    boolean stopped = false;
    if (controls != null) {
      for (QueryControl c : controls) {
        stopped |= c.stop(new QueryCancelledException("the query was cancelled (CancelFlightInfo)"));
      }
    }
    return stopped ? Outcome.STOPPED : Outcome.REFUSED_FROM_NOW;
  }

  /** How many queries run on this node now. */
  public int size() {
    return running.values().stream().mapToInt(Set::size).sum();
  }

  private void remember(String queryId, Instant until) {
    Instant now = clock.instant();
    if (cancelled.size() >= MAX_CANCELLED / 2) {
      cancelled.values().removeIf(t -> !now.isBefore(t));
    }
    while (cancelled.size() >= MAX_CANCELLED) {
      cancelled.entrySet().stream().min(Map.Entry.comparingByValue())
          .ifPresent(oldest -> cancelled.remove(oldest.getKey(), oldest.getValue()));
    }
    if (now.isBefore(until)) {
      cancelled.put(queryId, until);
    }
  }
}
