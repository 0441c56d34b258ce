package dev.lake.spark;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs Spark SQL statements read from standard input, one statement per line, against a local Spark session, and
 * prints each answer in a form a test can parse and a person can read:
 *
 * <pre>
 * spark-sql&gt; SELECT count(*) FROM lake.tpch.lineitem
 * 60175
 * -- OK 1 row(s) in 812 ms
 * </pre>
 *
 * A failed statement prints {@code -- ERROR <message>} on one line (the Spark session stays usable). Configuration
 * comes from {@code --conf key=value} arguments (for example the catalog settings of docs/operations.md) and
 * {@code --master}; the default master is {@code local[2]}. Values print as: NULL, plain decimals, hex for binary,
 * ISO-8601 for dates and timestamps (the session time zone is UTC), {@code String.valueOf} otherwise; columns are
 * separated by a tab.
 */
public final class SparkSqlRunner {
    private SparkSqlRunner() {
    }

    public static void main(String[] args) throws Exception {
        SparkSession.Builder builder = SparkSession.builder()
                .appName("lake-spark-reader")
                .master("local[2]")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.datetime.java8API.enabled", "true")
                .config("spark.sql.shuffle.partitions", "4");
        for (int i = 0; i < args.length; i++) {
            if ("--conf".equals(args[i]) && i + 1 < args.length) {
                String kv = args[++i];
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("--conf wants key=value, got " + kv);
                }
                builder.config(kv.substring(0, eq), kv.substring(eq + 1));
            } else if ("--master".equals(args[i]) && i + 1 < args.length) {
                builder.master(args[++i]);
            } else {
                throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (SparkSession spark = builder.getOrCreate()) {
            spark.sparkContext().setLogLevel("ERROR");
            out.println("-- READY Spark " + spark.version());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                String sql = line.strip();
                if (sql.endsWith(";")) {
                    sql = sql.substring(0, sql.length() - 1).strip();
                }
                if (sql.isEmpty()) {
                    continue;
                }
                if ("quit".equalsIgnoreCase(sql) || "exit".equalsIgnoreCase(sql)) {
                    break;
                }
                out.println("spark-sql> " + sql);
                run(spark, sql, out);
            }
        }
        out.println("-- BYE");
    }

    private static void run(SparkSession spark, String sql, PrintStream out) {
        long start = System.nanoTime();
        try {
            Dataset<Row> result = spark.sql(sql);
            List<Row> rows = result.collectAsList();
            StringBuilder text = new StringBuilder();
            for (Row row : rows) {
                text.setLength(0);
                for (int c = 0; c < row.size(); c++) {
                    if (c > 0) {
                        text.append('\t');
                    }
                    text.append(format(row.get(c)));
                }
                out.println(text);
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            out.println("-- OK " + rows.size() + " row(s) in " + ms + " ms");
        } catch (Throwable e) {
            out.println("-- ERROR " + oneLine(e));
        }
    }

    private static String oneLine(Throwable e) {
        StringBuilder text = new StringBuilder();
        Throwable t = e;
        for (int depth = 0; t != null && depth < 6; depth++, t = t.getCause()) {
            if (depth > 0) {
                text.append(" | caused by: ");
            }
            text.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
        }
        return text.toString().replace('\n', ' ').replace('\r', ' ');
    }

    static String format(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof byte[] bytes) {
            StringBuilder hex = new StringBuilder(bytes.length * 2);
            for (byte b : bytes) {
                hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return hex.toString();
        }
        return String.valueOf(value);
    }
}
