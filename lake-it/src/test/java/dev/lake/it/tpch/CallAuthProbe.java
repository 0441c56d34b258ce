package dev.lake.it.tpch;

import dev.lake.flight.auth.BearerTokens;
import dev.lake.flight.auth.Role;
import dev.lake.flight.auth.Signer;
import dev.lake.flight.auth.User;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * A bounded measuring probe for issue 22 (not a benchmark with a report): what the per-call checks every Flight call
 * of a point query goes through cost on this machine, in this JVM: {@link BearerTokens#verify} (every call's bearer
 * token) and one {@link Signer} seal + open (tickets, statement handles and session cookies are sealed with it).
 * Prints the median ns per operation of {@code --rounds} rounds of {@code --n} operations (each round also bounded
 * to 10 s). Run with lake-it's test class path (lake-it/target/bench-point-classpath.txt after
 * {@code bin/lake bench point} built it, preceded by lake-it's test classes and the modules' classes).
 */
public final class CallAuthProbe {
  private static final long ROUND_NANOS = 10_000_000_000L;

  private CallAuthProbe() {}

  public static void main(String[] args) {
    int n = 200_000;
    int rounds = 7;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--n": n = Integer.parseInt(args[++i]); break;
        case "--rounds": rounds = Integer.parseInt(args[++i]); break;
        default: throw new IllegalArgumentException("unknown option " + args[i] + "; use --n N --rounds N");
      }
    }
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) 7);
    Signer signer = new Signer(secret);
    BearerTokens tokens = new BearerTokens(signer, Clock.systemUTC(), Duration.ofHours(1));
    User lake = new User("lake", "pbkdf2$1$c2FsdA$aGFzaA", Role.ADMIN);
    Map<String, User> users = Map.of("lake", lake);
    String token = tokens.issue(lake);
    byte[] payload = "{\"sql\":\"SELECT * FROM orders WHERE o_orderkey = ?\",\"p\":[42]}"
        .getBytes(StandardCharsets.UTF_8);
    long[] verify = new long[rounds];
    long[] seal = new long[rounds];
    for (int r = 0; r < rounds; r++) {
      verify[r] = nanosPerOp(n, () -> {
        if (tokens.verify(token, users).isEmpty()) {
          throw new IllegalStateException("the probe's own token did not verify");
        }
      });
      seal[r] = nanosPerOp(n, () -> {
        if (signer.open("probe", signer.seal("probe", payload)).isEmpty()) {
          throw new IllegalStateException("the probe's own seal did not open");
        }
      });
    }
    Arrays.sort(verify);
    Arrays.sort(seal);
    System.out.printf("[probe] BearerTokens.verify: median %d ns/op (rounds %s)%n", verify[rounds / 2],
        Arrays.toString(verify));
    System.out.printf("[probe] Signer seal+open: median %d ns/op (rounds %s)%n", seal[rounds / 2],
        Arrays.toString(seal));
  }

  private static long nanosPerOp(int n, Runnable op) {
    long start = System.nanoTime();
    int done = 0;
    while (done < n && System.nanoTime() - start < ROUND_NANOS) {
      op.run();
      done++;
    }
    return (System.nanoTime() - start) / Math.max(1, done);
  }
}
