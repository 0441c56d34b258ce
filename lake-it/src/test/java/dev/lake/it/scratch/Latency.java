package dev.lake.it.scratch;

import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.FlightTestClient;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;

public class Latency {
  public static void main(String[] args) throws Exception {
    try (LakeTestServer server = LakeTestServer.start(args.length > 0 ? java.nio.file.Path.of(args[0]) : Files.createTempDirectory("lat"));
        FlightTestClient client = server.client();
        Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
      String sql = args.length > 1 ? dev.lake.it.tpch.TpchQueries.sql(Integer.parseInt(args[1])) : "SELECT 1 AS x";
      for (int round = 0; round < 3; round++) {
        int N = args.length > 1 ? 20 : 200;
        long[] j = new long[N];
        long[] f = new long[N];
        for (int i = 0; i < N; i++) {
          long t0 = System.nanoTime();
          try (Statement s = jdbc.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) { r.getObject(1); }
          }
          long t1 = System.nanoTime();
          FlightInfo info = client.sql().execute(sql, client.auth());
          for (FlightEndpoint e : info.getEndpoints()) {
            try (FlightStream st = client.sql().getStream(e.getTicket(), client.auth())) {
              while (st.next()) { }
            }
          }
          long t2 = System.nanoTime();
          j[i] = t1 - t0; f[i] = t2 - t1;
          long p0 = System.nanoTime();
          try (var prepared = client.sql().prepare(sql, client.auth())) {
            long p1 = System.nanoTime();
            FlightInfo pinfo = prepared.execute(client.auth());
            long p2 = System.nanoTime();
            for (FlightEndpoint e : pinfo.getEndpoints()) {
              try (FlightStream st = client.sql().getStream(e.getTicket(), client.auth())) {
                while (st.next()) { }
              }
            }
            long p3 = System.nanoTime();
            if (i == N - 1) System.out.printf("prepare %.2f execute %.2f stream %.2f%n", (p1 - p0) / 1e6, (p2 - p1) / 1e6, (p3 - p2) / 1e6);
            prepared.close(client.auth());
          }
        }
        Arrays.sort(j); Arrays.sort(f);
        System.out.printf("jdbc p50 %.2f ms p90 %.2f; flight p50 %.2f p90 %.2f%n", j[N / 2] / 1e6, j[N * 9 / 10] / 1e6, f[N / 2] / 1e6, f[N * 9 / 10] / 1e6);
      }
    }
    System.exit(0);
  }
}
