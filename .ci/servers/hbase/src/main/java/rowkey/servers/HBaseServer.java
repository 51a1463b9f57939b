package rowkey.servers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.thrift2.ThriftServer;

/**
 * The HBase of rowkey's end-to-end tests: ZooKeeper, a master and {@code REGION_SERVERS} region
 * servers of HBase's own mini-cluster on the local file system (no HDFS) in one JVM, HBase's
 * Thrift2 server (how non-JVM clients talk to HBase; its scanners expire after {@code
 * SCANNER_TIMEOUT_MS} idle) in a child JVM, and an HTTP control endpoint for what Thrift2 cannot
 * do. Everything listens on 127.0.0.1.
 *
 * <pre>java [-Drowkey.tls.keystore=P12] ... rowkey.servers.HBaseServer CONTROL_PORT DATA_DIR MODE=PORT...</pre>
 *
 * <p>One Thrift2 server listens on each PORT, in its MODE, each in a JVM of its own:
 *
 * <ul>
 *   <li>{@code buffered-binary}: HBase's defaults, buffered transport and binary protocol;
 *   <li>{@code framed-compact}: what production clusters are advised to run (framed transport,
 *       compact protocol, a frame limit of 2 MB: {@code hbase.regionserver.thrift.framed}, {@code
 *       .compact}, {@code .framed.max_frame_size_in_mb});
 *   <li>{@code http}: Thrift over HTTP ({@code hbase.regionserver.thrift.http}; HBase's HTTP
 *       server speaks the binary protocol alone), with the proxy user ({@code doAs} header) on:
 *       {@code hbase.thrift.support.proxyuser}, this user allowed to act for anyone from anywhere
 *       ({@code hadoop.proxyuser.USER.hosts} and {@code .groups} = {@code *});
 *   <li>{@code https}: the same over TLS ({@code hbase.thrift.ssl.enabled}), its key and
 *       certificate from the PKCS #12 key store {@code rowkey.tls.keystore} (password {@code
 *       rowkey-test}), which hbase.sh makes at each start beside a CA that signed it; the proxy
 *       user off;
 *   <li>{@code sasl}: Kerberos over TCP, SASL GSSAPI at the quality of protection {@code
 *       auth-conf} (every message wrapped and encrypted; {@code hbase.thrift.security.qop}),
 *       buffered transport (HBase refuses SASL with framed), binary protocol;
 *   <li>{@code spnego}: Kerberos over HTTPS (SPNEGO, the {@code Authorization: Negotiate}
 *       header), TLS as {@code https}.
 * </ul>
 *
 * <p>The Kerberos modes need {@code -Drowkey.kerberos.dir=DIR -Drowkey.kerberos.port=P}: a KDC
 * (Apache Kerby's {@code SimpleKdcServer}, as HBase's own {@code TestThriftSpnegoHttpServer}
 * runs one) listens on 127.0.0.1:P (TCP) for the realm {@value #REALM}, and DIR receives {@code
 * krb5.conf} (for MIT krb5 and the JDK alike), {@code server.keytab} ({@code thrift/HOST} and
 * {@code HTTP/HOST}), {@code client.keytab} ({@code alice}, the client's) and {@code host} (HOST,
 * the name the secured Thrift2 servers take their principals by: this machine's, as HBase finds
 * it). The Thrift2 servers' own connection to the cluster stays simple (the cluster is not
 * secured): Kerberos is between the client and the Thrift2 server alone, which is what these
 * modes test.
 *
 * <p>Prints {@code rowkey-hbase ready control=127.0.0.1:Q MODE=127.0.0.1:P...} once all serve,
 * then runs until SIGTERM, when it shuts the cluster down. The control endpoint answers plain
 * text, one item a line, keys and rows in lowercase hex:
 *
 * <ul>
 *   <li>{@code GET /regions?table=T}: {@code START<TAB>STOP<TAB>SERVER}, a region a line in key
 *       order (an empty START or STOP: the table's ends);
 *   <li>{@code GET /metrics?table=T}: {@code START<TAB>SERVER<TAB>WRITES<TAB>READS}, each region's
 *       write and read request counts from {@code Admin.getRegionMetrics};
 *   <li>{@code POST /split?table=T&row=HEX}: splits the region holding the row at it, and waits
 *       until the table has the new region;
 *   <li>{@code POST /flush?table=T};
 *   <li>{@code POST /balancer?on=true|false};
 *   <li>{@code POST /kill-region-server?index=I}: aborts region server I without warning (its
 *       regions are reassigned by the master); {@code POST /start-region-server} starts a new one
 *       in its place; {@code GET /region-servers} lists the live ones;
 *   <li>{@code POST /restart-thrift?mode=MODE[&qop=QOP]}: kills the Thrift2 server's JVM of MODE (its connections and
 *       scanners go) and starts a new one on the same port (the SASL server at the quality of
 *       protection QOP, {@code auth}, {@code auth-int} or {@code auth-conf}, from then on);
 *   <li>{@code POST /create-auto-split?table=T&family=F&max-filesize=BYTES}: a table of one
 *       region that splits at its middle key once a store is over BYTES ({@code
 *       ConstantSizeRegionSplitPolicy}), its memstores flushed at an eighth of that; {@code GET /store-sizes?table=T}: {@code START<TAB>BYTES},
 *       each region's store files;
 *   <li>{@code POST /phoenix}: SQL through Apache Phoenix's JDBC driver, the body's statements
 *       and their answer as {@link PhoenixSql} says (Phoenix's server side is on the cluster's
 *       class path);
 *   <li>{@code GET /health}: {@code ok}.
 * </ul>
 *
 * A table that does not exist answers 404 ({@code GET /regions}, {@code /metrics}, {@code
 * /store-sizes}); another error answers status 400 or 500 with its message.
 */
