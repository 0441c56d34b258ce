package dev.lake.query;

import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.Test;

class TpchScratchTest extends LakeTestSupport {
  @Override
  void createTables() {
    double sf = Double.parseDouble(System.getProperty("tpch.sf", "0.01"));
    for (TpchTable<?> table : TpchTable.getTables()) {
      createTable(table.getTableName(), TpchTestData.schema(table), TpchTestData.rows(table, sf));
    }
  }

  @Test
  void run() {
    String only = System.getProperty("tpch.q", "");
    for (int q = 1; q <= 22; q++) {
      if (!only.isEmpty() && !only.equals(String.valueOf(q))) {
        continue;
      }
      String sql = TpchTestData.query(q);
      try {
        long t0 = System.nanoTime();
        Result plan = query("EXPLAIN PLAN FOR " + sql);
        long t1 = System.nanoTime();
        Result rows = query(sql);
        long t2 = System.nanoTime();
        Result again = query(sql);
        long t3 = System.nanoTime();
        System.out.printf("Q%d explain=%dms first=%dms second=%dms rows=%d %s%n", q, (t1 - t0) / 1_000_000,
            (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, rows.rows().size(), service.pushdownStats());
        if (System.getProperty("tpch.plan") != null) {
          plan.rows().forEach(r -> System.out.println("   " + r.get(0)));
          rows.rows().stream().limit(5).forEach(r -> System.out.println("   > " + r));
        }
      } catch (RuntimeException e) {
        System.out.printf("Q%d FAILED %s%n", q, e);
      }
    }
  }
}
