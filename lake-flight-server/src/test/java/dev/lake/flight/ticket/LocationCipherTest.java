package dev.lake.flight.ticket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.flight.auth.Signer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The location cipher keeps one AES/GCM cipher per thread: every seal still takes a fresh nonce, every sealed text
 * opens on any thread and any node of the cluster, and a tampered or foreign one is refused — also right after a
 * refusal on the same thread, and under concurrent use.
 */
class LocationCipherTest {
  private static Signer signer(int fill) {
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) fill);
    return new Signer(secret);
  }

  @Test
  void sealedLocationsOpenEverywhereAndTamperedOnesAreRefused() throws Exception {
    LocationCipher cipher = new LocationCipher(signer(7));
    LocationCipher otherNode = new LocationCipher(signer(7));
    Set<String> sealed = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      String text = cipher.seal("s3://bucket/tables/t/" + (i % 3));
      assertThat(sealed.add(text)).as("a fresh nonce per seal").isTrue();
      assertThat(otherNode.open(text)).isEqualTo("s3://bucket/tables/t/" + (i % 3));
    }
    String one = cipher.seal("/data/t");
    char[] chars = one.toCharArray();
    chars[chars.length - 2] = chars[chars.length - 2] == 'A' ? 'B' : 'A';
    assertThatThrownBy(() -> cipher.open(new String(chars))).isInstanceOf(InvalidTicketException.class);
    assertThatThrownBy(() -> new LocationCipher(signer(8)).open(one)).isInstanceOf(InvalidTicketException.class);
    assertThat(cipher.open(one)).as("the thread's cipher works after a refusal").isEqualTo("/data/t");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int worker = t;
        results.add(pool.submit(() -> {
          for (int i = 0; i < 500; i++) {
            String location = "/data/" + worker + "/" + i;
            if (!otherNode.open(cipher.seal(location)).equals(location)) {
              return false;
            }
          }
          return true;
        }));
      }
      for (Future<Boolean> result : results) {
        assertThat(result.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