public final class HBaseServer {
  static final int REGION_SERVERS = 3;

  /** How long a Thrift2 scanner may stay idle before the server drops it. */
  static final int SCANNER_TIMEOUT_MS = 5_000;

  private final HBaseTestingUtility util;
  private final MiniHBaseCluster cluster;
  private int zkPort;
  /** Each Thrift2 server's port by its mode ({@code buffered-binary}, {@code framed-compact}, ...). */
  private final Map<String, Integer> thriftPorts = new java.util.LinkedHashMap<>();

  private final Map<String, Process> thrifts = new java.util.HashMap<>();
  /** The quality of protection of the SASL server when a restart set one ({@code auth-conf}). */
  private final Map<String, String> qops = new java.util.HashMap<>();
  private Path data;
  private PhoenixSql phoenix;

  private HBaseServer(HBaseTestingUtility util, MiniHBaseCluster cluster) {
    this.util = util;
    this.cluster = cluster;
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 5 && args[0].equals("thrift")) {
      runThrift(Integer.parseInt(args[1]), Integer.parseInt(args[2]), args[3], args[4]);
      return;
    }
    if (args.length < 3) {
      System.err.println("usage: HBaseServer CONTROL_PORT DATA_DIR MODE=PORT...");
      System.exit(2);
    }
    int controlPort = Integer.parseInt(args[0]);
    Path data = Path.of(args[1]).toAbsolutePath();
    Map<String, Integer> ports = new java.util.LinkedHashMap<>();
    for (int i = 2; i < args.length; i++) {
      String[] modePort = args[i].split("=", 2);
      if (modePort.length != 2 || !MODES.contains(modePort[0])) {
        System.err.println("not MODE=PORT with a MODE of " + MODES + ": " + args[i]);
        System.exit(2);
      }
      ports.put(modePort[0], Integer.parseInt(modePort[1]));
    }
    Files.createDirectories(data);
    long started = System.nanoTime();

