package dev.lake.flight.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SignerTest {
  private static final byte[] SECRET = secret();

  @Test
  void aSealIsTheHmacSha256OfDomainZeroAndPayloadThenThePayload() throws Exception {
    byte[] payload = "ticket".getBytes(StandardCharsets.UTF_8);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
    mac.update("lake.test".getBytes(StandardCharsets.UTF_8));
    mac.update((byte) 0);
    byte[] expected = mac.doFinal(payload);
    Signer signer = new Signer(SECRET);
    for (int i = 0; i < 3; i++) { // each seal starts from the key alone, not from the previous seal's state
      byte[] sealed = signer.seal("lake.test", payload);
      assertThat(Arrays.copyOf(sealed, 32)).isEqualTo(expected);
      assertThat(Arrays.copyOfRange(sealed, 32, sealed.length)).isEqualTo(payload);
    }
    assertThat(signer.open("lake.test", signer.seal("lake.test", payload))).hasValue(payload);
    assertThat(signer.open("lake.other", signer.seal("lake.test", payload))).isEmpty();
  }

  @Test
  void concurrentSealsDoNotShareState() throws Exception {
    Signer signer = new Signer(SECRET);
    ExecutorService pool = Executors.newFixedThreadPool(4, r -> new Thread(r, "signer-test"));
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int id = t;
        results.add(pool.submit(() -> {
          byte[] payload = ("payload-" + id).getBytes(StandardCharsets.UTF_8);
          byte[] first = signer.seal("lake.test", payload);
          for (int i = 0; i < 5_000; i++) {
            if (!Arrays.equals(first, signer.seal("lake.test", payload))
                || signer.open("lake.test", first).isEmpty()) {
              return false;
            }
          }
          return true;
        }));
      }
      for (Future<Boolean> result : results) {
        assertThat(result.get(60, TimeUnit.SECONDS)).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static byte[] secret() {
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) 5);
    return secret;
  }
}
