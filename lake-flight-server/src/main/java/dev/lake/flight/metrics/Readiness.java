package dev.lake.flight.metrics;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Whether this node should get traffic ({@code /ready}): it has warmed up — a query of a registered table is answered
 * now (the start-up warm-up ran the catalog snapshot and one real query: Lance's native library, a dataset open,
 * planning) —, the registry answers a point read within {@link #REGISTRY_TIMEOUT}, and, on a cluster node, this node
 * leads or knows the leader (so writes can be forwarded).
 * The registry read runs on one named thread with a short queue: a hanging registry makes the node not ready, never a
 * pile of blocked probe threads.
 */
public final class Readiness implements AutoCloseable {
  static final Duration REGISTRY_TIMEOUT = Duration.ofSeconds(2);

  private final Callable<?> registryCheck;
  private final LeaderView leader;
  private final Supplier<Optional<String>> warmup;
  private final ThreadPoolExecutor executor;

  /** What readiness asks about leadership. */
  public interface LeaderView {
    /** True while this node leads (always on a single node). */
    boolean isLeader();

    /** The leader's node id when another node leads and this one knows it. */
    Optional<String> knownLeader();
  }

  /** One readiness answer: ready or not, with each check's result. */
  public record Report(boolean ready, Map<String, String> checks) {
    public Report {
      checks = Map.copyOf(checks);
    }
  }

  /** @param registryCheck a cheap registry read (its result is ignored; throwing means unreachable) */
  public Readiness(Callable<?> registryCheck, LeaderView leader) {
    this(registryCheck, leader, Optional::empty);
  }

  /**
   * @param warmup empty once the node has warmed up (a query of a registered table is answered now); otherwise what
   *     is still running or what failed
   */
  public Readiness(Callable<?> registryCheck, LeaderView leader, Supplier<Optional<String>> warmup) {
    this.registryCheck = Objects.requireNonNull(registryCheck, "registryCheck");
    this.leader = Objects.requireNonNull(leader, "leader");
    this.warmup = Objects.requireNonNull(warmup, "warmup");
    AtomicInteger n = new AtomicInteger();
    this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(4), r -> {
      Thread t = new Thread(r, "lake-readiness-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    }, new ThreadPoolExecutor.AbortPolicy());
  }

  public Report check() {
    Map<String, String> checks = new LinkedHashMap<>();
    Optional<String> warming = warmup.get();
    checks.put("warmup", warming.orElse("done"));
    boolean registry = registry(checks);
    boolean leads = leader.isLeader();
    Optional<String> known = leads ? Optional.empty() : leader.knownLeader();
    checks.put("leader", leads ? "this node" : known.map(id -> "known: " + id).orElse("unknown"));
    return new Report(warming.isEmpty() && registry && (leads || known.isPresent()), checks);
  }

  private boolean registry(Map<String, String> checks) {
    Future<?> read;
    try {
      read = executor.submit(registryCheck);
    } catch (RejectedExecutionException e) {
      checks.put("registry", "unreachable: earlier checks are still waiting for it");
      return false;
    }
    try {
      read.get(REGISTRY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      checks.put("registry", "ok");
      return true;
    } catch (TimeoutException e) {
      read.cancel(true);
      checks.put("registry", "unreachable: no answer within " + REGISTRY_TIMEOUT.toMillis() + " ms");
    } catch (ExecutionException e) {
      checks.put("registry", "unreachable: " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      checks.put("registry", "unknown: interrupted");
    }
    return false;
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