    // The mini-cluster's directories under DATA_DIR; the local file system for the data and the
    // write-ahead log (which cannot hflush there: its capability check is off, as HBase's own
    // tests on the local file system do).
    System.setProperty("test.build.data.basedirectory", data.toString());
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.set("hbase.master.hostname", "127.0.0.1");
    conf.set("hbase.regionserver.hostname", "127.0.0.1");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.set("hbase.wal.provider", "filesystem");
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.thrift.info.port", -1);
    // Small and quick: few handler threads on 2 cores, no periodic balancing while measuring.
    // Three region servers share this JVM's heap, and each would take HBase's defaults for
    // itself alone (40% of the heap for memstores, 40% for the block cache: 240% in all): a
    // tenth each, so that the three together keep 60% and the heap does not run out under
    // writes (it did, after a benchmark's million writes).
    conf.setFloat("hbase.regionserver.global.memstore.size", 0.1f);
    conf.setFloat("hfile.block.cache.size", 0.1f);
    conf.setInt("hbase.regionserver.handler.count", 10);
    conf.setInt("hbase.master.handler.count", 10);
    conf.setBoolean("hbase.balancer.tablesOnMaster", false);
    // Tables that split at a few hundred KB, for the auto-split test: HBase refuses a
    // MAX_FILESIZE under 2 MB unless its sanity checks are off, and a daughter region cannot split
    // again until the files compacted off its parent's are archived (HBASE-20940), which the
    // discharger does every 2 minutes by default: every second here.
    conf.setBoolean("hbase.table.sanity.checks", false);
    conf.setInt("hbase.hfile.compaction.discharger.interval", 1000);
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    util.startMiniZKCluster();
    MiniHBaseCluster cluster =
        util.startMiniHBaseCluster(
            StartMiniClusterOption.builder().numMasters(1).numRegionServers(REGION_SERVERS).build());
    HBaseServer server = new HBaseServer(util, cluster);

    // Thrift2 in a JVM of its own, as it runs beside a real cluster: restarting it cuts its
    // connections and forgets its scanners, as a restart does.
    server.zkPort = util.getZkCluster().getClientPort();
    server.phoenix = new PhoenixSql(server.zkPort);
    server.data = data;
    server.thriftPorts.putAll(ports);
    if (ports.containsKey(SASL) || ports.containsKey(SPNEGO)) {
      startKdc();
    }
    server.startThrifts(server.thriftPorts.keySet());

