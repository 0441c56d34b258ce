package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.plan.SubtreeExecutor;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Sub-queries (EXISTS, IN, NOT EXISTS, NOT IN, scalar) and outer joins in lake's vectorized join: TPC-H-shaped
 * statements (Q13, Q16, Q20, Q21, Q22) over small random tables with NULLs in every join key answer exactly what
 * Calcite's own operators answer ({@code query.executor=calcite}, nothing vectorized), and EXPLAIN shows the
 * vectorized join with the kinds of its joins; the probe and build sides follow the estimated filtered row counts.
 */
class VectorizedSemiJoinTest extends LakeTestSupport {
  private static final Schema CUST = new Schema(List.of(
      Field.nullable("c_custkey", new ArrowType.Int(64, true)),
      Field.notNullable("c_nation", ArrowType.Utf8.INSTANCE),
      Field.nullable("c_acctbal", new ArrowType.Decimal(12, 2, 128)),
      Field.nullable("c_phone", ArrowType.Utf8.INSTANCE)));
  private static final Schema ORD = new Schema(List.of(
      Field.nullable("o_orderkey", new ArrowType.Int(64, true)),
      Field.nullable("o_custkey", new ArrowType.Int(64, true)),
      Field.notNullable("o_status", ArrowType.Utf8.INSTANCE),
      Field.nullable("o_comment", ArrowType.Utf8.INSTANCE)));
  private static final Schema LI = new Schema(List.of(
      Field.nullable("l_orderkey", new ArrowType.Int(64, true)),
      Field.nullable("l_partkey", new ArrowType.Int(32, true)),
      Field.nullable("l_suppkey", new ArrowType.Int(32, true)),
      Field.notNullable("l_quantity", new ArrowType.Decimal(12, 2, 128)),
      Field.notNullable("l_commitdate", new ArrowType.Date(DateUnit.DAY)),
      Field.notNullable("l_receiptdate", new ArrowType.Date(DateUnit.DAY)),
      Field.notNullable("l_shipmode", ArrowType.Utf8.INSTANCE)));
  private static final Schema SUPP = new Schema(List.of(
      Field.nullable("s_suppkey", new ArrowType.Int(32, true)),
      Field.notNullable("s_name", ArrowType.Utf8.INSTANCE),
      Field.notNullable("s_comment", ArrowType.Utf8.INSTANCE)));
  private static final Schema PART = new Schema(List.of(
      Field.nullable("p_partkey", new ArrowType.Int(32, true)),
      Field.notNullable("p_brand", ArrowType.Utf8.INSTANCE),
      Field.notNullable("p_size", new ArrowType.Int(32, true))));
  private static final Schema PS = new Schema(List.of(
      Field.nullable("ps_partkey", new ArrowType.Int(32, true)),
      Field.nullable("ps_suppkey", new ArrowType.Int(32, true)),
      Field.notNullable("ps_availqty", new ArrowType.Int(32, true))));
  private static final LocalDate DAY0 = LocalDate.of(1995, 3, 1);
  private static final String[] COMMENTS = {"plain", "special requests", "very special late requests", "x"};
  private static final int ROUNDS = 3;

