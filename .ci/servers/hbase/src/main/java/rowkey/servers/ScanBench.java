/*
 * What a Java team would read with: HBase's own client (hbase-client of the cluster's version,
 * Table.getScanner), for rowkey-hbase's benchmark of reads (rowkey-hbase/benches/reads.rs). Run
 * beside the Rust reads in one JVM kept warm for the whole benchmark, it takes one read a line on
 * standard input and answers with what it read and how long it took:
 *
 *   connect ZK_HOST:ZK_PORT TABLE     -> ok
 *   scan CACHING KEYS RANGES FUZZY    -> ok ROWS CELLS BYTES NANOS CPU_NANOS
 *
 * KEYS is 1 for keys alone (FirstKeyOnlyFilter and KeyOnlyFilter), else 0. RANGES is a file of
 * lines "START STOP" (hex, STOP empty for the end of the table) read by one scanner with a
 * MultiRowRangeFilter, from the first start to the last stop, or "-" for the whole table. FUZZY is
 * "KEY:MASK[,KEY:MASK...]" (hex; mask 1 for any byte, 0 for this byte) for a FuzzyRowFilter, or
 * "-". Every row's cells are walked, as a reader that uses them would. CPU_NANOS is the CPU time
 * this JVM spent during the scan (every thread of it).
 */
package rowkey.servers;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.util.Pair;

public final class ScanBench {
  private ScanBench() {}

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Connection connection = null;
    Table table = null;
    String line;
    while ((line = in.readLine()) != null) {
      String[] words = line.trim().split(" ");
      try {
        switch (words[0]) {
          case "connect" -> {
            String[] zk = words[1].split(":");
            Configuration conf = HBaseConfiguration.create();
            conf.set("hbase.zookeeper.quorum", zk[0]);
            conf.set("hbase.zookeeper.property.clientPort", zk[1]);
            connection = ConnectionFactory.createConnection(conf);
            table = connection.getTable(TableName.valueOf(words[2]));
            System.out.println("ok");
          }
          case "scan" -> System.out.println(scan(table, words));
          default -> System.out.println("error no such command: " + words[0]);
        }
      } catch (Exception e) {
        System.out.println("error " + e.toString().replace('\n', ' '));
      }
      System.out.flush();
    }
    if (table != null) {
      table.close();
    }
    if (connection != null) {
      connection.close();
    }
  }

  private static String scan(Table table, String[] words) throws Exception {
    int caching = Integer.parseInt(words[1]);
    boolean keysOnly = words[2].equals("1");
    Scan scan = new Scan().setCaching(caching);
    List<Filter> filters = new ArrayList<>();
    if (!words[3].equals("-")) {
      List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>();
      for (String range : Files.readAllLines(Path.of(words[3]))) {
        String[] ends = range.split(" ", -1);
        ranges.add(new MultiRowRangeFilter.RowRange(hex(ends[0]), true, hex(ends[1]), false));
      }
      scan.withStartRow(ranges.get(0).getStartRow());
      scan.withStopRow(ranges.get(ranges.size() - 1).getStopRow());
      filters.add(new MultiRowRangeFilter(ranges));
    }
    if (!words[4].equals("-")) {
      List<Pair<byte[], byte[]>> keys = new ArrayList<>();
      for (String pair : words[4].split(",")) {
        String[] parts = pair.split(":");
        keys.add(new Pair<>(hex(parts[0]), hex(parts[1])));
      }
      filters.add(new FuzzyRowFilter(keys));
    }
    if (keysOnly) {
      filters.add(new FirstKeyOnlyFilter());
      filters.add(new KeyOnlyFilter());
    }
    if (filters.size() == 1) {
      scan.setFilter(filters.get(0));
    } else if (filters.size() > 1) {
      scan.setFilter(new FilterList(FilterList.Operator.MUST_PASS_ALL, filters));
    }
    long rows = 0;
    long cells = 0;
    long bytes = 0;
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long cpuBefore = os.getProcessCpuTime();
    long started = System.nanoTime();
    try (ResultScanner scanner = table.getScanner(scan)) {
      for (Result result : scanner) {
        rows++;
        bytes += result.getRow().length;
        for (Cell cell : result.rawCells()) {
          cells++;
          bytes += cell.getValueLength();
        }
      }
    }
    long nanos = System.nanoTime() - started;
    long cpu = os.getProcessCpuTime() - cpuBefore;
    return "ok " + rows + " " + cells + " " + bytes + " " + nanos + " " + cpu;
  }

  private static byte[] hex(String text) {
    return HexFormat.of().parseHex(text);
  }
}