    HttpServer control = HttpServer.create(new InetSocketAddress("127.0.0.1", controlPort), 16);
    control.setExecutor(Executors.newFixedThreadPool(4));
    control.createContext("/", server::handle);
    control.start();

    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  control.stop(0);
                  synchronized (server) {
                    server.thrifts.values().forEach(Process::destroyForcibly);
                  }
                  try {
                    util.shutdownMiniCluster();
                  } catch (IOException e) {
                    e.printStackTrace();
                  }
                },
                "rowkey-hbase-stop"));
    StringBuilder listening = new StringBuilder();
    ports.forEach((mode, port) -> listening.append(' ').append(mode).append("=127.0.0.1:").append(port));
    System.out.printf(
        "rowkey-hbase ready control=127.0.0.1:%d%s in %.1f s%n",
        controlPort, listening, (System.nanoTime() - started) / 1e9);
    System.out.flush();
    // Until SIGTERM (the shutdown hook stops everything).
    new CountDownLatch(1).await();
  }

  private static final String BUFFERED_BINARY = "buffered-binary";
  private static final String FRAMED_COMPACT = "framed-compact";
  private static final String HTTP = "http";
  private static final String HTTPS = "https";
  private static final String SASL = "sasl";
  private static final String SPNEGO = "spnego";
  private static final List<String> MODES =
      List.of(BUFFERED_BINARY, FRAMED_COMPACT, HTTP, HTTPS, SASL, SPNEGO);

  /** The test KDC's realm. */
  static final String REALM = "ROWKEY.TEST";

  /** The password of the HTTPS server's key store (a test's own, made at each start). */
  private static final String KEYSTORE_PASSWORD = "rowkey-test";

  /** Starts the Thrift2 servers of {@code modes} side by side, and waits until all listen. */
  private synchronized void startThrifts(java.util.Collection<String> modes) throws Exception {
    for (String mode : modes) {
      thrifts.put(mode, launchThrift(mode));
    }
    for (String mode : modes) {
      waitForPort(thriftPorts.get(mode), thrifts.get(mode));
    }
  }

  /**
   * Starts the Thrift2 server of {@code mode}: this class again in a child JVM ({@link
   * #runThrift}) with this JVM's options and class path and a smaller heap, its output appended
   * to {@code thrift.log} ({@code thrift-framed-compact.log}); waits until it listens.
   */
  private synchronized void startThrift(String mode) throws Exception {
    thrifts.put(mode, launchThrift(mode));
    waitForPort(thriftPorts.get(mode), thrifts.get(mode));
  }

  /** The child JVM of the Thrift2 server of {@code mode}, started. */
  private Process launchThrift(String mode) throws Exception {
    int thriftPort = thriftPorts.get(mode);
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.add("-Xmx384m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(HBaseServer.class.getName());
    command.add("thrift");
    command.add(Integer.toString(zkPort));
    command.add(Integer.toString(thriftPort));
    command.add(mode);
    command.add(qops.getOrDefault(mode, "auth-conf"));
    String log = mode.equals(BUFFERED_BINARY) ? "thrift.log" : "thrift-" + mode + ".log";
    Process thrift =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(data.resolve(log).toFile()))
            .start();
    return thrift;
  }

  /**
   * Kills the Thrift2 server's JVM without warning (its connections reset, its scanners gone)
   * and starts a new one on the same port: a Thrift server restarted.
   */
  private synchronized String restartThrift(String mode, String qop) throws Exception {
    if (qop != null) {
      if (!List.of("auth", "auth-int", "auth-conf").contains(qop)) {
        throw new IllegalArgumentException("qop is auth, auth-int or auth-conf: " + qop);
      }
      qops.put(mode, qop);
    }
    Process thrift = thrifts.get(mode);
    if (thrift == null) {
      throw new IllegalArgumentException("no Thrift2 server of mode " + mode);
    }
    thrift.destroyForcibly();
    if (!thrift.waitFor(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the Thrift2 server did not stop in 60 s");
    }
    startThrift(mode);
    return "ok\n";
  }

  /**
   * The Thrift2 server's JVM: HBase's Thrift2 server for the cluster whose ZooKeeper listens on
   * {@code zkPort}, on loopback, in {@code mode} (the class's docs say each). Its scanners expire after {@code SCANNER_TIMEOUT_MS} idle rather than HBase's 60 s
   * ({@code hbase.client.scanner.timeout.period}, which its scanner cache reads), so that a test
   * makes one expire in seconds. It exits with the JVM that started it.
   */
  private static void runThrift(int zkPort, int thriftPort, String mode, String qop)
      throws Exception {
    ProcessHandle.current()
        .parent()
        .ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(0)));
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    conf.setInt("hbase.thrift.info.port", -1);
    conf.setInt("hbase.client.scanner.timeout.period", SCANNER_TIMEOUT_MS);
    List<String> options =
        new ArrayList<>(List.of("-b", "127.0.0.1", "-p", Integer.toString(thriftPort)));
    switch (mode) {
      case FRAMED_COMPACT -> {
        // HBase's default frame limit, said where a client's request can meet it.
        conf.setInt("hbase.regionserver.thrift.framed.max_frame_size_in_mb", 2);
        options.addAll(List.of("-f", "-c"));
      }
      case HTTP -> {
        conf.setBoolean("hbase.regionserver.thrift.http", true);
        conf.setBoolean("hbase.thrift.support.proxyuser", true);
        String user = System.getProperty("user.name");
        conf.set("hadoop.proxyuser." + user + ".hosts", "*");
        conf.set("hadoop.proxyuser." + user + ".groups", "*");
      }
      case SASL -> {
        secure(conf);
        conf.set("hbase.thrift.security.qop", qop);
      }
      case SPNEGO -> {
        secure(conf);
        conf.setBoolean("hbase.regionserver.thrift.http", true);
        tls(conf);
      }
      case HTTPS -> {
        conf.setBoolean("hbase.regionserver.thrift.http", true);
        tls(conf);
      }
      default -> {}
    }
    if (mode.equals(SASL) || mode.equals(SPNEGO)) {
      new SecuredThriftServer(conf).run(options.toArray(new String[0]));
    } else {
      new ThriftServer(conf).run(options.toArray(new String[0]));
    }
  }

  /** The key store of the HTTPS servers (made by hbase.sh). */
  private static void tls(Configuration conf) {
    String keystore = System.getProperty("rowkey.tls.keystore");
    if (keystore == null) {
      throw new IllegalArgumentException("https needs -Drowkey.tls.keystore=FILE.p12");
    }
    conf.setBoolean("hbase.thrift.ssl.enabled", true);
    conf.set("hbase.thrift.ssl.keystore.store", keystore);
    conf.set("hbase.thrift.ssl.keystore.type", "pkcs12");
    conf.set("hbase.thrift.ssl.keystore.password", KEYSTORE_PASSWORD);
    conf.set("hbase.thrift.ssl.keystore.keypassword", KEYSTORE_PASSWORD);
  }

  /**
   * Kerberos on the Thrift2 server: Hadoop's and HBase's security on, the server's principals
   * from the test KDC's keytab ({@code thrift/_HOST} for SASL, {@code HTTP/_HOST} for SPNEGO).
   */
  private static void secure(Configuration conf) {
    Path dir = Path.of(System.getProperty("rowkey.kerberos.dir"));
    System.setProperty("java.security.krb5.conf", dir.resolve("krb5.conf").toString());
    String keytab = dir.resolve("server.keytab").toString();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    conf.set("hbase.thrift.keytab.file", keytab);
    conf.set("hbase.thrift.kerberos.principal", "thrift/_HOST@" + REALM);
    conf.set("hbase.thrift.spnego.keytab.file", keytab);
    conf.set("hbase.thrift.spnego.principal", "HTTP/_HOST@" + REALM);
    org.apache.hadoop.security.UserGroupInformation.setConfiguration(conf);
  }

  /**
   * HBase's Thrift2 server whose own connection to the cluster is simple, the cluster not being
   * secured: Kerberos stays between the client and this server.
   */
  static final class SecuredThriftServer extends ThriftServer {
    SecuredThriftServer(Configuration conf) {
      super(conf);
    }

    @Override
    protected org.apache.hadoop.hbase.thrift.HBaseServiceHandler createHandler(
        Configuration conf, org.apache.hadoop.hbase.security.UserProvider userProvider)
        throws IOException {
      Configuration cluster = new Configuration(conf);
      cluster.set("hbase.security.authentication", "simple");
      cluster.setBoolean("hbase.ipc.client.fallback-to-simple-auth-allowed", true);
      return super.createHandler(cluster, userProvider);
    }
  }

  /**
   * The test KDC (see the class's docs), in this JVM: its principals, keytabs, {@code
   * krb5.conf} and {@code host} under {@code rowkey.kerberos.dir}.
   */
  private static void startKdc() throws Exception {
    Path dir = Path.of(System.getProperty("rowkey.kerberos.dir"));
    int port = Integer.parseInt(System.getProperty("rowkey.kerberos.port"));
    Files.createDirectories(dir);
    org.apache.kerby.kerberos.kerb.server.SimpleKdcServer kdc =
        new org.apache.kerby.kerberos.kerb.server.SimpleKdcServer();
    kdc.setWorkDir(dir.toFile());
    kdc.setKdcRealm(REALM);
    kdc.setKdcHost("127.0.0.1");
    kdc.setAllowUdp(false);
    kdc.setKdcTcpPort(port);
    kdc.init();
    kdc.start();
    String host =
        org.apache.hadoop.hbase.util.Strings.domainNamePointerToHostName(
            org.apache.hadoop.hbase.util.DNS.getDefaultHost("default", "default"));
    Files.deleteIfExists(dir.resolve("server.keytab"));
    Files.deleteIfExists(dir.resolve("client.keytab"));
    kdc.createAndExportPrincipals(
        dir.resolve("server.keytab").toFile(), "thrift/" + host, "HTTP/" + host);
    kdc.createAndExportPrincipals(dir.resolve("client.keytab").toFile(), "alice");
    // Both MIT krb5 and the JDK read this: TCP alone (the KDC has no UDP), no DNS.
    Files.writeString(
        dir.resolve("krb5.conf"),
        String.join(
            "\n",
            "[libdefaults]",
            "  default_realm = " + REALM,
            "  dns_lookup_kdc = false",
            "  dns_lookup_realm = false",
            "  dns_canonicalize_hostname = false",
            "  rdns = false",
            "  udp_preference_limit = 1",
            "  ticket_lifetime = 24h",
            "  forwardable = true",
            "[realms]",
            "  " + REALM + " = {",
            "    kdc = 127.0.0.1:" + port,
            "  }",
            ""));
    Files.writeString(dir.resolve("host"), host + "\n");
  }

  /** Waits until something listens on the port, or fails when the Thrift2 JVM ended. */
  private static void waitForPort(int port, Process thrift) throws Exception {
    for (int i = 0; i < 600; i++) {
      if (!thrift.isAlive()) {
        throw new IllegalStateException(
            "the Thrift2 server stopped while starting (exit " + thrift.exitValue() + ")");
      }
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("the Thrift2 server did not listen on " + port + " in 60 s");
  }

  private void handle(HttpExchange exchange) throws IOException {
    String answer;
    int status = 200;
    try {
      Map<String, String> q = query(exchange.getRequestURI().getRawQuery());
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      answer =
          switch (method + " " + path) {
            case "GET /health" -> "ok\n";
            case "GET /regions" -> regions(existing(table(q)));
            case "GET /metrics" -> metrics(existing(table(q)));
            case "GET /region-servers" -> regionServers();
            case "GET /zookeeper" -> "127.0.0.1:" + zkPort + "\n";
            case "POST /split" -> split(table(q), hex(need(q, "row")));
            case "POST /move" -> move(table(q), hex(need(q, "row")));
            case "POST /flush" -> {
              util.getAdmin().flush(table(q));
              yield "ok\n";
            }
            case "POST /balancer" -> {
              boolean on = Boolean.parseBoolean(need(q, "on"));
              util.getAdmin().balancerSwitch(on, true);
              yield "ok\n";
            }
            case "POST /kill-region-server" -> kill(Integer.parseInt(need(q, "index")));
            case "POST /restart-thrift" ->
                restartThrift(q.getOrDefault("mode", BUFFERED_BINARY), q.get("qop"));
            case "POST /start-region-server" -> startRegionServer();
            case "POST /create-auto-split" ->
                createAutoSplit(
                    table(q), need(q, "family"), Long.parseLong(need(q, "max-filesize")));
            case "GET /store-sizes" -> storeSizes(existing(table(q)));
            case "POST /phoenix" ->
                phoenix.run(
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            default -> throw new IllegalArgumentException("no such call: " + method + " " + path);
          };
    } catch (TableNotFoundException e) {
      status = 404;
      answer = "no table " + e.getMessage() + "\n";
    } catch (IllegalArgumentException e) {
      status = 400;
      answer = e.getMessage() + "\n";
    } catch (Exception e) {
      status = 500;
      answer = e + "\n";
    }
    byte[] body = answer.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private String regions(TableName table) throws IOException {
    StringBuilder out = new StringBuilder();
    try (RegionLocator locator = util.getConnection().getRegionLocator(table)) {
      for (HRegionLocation l : locator.getAllRegionLocations()) {
        out.append(HexFormat.of().formatHex(l.getRegion().getStartKey()))
            .append('\t')
            .append(HexFormat.of().formatHex(l.getRegion().getEndKey()))
            .append('\t')
            .append(l.getServerName())
            .append('\n');
      }
    }
    return out.toString();
  }

  private String metrics(TableName table) throws IOException {
    StringBuilder out = new StringBuilder();
    Admin admin = util.getAdmin();
    for (ServerName server : admin.getRegionServers()) {
      List<RegionMetrics> all = admin.getRegionMetrics(server, table);
      for (RegionMetrics m : all) {
        byte[] name = m.getRegionName();
        byte[] start = org.apache.hadoop.hbase.client.RegionInfo.getStartKey(name);
        out.append(HexFormat.of().formatHex(start))
            .append('\t')
            .append(server)
            .append('\t')
            .append(m.getWriteRequestCount())
            .append('\t')
            .append(m.getReadRequestCount())
            .append('\n');
      }
    }
    return out.toString();
  }

  private String regionServers() {
    StringBuilder out = new StringBuilder();
    List<org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread> threads =
        cluster.getRegionServerThreads();
    for (int i = 0; i < threads.size(); i++) {
      var t = threads.get(i);
      if (t.isAlive() && !t.getRegionServer().isAborted()) {
        out.append(i).append('\t').append(t.getRegionServer().getServerName()).append('\n');
      }
    }
    return out.toString();
  }

  private String split(TableName table, byte[] row) throws Exception {
    Admin admin = util.getAdmin();
    int before = admin.getRegions(table).size();
    admin.split(table, row);
    for (int i = 0; i < 600; i++) {
      if (admin.getRegions(table).size() > before) {
        return "ok\n";
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("the split of " + table + " did not finish in 60 s");
  }

  /**
   * Moves the region of {@code table} that holds {@code row} to another live region server, and
   * returns once it is open there: the new server's name.
   */
  private String move(TableName table, byte[] row) throws Exception {
    Admin admin = util.getAdmin();
    HRegionLocation from;
    try (RegionLocator locator = util.getConnection().getRegionLocator(table)) {
      from = locator.getRegionLocation(row, true);
    }
    ServerName to =
        admin.getRegionServers().stream()
            .filter(s -> !s.equals(from.getServerName()))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no other region server to move to"));
    admin.move(from.getRegion().getEncodedNameAsBytes(), to);
    for (int i = 0; i < 600; i++) {
      try (RegionLocator locator = util.getConnection().getRegionLocator(table)) {
        if (to.equals(locator.getRegionLocation(row, true).getServerName())) {
          return to + "\n";
        }
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("the move of " + table + " did not finish in 60 s");
  }

  /**
   * Creates a table of one region that splits by size alone: HBase's {@code
   * ConstantSizeRegionSplitPolicy}, a region splitting at its middle key once a store is over
   * {@code maxFileSize} bytes, checked after each flush, which comes by itself when a memstore
   * holds an eighth of that. Returns when the table is enabled.
   */
  private String createAutoSplit(TableName table, String family, long maxFileSize)
      throws IOException {
    util.getAdmin()
        .createTable(
            TableDescriptorBuilder.newBuilder(table)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(family))
                .setMaxFileSize(maxFileSize)
                .setMemStoreFlushSize(maxFileSize / 8)
                .setRegionSplitPolicyClassName(ConstantSizeRegionSplitPolicy.class.getName())
                .build());
    return "ok\n";
  }

  /** {@code START<TAB>BYTES}: each region's store files on disk, in bytes. */
  private String storeSizes(TableName table) throws IOException {
    StringBuilder out = new StringBuilder();
    for (org.apache.hadoop.hbase.regionserver.HRegion r : cluster.getRegions(table)) {
      long bytes = 0;
      for (org.apache.hadoop.hbase.regionserver.HStore store : r.getStores()) {
        bytes += store.getStorefilesSize();
      }
      out.append(HexFormat.of().formatHex(r.getRegionInfo().getStartKey()))
          .append('\t')
          .append(bytes)
          .append('\n');
    }
    return out.toString();
  }

  /** Starts a new region server in place of a killed one; returns when it is online. */
  private String startRegionServer() throws Exception {
    var thread = cluster.startRegionServer();
    thread.waitForServerOnline();
    return thread.getRegionServer().getServerName() + "\n";
  }

  private String kill(int index) {
    String name = cluster.abortRegionServer(index);
    return name + "\n";
  }

  /**
   * {@code table}, if it exists: the region locator and the cluster's region list answer nothing
   * at all for a table that does not, which read as a table without regions.
   */
  private TableName existing(TableName table) throws IOException {
    if (!util.getAdmin().tableExists(table)) {
      throw new TableNotFoundException(table);
    }
    return table;
  }

  private static TableName table(Map<String, String> q) {
    return TableName.valueOf(need(q, "table"));
  }

  private static String need(Map<String, String> q, String name) {
    String v = q.get(name);
    if (v == null) {
      throw new IllegalArgumentException("missing parameter " + name);
    }
    return v;
  }

  private static byte[] hex(String text) {
    try {
      return HexFormat.of().parseHex(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not hex: " + text);
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }
}