  private QueryService calcite;

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withExecutor(SubtreeExecutor.AUTO).withBatchSize(1_000);
  }

  @Override
  void createTables() {
    Random random = new Random(22);
    List<List<Object>> cust = new ArrayList<>();
    for (long k = 0; k < 400; k++) {
      cust.add(row(nullOr(random, k), "n" + random.nextInt(5), nullOr(random,
          BigDecimal.valueOf(random.nextInt(200_000) - 50_000, 2)), nullOr(random, phone(random))));
    }
    createTable("cust", CUST, cust);
    // Orders of the first two thirds of the customers only (the others have none), some of NULL customers.
    List<List<Object>> ord = new ArrayList<>();
    for (long k = 0; k < 1_500; k++) {
      ord.add(row(nullOr(random, k), nullOr(random, (long) random.nextInt(270)), random.nextBoolean() ? "F" : "O",
          nullOr(random, COMMENTS[random.nextInt(COMMENTS.length)])));
    }
    createTable("ord", ORD, ord);
    var li = createTable("li", LI, lineitems(random, 0));
    appendRows(li, LI, lineitems(random, 1));
    List<List<Object>> supp = new ArrayList<>();
    for (int k = 0; k < 40; k++) {
      supp.add(row(nullOr(random, k), "s" + (k % 13), COMMENTS[random.nextInt(COMMENTS.length)]));
    }
    supp.add(row(null, "s-null", "x"));
    createTable("supp", SUPP, supp);
    List<List<Object>> part = new ArrayList<>();
    for (int k = 0; k < 60; k++) {
      part.add(row(nullOr(random, k), "b" + random.nextInt(4), random.nextInt(8)));
    }
    createTable("part", PART, part);
    List<List<Object>> ps = new ArrayList<>();
    for (int k = 0; k < 900; k++) {
      ps.add(row(nullOr(random, random.nextInt(65)), nullOr(random, random.nextInt(45)), random.nextInt(60)));
    }
    createTable("ps", PS, ps);
    calcite = new QueryService(catalog, engine, QueryOptions.defaults().withExecutor(SubtreeExecutor.CALCITE));
  }

  private static List<List<Object>> lineitems(Random random, int fragment) {
    List<List<Object>> rows = new ArrayList<>();
    String[] modes = {"MAIL", "SHIP", "AIR", "RAIL", "TRUCK", "FOB", "REG AIR"};
    for (int i = 0; i < 5_000; i++) {
      LocalDate commit = DAY0.plusDays(random.nextInt(40));
      rows.add(row(nullOr(random, (long) random.nextInt(1_600)), nullOr(random, random.nextInt(65)),
          nullOr(random, random.nextInt(45)), BigDecimal.valueOf(random.nextInt(5_000), 2), commit,
          commit.plusDays(random.nextInt(11) - 5), modes[random.nextInt(modes.length)]));
    }
    return rows;
  }

  /** A phone number whose first two characters are the country code; a few shorter, a few not ASCII. */
  private static String phone(Random random) {
    int kind = random.nextInt(20);
    String code = kind == 0 ? "é" + random.nextInt(3) : kind == 1 ? "" + random.nextInt(3) : "1" + random.nextInt(4);
    return kind == 1 ? code : code + "-" + (100 + random.nextInt(900)) + "-" + (1000 + random.nextInt(9000));
  }

  @AfterAll
  void closeServices() {
    calcite.close();
  }

  private static <T> T nullOr(Random random, T value) {
    return random.nextInt(12) == 0 ? null : value;
  }

  /**
   * EXISTS and IN (semi joins: an inner join with the sub-query's distinct keys), NOT EXISTS (an anti join: the outer
   * join's unmatched rows), NOT IN (the null-aware anti join: NULLs on either side decide by the sub-query's counts)
   * and scalar sub-queries (a join with one row), in the shapes of TPC-H Q21, Q22, Q16 and Q20.
   */
  @Test
  void semiAndAntiJoinsRunVectorized() {
    Random random = new Random(21);
    for (int round = 0; round < ROUNDS; round++) {
      int bal = random.nextInt(500) - 100;
      String comment = COMMENTS[random.nextInt(COMMENTS.length)];
      int size = random.nextInt(8);
      // Q22: NOT EXISTS and a scalar sub-query over the probe table.
      check("SELECT c_nation, COUNT(*) AS numcust, SUM(c_acctbal) AS totacctbal FROM cust"
          + " WHERE c_acctbal > (SELECT AVG(c_acctbal) FROM cust WHERE c_acctbal > " + bal + ".00)"
          + " AND NOT EXISTS (SELECT * FROM ord WHERE o_custkey = c_custkey) GROUP BY c_nation ORDER BY c_nation",
          "probe-outer");
      // Q22 as TPC-H writes it: country codes by SUBSTRING, an IN list of strings, the scalar sub-query's AVG.
      String codes = "'1" + random.nextInt(4) + "', '1" + random.nextInt(4) + "', 'é" + random.nextInt(3) + "', '"
          + random.nextInt(3) + "'";
      check("SELECT cntrycode, COUNT(*) AS numcust, SUM(c_acctbal) AS totacctbal FROM (SELECT"
          + " SUBSTRING(c_phone FROM 1 FOR 2) AS cntrycode, c_acctbal FROM cust WHERE SUBSTRING(c_phone FROM 1 FOR 2)"
          + " IN (" + codes + ") AND c_acctbal > (SELECT AVG(c_acctbal) FROM cust WHERE c_acctbal > 0.00"
          + " AND SUBSTRING(c_phone FROM 1 FOR 2) IN (" + codes + ")) AND NOT EXISTS (SELECT * FROM ord"
          + " WHERE o_custkey = c_custkey)) AS custsale GROUP BY cntrycode ORDER BY cntrycode", "probe-outer");
      String tail = "SUBSTRING(c_phone FROM " + (1 + random.nextInt(3)) + ")";
      String mid = "SUBSTRING(c_phone FROM " + (2 + random.nextInt(3)) + " FOR " + random.nextInt(3) + ")";
      check("SELECT " + tail + " AS tail, " + mid + " AS mid, COUNT(*) AS n FROM cust, ord"
          + " WHERE c_custkey = o_custkey GROUP BY " + tail + ", " + mid, "inner");
      // Q16: NOT IN over a sub-query with (sometimes) a NULL key, and one that is empty, then COUNT(DISTINCT).
      String notIn = round % 3 == 0 ? "s_comment = 'no such comment'" : round % 3 == 1
          ? "s_comment LIKE '%" + comment + "%'" : "s_comment LIKE '%" + comment + "%' AND s_suppkey IS NOT NULL";
      check("SELECT p_brand, p_size, COUNT(DISTINCT ps_suppkey) AS supplier_cnt FROM ps, part"
          + " WHERE p_partkey = ps_partkey AND p_brand <> 'b" + random.nextInt(4) + "' AND p_size <> " + size
          + " AND ps_suppkey NOT IN (SELECT s_suppkey FROM supp WHERE " + notIn + ")"
          + " GROUP BY p_brand, p_size ORDER BY supplier_cnt DESC, p_brand, p_size", "probe-outer");
      check("SELECT p_brand, COUNT(*) AS n, SUM(ps_availqty) AS q FROM ps JOIN part ON p_partkey = ps_partkey"
          + " WHERE ps_suppkey NOT IN (SELECT s_suppkey FROM supp WHERE " + notIn + ") GROUP BY p_brand",
          "probe-outer");
      // Q20: IN, nested IN and a correlated scalar sub-query.
      String q20 = "SELECT s_name, COUNT(*) AS n FROM supp WHERE s_suppkey IN (SELECT ps_suppkey FROM ps"
          + " WHERE ps_partkey IN (SELECT p_partkey FROM part WHERE p_brand = 'b" + random.nextInt(4) + "')"
          + " AND ps_availqty > (SELECT 0.5 * SUM(l_quantity) FROM li WHERE l_partkey = ps_partkey"
          + " AND l_suppkey = ps_suppkey AND l_commitdate >= DATE '1995-03-" + (10 + random.nextInt(9)) + "'))"
          + " GROUP BY s_name";
      check(q20, "inner");
      // Q21 with equi-correlated EXISTS and NOT EXISTS.
      check("SELECT s_name, COUNT(*) AS numwait FROM supp, li l1, ord"
          + " WHERE s_suppkey = l1.l_suppkey AND o_orderkey = l1.l_orderkey AND o_status = 'F'"
          + " AND l1.l_receiptdate > l1.l_commitdate"
          + " AND EXISTS (SELECT * FROM li l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_partkey = l1.l_partkey"
          + " AND l2.l_shipmode <> 'MAIL')"
          + " AND NOT EXISTS (SELECT * FROM li l3 WHERE l3.l_orderkey = l1.l_orderkey"
          + " AND l3.l_partkey = l1.l_partkey AND l3.l_receiptdate > l3.l_commitdate AND l3.l_shipmode = 'RAIL')"
          + " GROUP BY s_name ORDER BY numwait DESC, s_name LIMIT 100", "probe-outer");
    }
    // Q21 as TPC-H writes it (the sub-queries' non-equi l_suppkey <> l1.l_suppkey, NULL supplier keys on both
    // sides): a semi and an anti join with each order's MIN and MAX supplier key (CorrelatedSemiJoins).
    String q21 = "SELECT s_name, COUNT(*) AS numwait FROM supp, li l1, ord"
        + " WHERE s_suppkey = l1.l_suppkey AND o_orderkey = l1.l_orderkey AND o_status = 'F'"
        + " AND l1.l_receiptdate > l1.l_commitdate"
        + " AND EXISTS (SELECT * FROM li l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)"
        + " AND NOT EXISTS (SELECT * FROM li l3 WHERE l3.l_orderkey = l1.l_orderkey"
        + " AND l3.l_suppkey <> l1.l_suppkey AND l3.l_receiptdate > l3.l_commitdate)"
        + " GROUP BY s_name ORDER BY numwait DESC, s_name LIMIT 100";
    check(q21, "semi");
    check(q21, "anti");
    // The NOT EXISTS's aggregate is reduced by the outer join's keys, not by them after the EXISTS: no semi join runs
    // again inside the anti join's build side.
    String q21Plan = explain(service, q21);
    assertThat(q21Plan.lines().filter(line -> line.contains("semi"))).as(q21Plan).hasSize(1);
    // The same over a string column, where a order's rows may all share one value, and with a NULL-free key.
    check("SELECT l1.l_shipmode, COUNT(*) AS n FROM li l1 WHERE l1.l_receiptdate > l1.l_commitdate"
        + " AND EXISTS (SELECT * FROM li l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_shipmode <> l1.l_shipmode)"
        + " GROUP BY l1.l_shipmode", "semi");
    check("SELECT l1.l_shipmode, COUNT(*) AS n, SUM(l1.l_quantity) AS q FROM li l1 WHERE NOT EXISTS (SELECT * FROM"
        + " li l3 WHERE l3.l_orderkey = l1.l_orderkey AND l3.l_partkey = l1.l_partkey"
        + " AND l3.l_shipmode <> l1.l_shipmode AND l3.l_quantity > 10.00) GROUP BY l1.l_shipmode", "anti");
    // Other residuals over both sides' columns: a semi and an anti join whose probe checks the residual on each
    // candidate build row (without the outer NULL key filter: NULL l_suppkey rows reach it).
    check("SELECT l1.l_shipmode, COUNT(*) AS n, SUM(l1.l_quantity) AS q FROM li l1 WHERE"
        + " EXISTS (SELECT * FROM li l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey"
        + " AND l2.l_quantity > l1.l_quantity) AND NOT EXISTS (SELECT * FROM li l3 WHERE l3.l_orderkey ="
        + " l1.l_orderkey AND l3.l_partkey = l1.l_partkey AND (l3.l_suppkey < l1.l_suppkey OR l3.l_shipmode ="
        + " l1.l_shipmode) AND l3.l_receiptdate > l3.l_commitdate) GROUP BY l1.l_shipmode", "semi");
    check("SELECT l1.l_shipmode, COUNT(*) AS n FROM li l1 WHERE NOT EXISTS (SELECT * FROM li l3 WHERE"
        + " l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey AND l3.l_partkey < l1.l_partkey)"
        + " GROUP BY l1.l_shipmode", "anti");
    // Not under an aggregate: Calcite's runtime runs the semi and anti joins.
    String rows = "SELECT l1.l_orderkey, l1.l_suppkey, l1.l_shipmode FROM li l1 WHERE l1.l_quantity < 5.00 AND"
        + " EXISTS (SELECT * FROM li l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey"
        + " AND l2.l_quantity > l1.l_quantity) AND NOT EXISTS (SELECT * FROM li l3 WHERE l3.l_orderkey ="
        + " l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey AND l3.l_receiptdate > l3.l_commitdate)";
    assertThat(answer(service, rows)).as(rows).isEqualTo(answer(calcite, rows)).isNotEmpty();
  }


  /** LEFT, RIGHT and FULL outer joins: the NULL-extended rows count, group and sum exactly. */
  @Test
  void outerJoinsRunVectorized() {
    Random random = new Random(13);
    for (int round = 0; round < ROUNDS; round++) {
      String comment = COMMENTS[random.nextInt(COMMENTS.length)];
      // Q13: COUNT of the null-producing side's column, grouped twice.
      check("SELECT c_count, COUNT(*) AS custdist FROM (SELECT c_custkey, COUNT(o_orderkey) AS c_count"
          + " FROM cust LEFT OUTER JOIN ord ON c_custkey = o_custkey AND o_comment NOT LIKE '%" + comment + "%'"
          + " GROUP BY c_custkey) AS c_orders (c_custkey, c_count) GROUP BY c_count"
          + " ORDER BY custdist DESC, c_count DESC", "probe-outer");
      int bal = random.nextInt(1_000);
      // The preserved side is the smaller: the probe is the other one, and the unmatched build rows come out last.
      check("SELECT c_nation, COUNT(*) AS n, COUNT(o_orderkey) AS orders, MIN(o_orderkey) AS o, SUM(c_acctbal) AS b"
          + " FROM cust LEFT JOIN ord ON c_custkey = o_custkey AND o_status = 'F' WHERE c_acctbal > " + bal
          + ".00 OR c_acctbal IS NULL GROUP BY c_nation", "build-outer");
      check("SELECT o_status, COUNT(*) AS n, COUNT(c_custkey) AS custs, SUM(c_acctbal) AS b, MAX(c_acctbal) AS m"
          + " FROM cust RIGHT JOIN ord ON c_custkey = o_custkey AND c_acctbal > " + bal + ".00 GROUP BY o_status",
          "probe-outer");
      check("SELECT c_nation, o_status, COUNT(*) AS n, COUNT(o_orderkey) AS k, SUM(c_acctbal) AS b"
          + " FROM cust FULL OUTER JOIN ord ON c_custkey = o_custkey AND o_comment <> '" + comment + "'"
          + " GROUP BY c_nation, o_status", "full-outer");
      check("SELECT COUNT(*) AS n, COUNT(c_custkey) AS k, COUNT(o_orderkey) AS o FROM ord FULL JOIN cust"
          + " ON c_custkey = o_custkey", "full-outer");
    }
  }

  /**
   * TPC-H Q2's shape: a correlated scalar {@code MIN} sub-query, decorrelated into an aggregate per part joined with
   * the outer rows by part key and by the minimum, runs in Calcite's join; the aggregate is reduced to the part keys
   * the outer query's filtered scan holds (a build side of its vectorized join) instead of every part's minimum.
   */
  @Test
  void scalarSubQueryAggregateJoinedByItsGroupKeyIsReducedToTheOuterKeys() {
    Random random = new Random(2);
    for (int round = 0; round < ROUNDS; round++) {
      int size = random.nextInt(8);
      String comment = COMMENTS[random.nextInt(COMMENTS.length)];
      String q2 = "SELECT s_name, p_partkey, p_brand, ps_availqty FROM part, supp, ps"
          + " WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND p_size = " + size
          + " AND ps_availqty = (SELECT MIN(ps_availqty) FROM ps, supp WHERE p_partkey = ps_partkey"
          + " AND s_suppkey = ps_suppkey AND s_comment <> '" + comment + "')"
          + " ORDER BY ps_availqty DESC, s_name, p_partkey, p_brand";
      String plan = explain(service, q2);
      assertThat(plan).as(q2).contains("EnumerableVectorJoin(probe=[ps]")
          .containsPattern("(?s)EnumerableVectorJoin\\(probe=\\[ps\\].*aggregate over 2 inner equi-join.*"
              + "table=\\[part\\].*GROUP BY \"p_partkey\"");
      assertThat(answer(service, q2)).as(q2).isEqualTo(answer(calcite, q2)).isNotEmpty();
    }
  }

  /**
   * The probe and build sides follow the estimated row counts after each scan's filter (TPC-H Q12: a selective
   * lineitem filter makes lineitem the build side and orders the probe).
   */
  @Test
  void buildSideFollowsFilteredRowEstimates() {
    String q12 = "SELECT l_shipmode, SUM(CASE WHEN o_status = 'F' THEN 1 ELSE 0 END) AS f, COUNT(*) AS n"
        + " FROM ord, li WHERE o_orderkey = l_orderkey AND l_shipmode IN ('MAIL', 'SHIP')"
        + " AND l_commitdate < l_receiptdate AND l_receiptdate >= DATE '1995-03-10'"
        + " AND l_receiptdate < DATE '1995-03-20' GROUP BY l_shipmode ORDER BY l_shipmode";
    String plan = explain(service, q12);
    assertThat(plan).startsWith("join-vectorized").contains("EnumerableVectorJoin(probe=[ord]")
        .containsPattern("LanceTableScan\\(table=\\[\\[lake, main, li\\]\\].*filter=");
    assertThat(answer(service, q12)).isEqualTo(answer(calcite, q12));
  }

  /** Asserts {@code sql} runs as a vectorized join with a join of {@code kind} and answers what Calcite answers. */
  private void check(String sql, String kind) {
    String plan = explain(service, sql);
    assertThat(plan).as(sql).startsWith("join-vectorized").contains("EnumerableVectorJoin");
    if (!kind.equals("inner")) {
      assertThat(plan).as(sql).containsPattern("joins=\\[\\[[a-z, -]*" + kind);
    }
    assertThat(explain(calcite, sql)).as(sql).doesNotContain("VectorJoin");
    assertThat(answer(service, sql)).as(sql).isEqualTo(answer(calcite, sql));
  }

  private List<List<Object>> answer(QueryService target, String sql) {
    List<List<Object>> rows = new ArrayList<>(collect(target.execute(sql, target.prepare(sql).pins(), List.of(),
        allocator)).rows());
    if (!sql.contains("ORDER BY")) {
      rows.sort(Comparator.comparing(row -> row.stream().map(Objects::toString).toList().toString()));
    }
    return rows;
  }
}
