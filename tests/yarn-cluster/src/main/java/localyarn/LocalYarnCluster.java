package localyarn;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;
import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.ha.HAServiceProtocol.RequestSource;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeLabel;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.api.protocolrecords.AddToClusterNodeLabelsRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.ReplaceLabelsOnNodeRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.NodeStatusUpdater;
import org.apache.hadoop.yarn.server.resourcemanager.AdminService;
import org.apache.hadoop.yarn.server.resourcemanager.ClusterMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;

/**
 * A real single-machine HDFS + YARN for Spindle's integration tests.
 *
 * <p>Usage: {@code LocalYarnCluster CONF_DIR DATA_DIR [--faults CONTROL_DIR | --ha CONTROL_DIR |
 * --secure KERBEROS_DIR]}. Starts
 * MiniDFSCluster and MiniYARNCluster in this JVM, writes a Hadoop client configuration into
 * CONF_DIR, prints one {@code READY key=value ...} line on stdout and runs until SIGTERM or
 * SIGINT. Everything else (logs) goes to stderr.
 *
 * <p>With {@code --faults} the cluster is set up for fault tests (a third NodeManager,
 * ResourceManager recovery, short NodeManager liveness, preemption, a third queue {@code urgent})
 * and obeys requests dropped into CONTROL_DIR: see {@link Controls}.
 *
 * <p>With {@code --ha} HDFS is an HA nameservice ({@link #NAMESERVICE}, NameNodes nn1 and nn2)
 * and YARN has two ResourceManagers (rm1 and rm2) with work-preserving recovery; failovers of
 * either are requests dropped into CONTROL_DIR (see {@link Controls}).
 *
 * <p>With {@code --hosts CONTROL_DIR MASTER_HOST} it is the master host of a cluster of several
 * hosts (network namespaces made by scripts/local-yarn): the HA nameservice and both
 * ResourceManagers as in {@code --ha}, bound to every address of this host and advertised as
 * MASTER_HOST, but no DataNode and no NodeManager; each worker host runs those in a JVM of its
 * own ({@link WorkerHost}), from the configuration written here.
 *
 * <p>With {@code --secure} it is a Kerberos cluster: a KDC in this JVM, principals and keytabs
 * in KERBEROS_DIR, HDFS and YARN with Kerberos authentication and SPNEGO on their web servers
 * (see {@link Kerberos}).
 */
public final class LocalYarnCluster {
  private static int sizeFromEnvironment(String name, int fallback) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    try {
      int size = Integer.parseInt(value);
      if (size > 0) {
        return size;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException(name + " is \"" + value + "\"; it must be a positive whole number");
  }

  static final String GPU = "yarn.io/gpu";
  static final String GPU_LABEL = "gpu";
  // Enough for ~20 one-vcore containers plus their AM on the one unlabelled node. Vcores are only
  // a scheduling count here (no cgroups), so they may exceed the machine's cores. A benchmark of
  // hundreds of small containers sets SPINDLE_NODE_MEMORY_MB and SPINDLE_NODE_VCORES.
  static final int NODE_MEMORY_MB = sizeFromEnvironment("SPINDLE_NODE_MEMORY_MB", 12 * 1024);
  static final int NODE_VCORES = sizeFromEnvironment("SPINDLE_NODE_VCORES", 32);
  static final int GPUS_ON_GPU_NODE = 2;
  /** Fault mode: how long the RM waits for a silent NodeManager before declaring it LOST. */
  static final int NM_EXPIRY_MS = 10_000;
  /** HA mode: the HDFS nameservice, its NameNodes and the ResourceManagers' ids. */
  static final String NAMESERVICE = "spindle-ns";
  static final List<String> NN_IDS = List.of("nn1", "nn2");
  static final List<String> RM_IDS = List.of("rm1", "rm2");
  /**
   * Hosts mode: how long the RM waits for a silent NodeManager, longer than the heartbeat
   * timeout the tests give their jobs, so that Spindle, not YARN, notices a partitioned task.
   */
  static final int HOSTS_NM_EXPIRY_MS = 60_000;
  /** Hosts mode: the size of each worker host, so that a few containers fill one. */
  static final int WORKER_MEMORY_MB = 4096;
  static final int WORKER_VCORES = 8;

  static final List<String> RM_ADDRESS_KEYS = List.of(
      "yarn.resourcemanager.address",
      "yarn.resourcemanager.scheduler.address",
      "yarn.resourcemanager.resource-tracker.address",
      "yarn.resourcemanager.admin.address",
      "yarn.resourcemanager.webapp.address");

  private final File confDir;
  private final File dataDir;
  private final File controlDir; // null unless in fault or HA mode
  private final boolean faults;
  private final boolean ha;
  private final String masterHost; // null unless in hosts mode
  private final Kerberos kerberos; // null unless in secure mode
  /** Secure mode: the daemons' Kerberos identities. */
  private UserGroupInformation nnUser;
  private UserGroupInformation dnUser;
  private UserGroupInformation rmUser;
  private UserGroupInformation nmUser;
  private MiniDFSCluster dfs;
  private MiniYARNCluster yarn; // null in hosts mode
  private ResourceManagerProcesses rms; // null unless in hosts mode
  private Configuration clusterConf; // the RMs' settings
  /** The NodeIds of the nodes, kept across NodeManager restarts (same port). */
  private final NodeId[] nodeIds;
  /**
   * Two NodeManagers, the last with label gpu; three in fault mode, so that the unlabelled jobs
   * of the fault tests have two nodes: one to lose and one to go on.
   */
  private final int nodes;
  private final int gpuNodeIndex;
  private volatile boolean stopping;

  private LocalYarnCluster(File confDir, File dataDir, File controlDir, boolean ha, String masterHost,
      File kerberosDir) {
    this.confDir = confDir;
    this.dataDir = dataDir;
    this.controlDir = controlDir;
    this.ha = ha || masterHost != null;
    this.masterHost = masterHost;
    this.faults = controlDir != null && !this.ha;
    this.kerberos = kerberosDir == null ? null
        : new Kerberos(kerberosDir, new File(dataDir, "kdc"), masterHost != null ? masterHost : "localhost",
            masterHost != null ? workerHostsFromEnvironment() : List.of());
    this.nodes = masterHost != null ? 0 : faults ? 3 : 2;
    this.gpuNodeIndex = nodes - 1;
    this.nodeIds = new NodeId[nodes];
  }

  /** Hosts mode with Kerberos: the worker hosts' names, which scripts/local-yarn passes on. */
  private static List<String> workerHostsFromEnvironment() {
    String names = System.getenv().getOrDefault("SPINDLE_WORKER_HOSTS", "");
    if (names.isBlank()) {
      throw new IllegalArgumentException("SPINDLE_WORKER_HOSTS is empty; scripts/local-yarn --hosts sets it to the"
          + " worker hosts' names, which their principals need");
    }
    return List.of(names.split(","));
  }

  public static void main(String[] args) throws Exception {
    File controlDir = null;
    File kerberosDir = null;
    boolean ha = false;
    String masterHost = null;
    if (args.length == 4 && (args[2].equals("--faults") || args[2].equals("--ha"))) {
      controlDir = new File(args[3]).getAbsoluteFile();
      ha = args[2].equals("--ha");
    } else if ((args.length == 5 || args.length == 7 && args[5].equals("--secure")) && args[2].equals("--hosts")) {
      controlDir = new File(args[3]).getAbsoluteFile();
      masterHost = args[4];
      if (args.length == 7) {
        kerberosDir = new File(args[6]).getAbsoluteFile();
      }
    } else if (args.length == 4 && args[2].equals("--secure")) {
      kerberosDir = new File(args[3]).getAbsoluteFile();
    } else if (args.length != 2) {
      System.err.println(
          "usage: LocalYarnCluster CONF_DIR DATA_DIR [--faults CONTROL_DIR | --ha CONTROL_DIR"
              + " | --hosts CONTROL_DIR MASTER_HOST [--secure KERBEROS_DIR] | --secure KERBEROS_DIR]");
      System.exit(2);
    }
    LocalYarnCluster cluster = new LocalYarnCluster(new File(args[0]).getAbsoluteFile(),
        new File(args[1]).getAbsoluteFile(), controlDir, ha, masterHost, kerberosDir);

    Daemon.runUntilSignalled("local-yarn", cluster::start, cluster::stop);
  }

  private void start() throws Exception {
    Files.createDirectories(confDir.toPath());
    Files.createDirectories(dataDir.toPath());

    if (kerberos != null) {
      // The KDC first: every daemon logs in to it.
      kerberos.start();
      Configuration security = new Configuration(false);
      kerberos.hdfsServerSettings().forEach(security::set);
      UserGroupInformation.setConfiguration(security);
      nnUser = kerberos.login("nn");
      dnUser = kerberos.login("dn");
      rmUser = kerberos.login("rm");
      nmUser = kerberos.login("nm");
    }
    dfs = startDfs();
    String defaultFs = ha ? "hdfs://" + NAMESERVICE : dfs.getURI().toString();
    if (ha) {
      makeNameserviceKnownToEveryConfiguration();
    }
    Configuration yarnConf = yarnConfiguration(defaultFs);

    // MiniYARNCluster puts its work dirs under the test data dir, which defaults to ./target.
    System.setProperty("test.build.data", new File(dataDir, "yarn").getPath());
    if (masterHost != null) {
      if (kerberos != null) {
        // The HA admin calls that make an RM active go out as rm.
        UserGroupInformation.setLoginUser(rmUser);
      }
      rms = new ResourceManagerProcesses(new File(dataDir, "resourcemanagers"), RM_IDS,
          resourceManagerFiles(defaultFs, yarnConf), adminClientSettings());
      rms.start();
      if (kerberos != null) {
        writeWorkerServerSettings();
      }
    } else if (ha) {
      yarn = new MiniYARNCluster("local-yarn", RM_IDS.size(), nodes, 1, 1);
      yarn.init(yarnConf);
      // With automatic failover off, MiniYARNCluster makes the first RM active as it starts.
      yarn.start();
    } else if (kerberos == null) {
      yarn = new MiniYARNCluster("local-yarn", nodes, 1, 1);
      yarn.init(yarnConf);
      yarn.start();
    } else {
      // The NodeManagers as nm; the RM switches to rm for itself (see SecureYarnCluster).
      yarn = new SecureYarnCluster();
      Kerberos.as(nmUser, () -> {
        yarn.init(yarnConf);
        yarn.start();
        return null;
      });
      // The JVM's login user is the last daemon that logged in. The RM renews the HDFS tokens
      // of applications as the login user: it must be rm, whose short name (yarn) they name.
      UserGroupInformation.setLoginUser(rmUser);
    }

    if (yarn != null) {
      WebRoutes.keepEachOnItsOwn(yarn, nodes);
    }
    for (int i = 0; i < nodes; i++) {
      nodeIds[i] = yarn.getNodeManager(i).getNMContext().getNodeId();
    }
    // Hosts mode has no NodeManager here, and no GPU node.
    NodeId gpuNode = nodes == 0 ? null : nodeIds[gpuNodeIndex];
    NodeId cpuNode = nodes == 0 ? null : nodeIds[0];
    ResourceManager rm = yarn == null ? null : yarn.getResourceManager();
    if (gpuNode == null) {
      // nothing to label
    } else if (kerberos == null) {
      labelGpuNode(rm, gpuNode);
    } else {
      Kerberos.as(rmUser, () -> {
        labelGpuNode(rm, gpuNode);
        return null;
      });
    }

    Configuration rmConf = rm == null ? yarnConf : rm.getConfig();
    clusterConf = rmConf;
    writeConfigFiles(defaultFs, rmConf);
    if (faults || ha) {
      new Controls().start();
    }

    String nnHttp = ha ? NN_IDS.get(0) + "=" + httpAddress(dfs.getNameNode(0)) + ","
        + NN_IDS.get(1) + "=" + httpAddress(dfs.getNameNode(1)) : httpAddress(dfs.getNameNode());
    System.out.println("READY conf=" + confDir
        + " hadoop=" + org.apache.hadoop.util.VersionInfo.getVersion()
        + (ha ? " rm=" + haAddresses(rmConf, "yarn.resourcemanager.address")
            + " rm_web=" + haAddresses(rmConf, "yarn.resourcemanager.webapp.address")
            + " active_rm=" + RM_IDS.get(0) + " active_nn=" + NN_IDS.get(0)
            : " rm=" + rmConf.get("yarn.resourcemanager.address")
            + " rm_scheduler=" + rmConf.get("yarn.resourcemanager.scheduler.address")
            + " rm_web=" + WebAppUtils.getRMWebAppURLWithoutScheme(rmConf))
        + " namenode=" + defaultFs
        + " webhdfs=" + nnHttp
        + (gpuNode != null ? " gpu_node=" + gpuNode + " cpu_node=" + cpuNode : "")
        + (masterHost != null ? " master_host=" + masterHost : "")
        + (faults ? " nodes=" + Arrays.stream(nodeIds).map(NodeId::toString)
            .collect(Collectors.joining(",")) : "")
        + " faults=" + faults
        + " ha=" + ha
        + " secure=" + (kerberos != null)
        + (kerberos != null ? " realm=" + Kerberos.REALM
            + " kdc=" + kerberos.kdcAddress()
            + " krb5_conf=" + kerberos.krb5Conf()
            + " user_principal=" + kerberos.userPrincipal()
            + " user_keytab=" + kerberos.userKeytab() : "")
        + " pid=" + ProcessHandle.current().pid());
    System.out.flush();
  }

  /** The NameNode's web address: its HTTPS one when it serves HTTPS alone (--tls). */
  private String httpAddress(NameNode nn) {
    java.net.InetSocketAddress address = nn.getHttpAddress() != null ? nn.getHttpAddress() : nn.getHttpsAddress();
    return advertised(address.getHostString()) + ":" + address.getPort();
  }

  /**
   * The host name others reach a daemon of this JVM at: in hosts mode the master's name, as
   * MiniDFSCluster names its NameNodes 127.0.0.1 whatever they are bound to.
   */
  private String advertised(String host) {
    return masterHost != null ? masterHost : host;
  }

  /**
   * Hosts mode: what this JVM's HA admin client of the ResourceManagers needs, with Kerberos the
   * authentication, the protection and the principal the ResourceManagers answer as (as `yarn
   * rmadmin` sets it).
   */
  private Map<String, String> adminClientSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    if (kerberos != null) {
      s.putAll(Kerberos.coreSettings());
      s.put("hadoop.security.service.user.name.key", kerberos.principal("rm"));
    }
    return s;
  }

  /**
   * Hosts mode with Kerberos: the server settings of the worker hosts' DataNodes and
   * NodeManagers (principals, keytabs, SPNEGO, HTTPS), which {@link WorkerHost} adds to the
   * client configuration.
   */
  private void writeWorkerServerSettings() throws IOException {
    File dir = new File(dataDir, "worker-server-conf");
    Files.createDirectories(dir.toPath());
    Configuration hdfs = new Configuration(false);
    kerberos.hdfsServerSettings().forEach(hdfs::set);
    Daemon.writeSite(hdfs, new File(dir, "hdfs-site.xml"));
    Configuration yarnSite = new Configuration(false);
    kerberos.yarnServerSettings().forEach(yarnSite::set);
    Daemon.writeSite(yarnSite, new File(dir, "yarn-site.xml"));
  }

  /**
   * Hosts mode: what each ResourceManager process reads, the settings made here and nothing of
   * Hadoop's defaults (the RM loads those itself).
   */
  private Map<String, Map<String, String>> resourceManagerFiles(String defaultFs,
      Configuration yarnConf) {
    Map<String, String> yarnSite = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : yarnConf) {
      String[] sources = yarnConf.getPropertySources(entry.getKey());
      if (sources != null && Arrays.asList(sources).contains("programmatically")) {
        yarnSite.put(entry.getKey(), yarnConf.getRaw(entry.getKey()));
      }
    }
    Map<String, Map<String, String>> files = new LinkedHashMap<>();
    Map<String, String> core = new LinkedHashMap<>(Map.of("fs.defaultFS", defaultFs));
    Map<String, String> hdfs = new LinkedHashMap<>(hdfsHaClientSettings());
    if (kerberos != null) {
      core.putAll(Kerberos.coreSettings());
      hdfs.putAll(Kerberos.hdfsClientSettings());
    }
    files.put("core-site.xml", core);
    files.put("hdfs-site.xml", hdfs);
    files.put("yarn-site.xml", yarnSite);
    files.put("capacity-scheduler.xml", capacitySchedulerSettings());
    files.put("resource-types.xml", Map.of("yarn.resource-types", GPU));
    return files;
  }

  private static String haAddresses(Configuration conf, String key) {
    return RM_IDS.stream().map(id -> id + "=" + conf.get(key + "." + id))
        .collect(Collectors.joining(","));
  }

  /**
   * The NodeManagers' localizers and log aggregation build Configurations of their own, which
   * read only the default resources: on a real node hdfs-site.xml, here nothing. So the
   * nameservice goes into a default resource, found through the class loader of the threads
   * that start YARN (their threads inherit it).
   */
  private void makeNameserviceKnownToEveryConfiguration() throws IOException {
    File dir = new File(dataDir, "ha-classpath");
    Files.createDirectories(dir.toPath());
    Configuration client = new Configuration(false);
    hdfsHaClientSettings().forEach(client::set);
    Daemon.writeSite(client, new File(dir, "spindle-ha-client.xml"));
    Thread.currentThread().setContextClassLoader(new java.net.URLClassLoader(
        new java.net.URL[] {dir.toURI().toURL()}, LocalYarnCluster.class.getClassLoader()));
    Configuration.addDefaultResource("spindle-ha-client.xml");
  }

  /**
   * HA mode: what every HDFS client (the NodeManagers here, and the files written to CONF_DIR)
   * needs to reach the nameservice and fail over between its NameNodes.
   */
  private Map<String, String> hdfsHaClientSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("dfs.nameservices", NAMESERVICE);
    s.put("dfs.ha.namenodes." + NAMESERVICE, String.join(",", NN_IDS));
    for (int i = 0; i < NN_IDS.size(); i++) {
      NameNode nn = dfs.getNameNode(i);
      String suffix = NAMESERVICE + "." + NN_IDS.get(i);
      s.put("dfs.namenode.rpc-address." + suffix,
          advertised(nn.getNameNodeAddress().getHostString()) + ":" + nn.getNameNodeAddress().getPort());
      s.put((nn.getHttpAddress() != null ? "dfs.namenode.http-address." : "dfs.namenode.https-address.") + suffix,
          httpAddress(nn));
    }
    s.put("dfs.client.failover.proxy.provider." + NAMESERVICE,
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    // A client that meets the standby tries the other at once, and not for minutes.
    s.put("dfs.client.failover.sleep.base.millis", "100");
    s.put("dfs.client.failover.sleep.max.millis", "1000");
    return s;
  }

  private MiniDFSCluster startDfs() throws Exception {
    Configuration conf = new HdfsConfiguration();
    conf.setInt("dfs.replication", 1);
    conf.setBoolean("dfs.webhdfs.enabled", true);
    if (masterHost != null) {
      hostsModeNameNodeSettings().forEach(conf::set);
    }
    File base = new File(dataDir, "hdfs");
    MiniDFSCluster cluster;
    if (ha) {
      // Shared edits in a directory MiniDFSCluster makes; the standby reads them every second,
      // so a failover has little to catch up on.
      conf.setInt("dfs.ha.tail-edits.period", 1);
      MiniDFSNNTopology.NSConf ns = new MiniDFSNNTopology.NSConf(NAMESERVICE);
      NN_IDS.forEach(id -> ns.addNN(new MiniDFSNNTopology.NNConf(id)));
      Configuration nnConf = masterHost != null ? keepingReplication(conf) : conf;
      if (kerberos != null) { // hosts mode: the NameNodes as nn
        kerberos.hdfsServerSettings().forEach(nnConf::set);
      }
      cluster = asNameNode(() -> {
        MiniDFSCluster built = new MiniDFSCluster.Builder(nnConf, base)
            .nnTopology(new MiniDFSNNTopology().addNameservice(ns))
            .numDataNodes(masterHost != null ? 0 : 1) // in hosts mode on the worker hosts
            .build();
        built.waitActive();
        if (masterHost != null) {
          nameNodesNameTheirNameservice(built);
        }
        built.transitionToActive(0);
        makeSharedDirs(built);
        return built;
      });
    } else if (kerberos == null) {
      cluster = new MiniDFSCluster.Builder(conf, base).numDataNodes(1).build();
      cluster.waitActive();
      makeSharedDirs(cluster);
    } else {
      // The NameNode as nn, the DataNode as dn: each RPC server answers as its own principal.
      // So the NameNode starts alone.
      Configuration nnConf = keepingReplication(conf);
      kerberos.hdfsServerSettings().forEach(nnConf::set);
      cluster = Kerberos.as(nnUser, () -> new MiniDFSCluster.Builder(nnConf, base).numDataNodes(0).build());
      MiniDFSCluster started = cluster;
      Kerberos.as(dnUser, () -> {
        started.startDataNodes(nnConf, 1, true, null, null); // the NameNode's address is in it
        return null;
      });
      Kerberos.as(nnUser, () -> { // as the HDFS superuser
        started.waitActive();
        makeSharedDirs(started);
        return null;
      });
    }
    return cluster;
  }

  /** Runs ACTION as the NameNodes' principal in secure mode, as this JVM's user otherwise. */
  private <T> T asNameNode(java.security.PrivilegedExceptionAction<T> action) throws Exception {
    return kerberos == null ? action.run() : Kerberos.as(nnUser, action);
  }

  /**
   * A MiniDFSCluster started without DataNodes of its own sets dfs.replication to their number, 0,
   * which its NameNodes then hand out as their clients' default (Hadoop 3.3's log aggregation
   * asks for it, and every write of aggregated logs fails). This configuration keeps the
   * replication it was given.
   */
  private static Configuration keepingReplication(Configuration conf) {
    return new HdfsConfiguration(conf) {
      @Override
      public void setInt(String name, int value) {
        if (!name.equals("dfs.replication") || value >= 1) {
          super.setInt(name, value);
        }
      }
    };
  }

  /**
   * Hosts mode: the NameNodes listen on every address of the master host (MiniDFSCluster would
   * bind them to 127.0.0.1, out of the other hosts' reach), accept DataNodes of other hosts, and
   * declare a partitioned one dead within about 40 s, not 10 minutes. Files keep two replicas,
   * so one worker host cut off leaves every file readable.
   */
  private static Map<String, String> hostsModeNameNodeSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("dfs.namenode.rpc-bind-host", "0.0.0.0");
    s.put("dfs.namenode.servicerpc-bind-host", "0.0.0.0");
    s.put("dfs.namenode.lifeline.rpc-bind-host", "0.0.0.0");
    s.put("dfs.namenode.http-bind-host", "0.0.0.0");
    s.put("dfs.namenode.datanode.registration.ip-hostname-check", "false");
    s.put("dfs.namenode.heartbeat.recheck-interval", "5000");
    s.put("dfs.replication", "2");
    return s;
  }

  /**
   * A NameNode names itself in WebHDFS redirects (the DataNode then calls it back) by its
   * nameservice when fs.defaultFS names one, as on a real HA NameNode; MiniDFSCluster gives its
   * NameNodes hdfs://127.0.0.1:PORT instead, and so they name localhost, which on a worker host
   * is that host. So they are told the nameservice here.
   */
  private static void nameNodesNameTheirNameservice(MiniDFSCluster cluster) throws Exception {
    Field name = findField(NameNode.class, "clientNamenodeAddress");
    name.setAccessible(true);
    for (int i = 0; i < NN_IDS.size(); i++) {
      name.set(cluster.getNameNode(i), NAMESERVICE);
    }
  }

  /** World-writable /tmp and /user so tests may act as any user name (simple auth). */
  private static void makeSharedDirs(MiniDFSCluster cluster) throws IOException {
    FileSystem fs = cluster.getFileSystem(0); // in HA mode the active one
    for (String dir : List.of("/tmp", "/user", "/app-logs")) {
      fs.mkdirs(new Path(dir));
      fs.setPermission(new Path(dir), new FsPermission((short) 01777));
    }
  }

  /**
   * Secure mode: MiniYARNCluster's ResourceManager skips its Kerberos login (it expects one
   * identity for the whole JVM); this one sets itself up and starts as rm instead, so its
   * threads, and with them its RPC servers, have rm's identity, not the NodeManagers' nm.
   */
  private final class SecureYarnCluster extends MiniYARNCluster {
    SecureYarnCluster() {
      super("local-yarn", nodes, 1, 1);
    }

    @Override
    protected ResourceManager createResourceManager() {
      return new ResourceManager() {
        @Override
        protected void doSecureLogin() {
          // The identity comes from the doAs around init and start.
        }

        @Override
        protected void serviceInit(Configuration conf) throws Exception {
          Kerberos.as(rmUser, () -> {
            super.serviceInit(conf);
            return null;
          });
        }

        @Override
        protected void serviceStart() throws Exception {
          Kerberos.as(rmUser, () -> {
            super.serviceStart();
            return null;
          });
        }
      };
    }
  }

  /** Our YARN settings; the same map is written to yarn-site.xml for clients. */
  private Map<String, String> yarnSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("yarn.resourcemanager.scheduler.class",
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler");
    s.put("yarn.scheduler.minimum-allocation-mb", "128");
    s.put("yarn.scheduler.maximum-allocation-mb", "8192");
    s.put("yarn.scheduler.minimum-allocation-vcores", "1");
    s.put("yarn.scheduler.maximum-allocation-vcores", "16");
    s.put("yarn.nodemanager.resource.memory-mb", String.valueOf(NODE_MEMORY_MB));
    s.put("yarn.nodemanager.resource.cpu-vcores", String.valueOf(NODE_VCORES));
    s.put("yarn.nodemanager.vmem-check-enabled", "false");
    // Every NodeManager here shares the machine's one disk with builds and other tests. At YARN's
    // default limit (90 % used) a busy shared disk turns every node unhealthy, and the RM then
    // ends their containers as if the nodes were lost. A disk that is really full still does.
    s.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99.5");
    s.put("yarn.nodemanager.disk-health-checker.min-free-space-per-disk-mb", "1024");
    s.put("yarn.node-labels.enabled", "true");
    // Not in secure mode: there the NodeManagers open container logs with SecureIOUtils, which
    // needs Hadoop's native library (libhadoop.so, not on Maven Central), so aggregation fails.
    s.put("yarn.log-aggregation-enable", String.valueOf(kerberos == null));
    s.put("yarn.nodemanager.remote-app-log-dir", "/app-logs");
    // Both of YARN's aggregated log formats are in use on clusters: the plain cluster writes
    // TFile, Hadoop's default, and the fault-mode one the indexed format, compressed, so tests
    // read each. SPINDLE_LOG_FORMAT and SPINDLE_LOG_COMPRESSION (set by scripts/local-yarn's
    // --log-format and --log-compression) choose otherwise.
    String logFormat = System.getenv().getOrDefault("SPINDLE_LOG_FORMAT", faults ? "IFile" : "TFile");
    String logCompression = System.getenv().getOrDefault("SPINDLE_LOG_COMPRESSION", faults ? "gz" : "none");
    s.put("yarn.log-aggregation.file-formats", logFormat);
    s.put("yarn.log-aggregation.file-controller.TFile.class",
        "org.apache.hadoop.yarn.logaggregation.filecontroller.tfile.LogAggregationTFileController");
    s.put("yarn.log-aggregation.file-controller.IFile.class",
        "org.apache.hadoop.yarn.logaggregation.filecontroller.ifile.LogAggregationIndexedFileController");
    s.put("yarn.nodemanager.log-aggregation.compression-type", logCompression);
    // Containers get this JVM's PATH (the launcher puts the Python venv first). The NM starts
    // containers with an empty environment, so a whitelisted PATH would be bash's default; an
    // admin-env value is set as is, after any PATH the application gives its containers.
    s.put("yarn.nodemanager.admin-env.PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    // Variables a container gets from this JVM's environment unless it sets its own.
    s.put("yarn.nodemanager.env-whitelist", "JAVA_HOME,HADOOP_CONF_DIR,LANG,TZ");
    if (ha) {
      s.put("yarn.resourcemanager.ha.enabled", "true");
      s.put("yarn.resourcemanager.ha.rm-ids", String.join(",", RM_IDS));
      s.put("yarn.resourcemanager.cluster-id", "spindle-yarn");
      // No ZooKeeper: failovers are made by hand (the controls), like `yarn rmadmin -failover`.
      s.put("yarn.resourcemanager.ha.automatic-failover.enabled", "false");
      s.put("yarn.resourcemanager.ha.automatic-failover.embedded", "false");
      // The new active RM takes the applications and running containers from the state store
      // and the NodeManagers' resync, as after a restart.
      putWorkPreservingRecovery(s);
      s.put("yarn.client.failover-sleep-base-ms", "200");
      s.put("yarn.client.failover-sleep-max-ms", "1000");
    }
    if (masterHost != null) {
      s.put("yarn.nm.liveness-monitor.expiry-interval-ms", String.valueOf(HOSTS_NM_EXPIRY_MS));
      s.put("yarn.resourcemanager.nm.liveness-monitor.interval-ms", "1000");
      s.put("yarn.nodemanager.resource.memory-mb", String.valueOf(WORKER_MEMORY_MB));
      s.put("yarn.nodemanager.resource.cpu-vcores", String.valueOf(WORKER_VCORES));
      // Bare nodes: containers get the system's PATH, with none of our Python packages.
      s.put("yarn.nodemanager.admin-env.PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    }
    if (faults) {
      putWorkPreservingRecovery(s);
      // A NodeManager silent for this long is LOST (default 10 minutes).
      s.put("yarn.nm.liveness-monitor.expiry-interval-ms", String.valueOf(NM_EXPIRY_MS));
      s.put("yarn.resourcemanager.nm.liveness-monitor.interval-ms", "1000");
      // The CapacityScheduler's preemption monitor (tuned in capacitySchedulerSettings).
      s.put("yarn.resourcemanager.scheduler.monitor.enable", "true");
      s.put("yarn.resourcemanager.scheduler.monitor.policies",
          "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity."
              + "ProportionalCapacityPreemptionPolicy");
    }
    return s;
  }

  /**
   * Work-preserving RM recovery: applications, attempts and the master keys of their tokens go
   * to a state store (its location is set in yarnConfiguration); an RM that restarts, or becomes
   * active, takes the running containers back from the NodeManagers' resync instead of killing
   * them.
   */
  private static void putWorkPreservingRecovery(Map<String, String> s) {
    s.put("yarn.resourcemanager.recovery.enabled", "true");
    s.put("yarn.resourcemanager.work-preserving-recovery.enabled", "true");
    s.put("yarn.resourcemanager.store.class",
        "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore");
    // After a restart the RM allocates nothing for this long, while the NMs report back.
    s.put("yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms", "3000");
    // Clients, AMs and NMs retry a vanished RM every second (default 30 s) for 15 minutes.
    s.put("yarn.resourcemanager.connect.retry-interval.ms", "1000");
    s.put("yarn.nodemanager.resourcemanager.connect.retry-interval.ms", "1000");
  }

  private Map<String, String> capacitySchedulerSettings() {
    String cs = "yarn.scheduler.capacity.";
    Map<String, String> s = new LinkedHashMap<>();
    // Without DominantResourceCalculator the scheduler looks at memory only and ignores GPUs.
    s.put(cs + "resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
    // Tests start several jobs at once; the default 10 % would keep their AMs waiting.
    s.put(cs + "maximum-am-resource-percent", "0.5");
    // Fault mode adds a queue urgent whose guaranteed share a full default must give back.
    Map<String, String> capacities = faults
        ? Map.of("default", "40", "ml-gpu", "20", "urgent", "40")
        : Map.of("default", "50", "ml-gpu", "50");
    List<String> queues = faults ? List.of("default", "ml-gpu", "urgent") : List.of("default", "ml-gpu");
    s.put(cs + "root.queues", String.join(",", queues));
    for (String q : queues) {
      s.put(cs + "root." + q + ".capacity", capacities.get(q));
      s.put(cs + "root." + q + ".maximum-capacity", "100");
      // One user (the tests) may grow past the queue's share up to maximum-capacity.
      s.put(cs + "root." + q + ".user-limit-factor", faults ? "10" : "2");
    }
    // A blank list means no labels; left unset, default would inherit root's "*".
    s.put(cs + "root.default.accessible-node-labels", " ");
    if (faults || masterHost != null) {
      // One container per node heartbeat: a job's containers spread over the nodes (when the
      // first node may take them all, it does).
      s.put(cs + "per-node-heartbeat.multiple-assignments-enabled", "false");
    }
    if (faults) {
      s.put(cs + "root.urgent.accessible-node-labels", " ");
      String p = "yarn.resourcemanager.monitor.capacity.preemption.";
      s.put(p + "observe_only", "false");
      s.put(p + "monitoring_interval", "1000"); // ms between two runs of the policy
      s.put(p + "max_wait_before_kill", "5000"); // ms between asking an AM and killing
      s.put(p + "total_preemption_per_round", "1.0"); // all that is due, in one round
      s.put(p + "natural_termination_factor", "1.0"); // no waiting for containers to end
      s.put(p + "max_ignored_over_capacity", "0"); // any use over the guarantee counts
    }
    // Hadoop 3.4 and later give root every label at 100%; 3.3 only the labels configured for it,
    // and without this its children's share of the gpu partition is 0% of nothing.
    s.put(cs + "root.accessible-node-labels." + GPU_LABEL + ".capacity", "100");
    s.put(cs + "root.accessible-node-labels." + GPU_LABEL + ".maximum-capacity", "100");
    s.put(cs + "root.ml-gpu.accessible-node-labels", GPU_LABEL);
    s.put(cs + "root.ml-gpu.accessible-node-labels." + GPU_LABEL + ".capacity", "100");
    s.put(cs + "root.ml-gpu.accessible-node-labels." + GPU_LABEL + ".maximum-capacity", "100");
    return s;
  }

  private Configuration yarnConfiguration(String defaultFs) throws IOException {
    Configuration conf = new YarnConfiguration();
    conf.set("fs.defaultFS", defaultFs); // log aggregation writes to HDFS
    if (ha) {
      hdfsHaClientSettings().forEach(conf::set); // the NodeManagers resolve the nameservice
    }
    yarnSettings().forEach(conf::set);
    if (kerberos != null) {
      kerberos.yarnServerSettings().forEach(conf::set);
    }
    capacitySchedulerSettings().forEach(conf::set);
    // Read by the RM and NMs in this JVM; clients read it from resource-types.xml.
    conf.set("yarn.resource-types", GPU);
    // The RM caches its web proxy's host:port, which every tracking URL carries, before its web
    // server binds: with MiniYARNCluster's port 0 the tracking URLs would say port 0. So the RM
    // gets free ports picked here (still ephemeral), and MiniYARNCluster is told to keep them.
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    if (ha) {
      for (String id : RM_IDS) {
        for (String key : RM_ADDRESS_KEYS) {
          conf.set(key + "." + id, freeAddress());
        }
        if (kerberos != null && Kerberos.tls()) {
          conf.set("yarn.resourcemanager.webapp.https.address." + id, freeAddress());
        }
      }
      // NodeManagers over RPC, through the failover proxy, so they follow a failover.
      conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, true);
      conf.set("yarn.resourcemanager.fs.state-store.uri",
          new File(dataDir, "rm-state").toURI().toString());
      // An RM becoming active reloads its queues from the configuration provider; the default
      // one reads capacity-scheduler.xml from the classpath, which has none, and would remove
      // our queues. This one reads them from a directory of ours.
      File rmConf = new File(dataDir, "rm-conf");
      Files.createDirectories(rmConf.toPath());
      Configuration cs = new Configuration(false);
      // The scheduler's limits (maximum allocation) are read from the same file on reload.
      yarnSettings().forEach(cs::set);
      cs.set("yarn.resource-types", GPU);
      capacitySchedulerSettings().forEach(cs::set);
      Daemon.writeSite(cs, new File(rmConf, "capacity-scheduler.xml"));
      // A ResourceManager process of its own (hosts mode) reads its resource types from there too.
      Configuration types = new Configuration(false);
      types.set("yarn.resource-types", GPU);
      Daemon.writeSite(types, new File(rmConf, "resource-types.xml"));
      conf.set("yarn.resourcemanager.configuration.provider-class",
          "org.apache.hadoop.yarn.FileSystemBasedConfigurationProvider");
      conf.set("yarn.resourcemanager.configuration.file-system-based-store", rmConf.toURI().toString());
    } else {
      for (String key : RM_ADDRESS_KEYS) {
        conf.set(key, freeAddress());
      }
      if (kerberos != null && Kerberos.tls()) {
        conf.set("yarn.resourcemanager.webapp.https.address", freeAddress());
      }
    }
    if (faults) {
      // The NodeManagers talk to the RM by RPC, not by direct calls to the first RM's objects,
      // so that they find a restarted RM (same ports).
      conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, true);
      conf.set("yarn.resourcemanager.fs.state-store.uri",
          new File(dataDir, "rm-state").toURI().toString());
    }
    // MiniYARNCluster gives each NM this much memory, overriding resource.memory-mb.
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, NODE_MEMORY_MB);
    // Local stores, as file: URIs: a bare path would land on HDFS, the default file system.
    conf.set("yarn.node-labels.fs-store.root-dir", new File(dataDir, "node-labels").toURI().toString());
    conf.set("yarn.node-attribute.fs-store.root-dir",
        new File(dataDir, "node-attributes").toURI().toString());
    return conf;
  }

  /**
   * Every NM shares one configuration in MiniYARNCluster, so the second node gets its label and
   * its GPUs through the RM's admin interface once it has registered, as an operator would.
   * Again after the node or the RM restarts: the label is kept (node-label store), the GPUs not.
   */
  private static void labelGpuNode(ResourceManager rm, NodeId node) throws Exception {
    AdminService admin = rm.getRMContext().getRMAdminService();
    if (!rm.getRMContext().getNodeLabelManager().getClusterNodeLabelNames().contains(GPU_LABEL)) {
      admin.addToClusterNodeLabels(AddToClusterNodeLabelsRequest.newInstance(
          List.of(NodeLabel.newInstance(GPU_LABEL, /* exclusive */ true))));
    }
    admin.replaceLabelsOnNode(
        ReplaceLabelsOnNodeRequest.newInstance(Map.of(node, Set.of(GPU_LABEL))));
    Resource total = Resource.newInstance(NODE_MEMORY_MB, NODE_VCORES);
    total.setResourceValue(GPU, GPUS_ON_GPU_NODE);
    admin.updateNodeResource(UpdateNodeResourceRequest.newInstance(
        Map.of(node, ResourceOption.newInstance(total, -1))));

    // Both changes reach the scheduler through its event queue: wait until it sees them, so
    // that READY means a GPU request can be allocated right away.
    AbstractYarnScheduler<?, ?> scheduler = (AbstractYarnScheduler<?, ?>) rm.getResourceScheduler();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      SchedulerNode schedulerNode = scheduler.getNode(node);
      if (schedulerNode != null
          && GPU_LABEL.equals(schedulerNode.getPartition())
          && schedulerNode.getTotalResource().getResourceValue(GPU) == GPUS_ON_GPU_NODE) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the scheduler never saw the gpu label and GPUs on " + node);
      }
      Thread.sleep(50);
    }
  }

  /**
   * A port for a server that binds it later. Taken from below the kernel's ephemeral range: a port
   * of that range, free now, may be handed meanwhile to any socket bound to port 0 or connecting
   * out (another server of this JVM, or of a bed starting beside this one), and the server then
   * fails to start. Below the range only explicit binds take ports; each pick is random and
   * tried, so beds starting side by side do not pick the same one.
   */
  private String freeAddress() throws IOException {
    int ephemeralStart = ephemeralPortRangeStart();
    int lowest = 10000;
    if (ephemeralStart - lowest < 1000) {
      // An unusual range: no room below it, so the kernel's pick it is. A port closed again may be
      // the kernel's next pick too, so none is handed out twice.
      for (int attempt = 0; attempt < 500; attempt++) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
          if (PORTS_GIVEN.add(socket.getLocalPort())) {
            return advertised(MiniYARNCluster.getHostname()) + ":" + socket.getLocalPort();
          }
        }
      }
      throw new IOException("the kernel gave no port not handed out already in 500 tries");
    }
    for (int attempt = 0; attempt < 500; attempt++) {
      int port = lowest + PORT_PICKS.nextInt(ephemeralStart - lowest);
      // Picked already for another server of this cluster, which has not bound it yet.
      if (PORTS_GIVEN.contains(port)) continue;
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
        PORTS_GIVEN.add(port);
        return advertised(MiniYARNCluster.getHostname()) + ":" + port;
      } catch (IOException taken) {
        // in use: try another
      }
    }
    throw new IOException("no free port found between " + lowest + " and " + ephemeralStart
        + " in 500 tries; free some, or start fewer clusters at once");
  }

  private static final java.util.Random PORT_PICKS = new java.security.SecureRandom();
  private static final java.util.Set<Integer> PORTS_GIVEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private static int ephemeralPortRangeStart() {
    try {
      String range = Files.readString(new File("/proc/sys/net/ipv4/ip_local_port_range").toPath()).trim();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException unreadable) {
      return 32768; // Linux's default
    }
  }

  private void writeConfigFiles(String defaultFs, Configuration rmConf) throws IOException {
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", defaultFs);
    if (kerberos != null) {
      Kerberos.coreSettings().forEach(core::set);
    }
    write(core, "core-site.xml");

    Configuration dfsConf = dfs.getConfiguration(0);
    Configuration hdfs = new Configuration(false);
    if (ha) {
      hdfsHaClientSettings().forEach(hdfs::set);
    } else {
      hdfs.set("dfs.namenode.rpc-address", dfsConf.get("dfs.namenode.rpc-address"));
      hdfs.set("dfs.namenode.http-address", dfsConf.get("dfs.namenode.http-address"));
    }
    hdfs.set("dfs.webhdfs.enabled", "true");
    hdfs.set("dfs.replication", masterHost != null ? "2" : "1");
    if (kerberos != null) {
      Kerberos.hdfsClientSettings().forEach(hdfs::set);
      if (Kerberos.tls() && !ha) {
        hdfs.set("dfs.namenode.https-address", dfsConf.get("dfs.namenode.https-address"));
      }
    }
    write(hdfs, "hdfs-site.xml");

    Configuration site = new Configuration(false);
    yarnSettings().forEach(site::set);
    site.set("yarn.resourcemanager.hostname", advertised(MiniYARNCluster.getHostname()));
    if (kerberos != null) {
      Kerberos.yarnClientSettings().forEach(site::set);
      if (Kerberos.tls()) {
        site.set("yarn.http.policy", "HTTPS_ONLY");
        if (!ha) {
          site.set("yarn.resourcemanager.webapp.https.address",
              rmConf.get("yarn.resourcemanager.webapp.https.address"));
        }
      }
    }
    if (ha) {
      for (String id : RM_IDS) {
        for (String key : RM_ADDRESS_KEYS) {
          site.set(key + "." + id, rmConf.get(key + "." + id));
        }
        if (kerberos != null && Kerberos.tls()) {
          String key = "yarn.resourcemanager.webapp.https.address." + id;
          site.set(key, rmConf.get(key));
        }
      }
    } else {
      for (String key : RM_ADDRESS_KEYS) {
        site.set(key, rmConf.get(key));
      }
    }
    // Java AMs (the probe, skein, TonY) find Hadoop's jars here: the cluster's own classpath.
    site.set("yarn.application.classpath",
        confDir + "," + System.getProperty("java.class.path").replace(File.pathSeparatorChar, ','));
    write(site, "yarn-site.xml");

    Configuration types = new Configuration(false);
    types.set("yarn.resource-types", GPU);
    write(types, "resource-types.xml");

    Configuration cs = new Configuration(false);
    capacitySchedulerSettings().forEach(cs::set);
    write(cs, "capacity-scheduler.xml"); // for people reading the set-up; clients ignore it
  }

  private void write(Configuration conf, String name) throws IOException {
    Daemon.writeSite(conf, new File(confDir, name));
  }

  private void stop() {
    System.err.println("local-yarn: stopping");
    stopping = true;
    // Each step on its own, so that one failing does not leave the rest running.
    if (yarn != null) {
      synchronized (this) { // not in the middle of a fault control
        run("stopping YARN", yarn::stop); // NMs kill their containers' process groups
      }
    }
    if (rms != null) {
      synchronized (this) {
        run("stopping the ResourceManagers", rms::stop);
      }
    }
    if (dfs != null) {
      run("stopping HDFS", dfs::shutdown);
    }
    if (kerberos != null) {
      run("stopping the KDC", kerberos::stop);
    }
    // Containers run in sessions of their own (setsid) but stay our descendants while we live:
    // anything the NMs failed to kill dies here, so no process outlives the cluster.
    ProcessHandle.current().descendants().forEach(p -> {
      System.err.println("local-yarn: killing leftover process " + p.pid() + " "
          + p.info().commandLine().orElse(""));
      p.destroyForcibly();
    });
    System.err.println("local-yarn: stopped");
  }

  private static void run(String what, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      System.err.println("local-yarn: " + what + " failed:");
      e.printStackTrace();
    }
  }

  /**
   * The fault controls. A request is a file {@code ID.req} in the control directory holding one
   * line (written under another name and renamed, so it is never read half written):
   *
   * <ul>
   *   <li>{@code stop-node N} stops NodeManager N (0, 1, or 2 which has the gpu label): it kills its
   *       containers and unregisters, and the RM marks the node SHUTDOWN at once;
   *   <li>{@code stop-node N lost} stops it without unregistering, as if the machine had died:
   *       the RM declares the node LOST after {@link #NM_EXPIRY_MS};
   *   <li>{@code start-node N} starts a new NodeManager in place of a stopped one, on the same
   *       port, hence the same NodeId (and label);
   *   <li>{@code restart-rm [SECONDS]} stops the ResourceManager, waits SECONDS (default 0) and
   *       starts a new one on the same ports, which recovers from the state store; answers once
   *       the running NodeManagers have registered again.
   * </ul>
   *
   * In HA mode only these two:
   *
   * <ul>
   *   <li>{@code failover-rm} makes the active ResourceManager standby and the other active
   *       through their admin (HA) services; answers once the NodeManagers run at the new one;
   *   <li>{@code failover-nn} does the same for the NameNodes; answers once the new active one
   *       serves a client of the nameservice.
   * </ul>
   *
   * The answer is the file {@code ID.res}: {@code ok MESSAGE} or {@code error MESSAGE}, one line.
   * The directory also holds {@code nodes}, the state of each node, rewritten after each change.
   * Requests run one at a time, in the order of their names.
   */
  private final class Controls {
    private final String[] nodeStates = new String[nodes];
    private int rmRestarts;

    void start() throws IOException {
      Files.createDirectories(controlDir.toPath());
      Arrays.fill(nodeStates, "running");
      writeNodes();
      Thread thread = new Thread(this::loop, "local-yarn-controls");
      thread.setDaemon(true);
      thread.start();
    }

    private void loop() {
      while (!stopping) {
        try {
          File[] requests = controlDir.listFiles((dir, name) -> name.endsWith(".req"));
          if (requests != null) {
            Arrays.sort(requests);
            for (File request : requests) {
              serve(request);
            }
          }
          Thread.sleep(200);
        } catch (InterruptedException e) {
          return;
        } catch (Throwable t) {
          System.err.println("local-yarn: controls: " + t);
        }
      }
    }

    private void serve(File request) throws IOException {
      String name = request.getName();
      String id = name.substring(0, name.length() - ".req".length());
      String line = Files.readString(request.toPath(), StandardCharsets.UTF_8).trim();
      Files.deleteIfExists(request.toPath());
      System.err.println("local-yarn: control request: " + line);
      String answer;
      try {
        synchronized (LocalYarnCluster.this) {
          if (stopping) {
            throw new IllegalStateException("the cluster is stopping");
          }
          answer = "ok " + execute(line.split("\\s+"));
        }
      } catch (Exception e) {
        System.err.println("local-yarn: control request failed: " + line);
        e.printStackTrace();
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        answer = "error " + message.replace('\n', ' ');
      }
      System.err.println("local-yarn: control answer: " + answer);
      writeAtomically(new File(controlDir, id + ".res"), answer + "\n");
      writeNodes();
    }

    private String execute(String[] words) throws Exception {
      if (ha) {
        if (words.length == 1 && words[0].equals("failover-rm")) {
          return failoverRm();
        }
        if (words.length == 1 && words[0].equals("failover-nn")) {
          return failoverNn();
        }
        throw new IllegalArgumentException("the HA cluster knows failover-rm and failover-nn, not "
            + String.join(" ", words));
      }
      if (words[0].startsWith("failover-")) {
        throw new IllegalArgumentException(words[0] + " needs the HA cluster (--ha or --hosts)");
      }
      switch (words[0]) {
        case "stop-node":
          if (words.length == 2 || (words.length == 3 && words[2].equals("lost"))) {
            return stopNode(nodeIndex(words[1]), words.length == 3);
          }
          break;
        case "start-node":
          if (words.length == 2) {
            return startNode(nodeIndex(words[1]));
          }
          break;
        case "restart-rm":
          if (words.length <= 2) {
            return restartRm(words.length == 2 ? Integer.parseInt(words[1]) : 0);
          }
          break;
        default:
          break;
      }
      throw new IllegalArgumentException("unknown request: " + String.join(" ", words));
    }

    private int nodeIndex(String word) {
      if (!word.matches("[0-9]+") || Integer.parseInt(word) >= nodes) {
        throw new IllegalArgumentException(
            "no node " + word + " (nodes are 0 to " + (nodes - 1) + ")");
      }
      return Integer.parseInt(word);
    }

    private String describe(int n) {
      return "node " + n + " (" + nodeIds[n] + (n == gpuNodeIndex ? ", label gpu)" : ")");
    }

    private String stopNode(int n, boolean lost) throws Exception {
      if (!nodeStates[n].equals("running")) {
        throw new IllegalStateException(describe(n) + " is already " + nodeStates[n]);
      }
      NodeManager nm = yarn.getNodeManager(n);
      if (lost) {
        // The status updater unregisters from the RM on stop unless it believes the RM
        // unreachable: make it believe so, and the RM hears nothing more from the node.
        NodeStatusUpdater updater = nm.getNodeStatusUpdater();
        Field failed = findField(updater.getClass(), "failedToConnect");
        failed.setAccessible(true);
        failed.setBoolean(updater, true);
      }
      long started = System.nanoTime();
      nm.stop(); // kills the node's containers
      long stopMs = millisSince(started);
      nodeStates[n] = lost ? "lost" : "stopped";
      if (lost) {
        return describe(n) + " stopped in " + stopMs + " ms without telling the RM, which will"
            + " declare it LOST within " + (NM_EXPIRY_MS / 1000 + 2) + " s";
      }
      NodeState state = waitForRmNodeState(n, Set.of(NodeState.SHUTDOWN, NodeState.LOST), 30);
      return describe(n) + " stopped in " + stopMs + " ms; the RM marked it " + state + " after "
          + millisSince(started) + " ms";
    }

    private String startNode(int n) throws Exception {
      if (nodeStates[n].equals("running")) {
        throw new IllegalStateException(describe(n) + " is running");
      }
      long started = System.nanoTime();
      NodeManager old = yarn.getNodeManager(n);
      Configuration conf = new YarnConfiguration(old.getConfig());
      // The old port, so the node keeps its NodeId and with it its label.
      conf.set(YarnConfiguration.NM_ADDRESS, nodeIds[n].getHost() + ":" + nodeIds[n].getPort());
      NodeManager nm = null;
      for (int attempt = 1; ; attempt++) {
        nm = yarn.new CustomNodeManager();
        try {
          nm.init(conf);
          nm.start();
          break;
        } catch (RuntimeException e) {
          nm.stop();
          if (attempt == 10) {
            throw new IllegalStateException("a new NodeManager for " + describe(n)
                + " did not start: " + e, e);
          }
          System.err.println("local-yarn: starting NodeManager " + n + " failed, retrying: " + e);
          Thread.sleep(1000);
        }
      }
      // MiniYARNCluster's own slot, so that getNodeManager and its stop see the new one.
      Field slot = findField(MiniYARNCluster.class, "nodeManagers");
      slot.setAccessible(true);
      ((NodeManager[]) slot.get(yarn))[n] = nm;
      WebRoutes.keepEachOnItsOwn(yarn, nodes);
      nodeStates[n] = "running";
      if (!nm.getNMContext().getNodeId().equals(nodeIds[n])) {
        throw new IllegalStateException("the new NodeManager is " + nm.getNMContext().getNodeId()
            + ", not " + nodeIds[n]);
      }
      waitForRmNodeState(n, Set.of(NodeState.RUNNING), 60);
      if (n == gpuNodeIndex) {
        labelGpuNode(yarn.getResourceManager(), nodeIds[n]);
      }
      return describe(n) + " started again in " + millisSince(started) + " ms; RUNNING at the RM";
    }

    private String restartRm(int downSeconds) throws Exception {
      long started = System.nanoTime();
      yarn.stopResourceManager(0);
      long stoppedMs = millisSince(started);
      // What the RM itself does when it becomes active again (HA): without it the new RM would
      // add its recovered usage to the old RM's queue and cluster metrics (JVM-wide singletons).
      ClusterMetrics.destroy();
      QueueMetrics.clearQueueMetrics();
      Thread.sleep(downSeconds * 1000L);
      long startAt = System.nanoTime();
      yarn.restartResourceManager(0);
      ResourceManager rm = yarn.getResourceManager();
      WebRoutes.keepEachOnItsOwn(yarn, nodes);
      long startMs = millisSince(startAt);
      List<String> running = new ArrayList<>();
      for (int n = 0; n < nodes; n++) {
        if (nodeStates[n].equals("running")) {
          waitForRmNodeState(n, Set.of(NodeState.RUNNING), 60);
          running.add(String.valueOf(n));
        }
      }
      if (nodeStates[gpuNodeIndex].equals("running")) {
        labelGpuNode(rm, nodeIds[gpuNodeIndex]);
      }
      rmRestarts++;
      return "ResourceManager restarted: stopped in " + stoppedMs + " ms, down "
          + downSeconds + " s, started in " + startMs + " ms, node(s) " + String.join(", ", running)
          + " RUNNING again after " + millisSince(started) + " ms in all; "
          + rm.getRMContext().getRMApps().size() + " application(s) recovered";
    }

    private int activeRm() throws IOException {
      if (rms != null) {
        return RM_IDS.indexOf(rms.active());
      }
      for (int i = 0; i < RM_IDS.size(); i++) {
        ResourceManager rm = yarn.getResourceManager(i);
        if (rm != null && rm.getRMContext().getRMAdminService().getServiceStatus().getState()
            == HAServiceState.ACTIVE) {
          return i;
        }
      }
      throw new IllegalStateException("no ResourceManager is active");
    }

    private int activeNn() {
      for (int i = 0; i < NN_IDS.size(); i++) {
        if (dfs.getNameNode(i).isActiveState()) {
          return i;
        }
      }
      throw new IllegalStateException("no NameNode is active");
    }

    private String failoverRm() throws Exception {
      long started = System.nanoTime();
      int from = activeRm();
      int to = 1 - from;
      // The nodes to wait for: this JVM's, or in hosts mode those running at the old RM.
      if (rms != null) {
        int nodesBefore = runningNodesAt(RM_IDS.get(from));
        rms.transition(RM_IDS.get(from), false);
        rms.transition(RM_IDS.get(to), true);
        // Served means: every node that ran at the old one has registered with the new one.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int nodesAfter;
        while ((nodesAfter = runningNodesAt(RM_IDS.get(to))) < nodesBefore) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(RM_IDS.get(to) + " is active but only " + nodesAfter
                + " of " + nodesBefore + " NodeManagers registered with it within 60 s");
          }
          Thread.sleep(200);
        }
        return RM_IDS.get(to) + " is active (" + RM_IDS.get(from) + " standby) after "
            + millisSince(started) + " ms; " + nodesAfter + " NodeManager(s) RUNNING at it";
      }
      Set<NodeId> running = new java.util.TreeSet<>(Arrays.asList(nodeIds));
      StateChangeRequestInfo byUser = new StateChangeRequestInfo(RequestSource.REQUEST_BY_USER);
      yarn.getResourceManager(from).getRMContext().getRMAdminService().transitionToStandby(byUser);
      yarn.getResourceManager(to).getRMContext().getRMAdminService().transitionToActive(byUser);
      ResourceManager rm = yarn.getResourceManager(to);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      for (NodeId id : running) {
        while (true) {
          RMNode node = rm.getRMContext().getRMNodes().get(id);
          if (node != null && node.getState() == NodeState.RUNNING) {
            break;
          }
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(RM_IDS.get(to) + " is active but node " + id
                + " did not register with it within 60 s");
          }
          Thread.sleep(100);
        }
      }
      if (nodes > 0) {
        labelGpuNode(rm, nodeIds[gpuNodeIndex]); // the GPUs are not in the state store
      }
      return RM_IDS.get(to) + " is active (" + RM_IDS.get(from) + " standby) after "
          + millisSince(started) + " ms; " + running.size() + " NodeManager(s) RUNNING at it, "
          + rm.getRMContext().getRMApps().size() + " application(s) recovered";
    }

    /** How many nodes an RM's REST API lists as RUNNING (0 when it cannot tell). */
    private int runningNodesAt(String id) throws Exception {
      String address = clusterConf.get("yarn.resourcemanager.webapp.address." + id);
      java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(
              java.net.URI.create("http://" + address + "/ws/v1/cluster/nodes?states=RUNNING"))
              .header("Accept", "application/json").build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return 0;
      }
      return response.body().split("\"state\":\"RUNNING\"", -1).length - 1;
    }

    private String failoverNn() throws Exception {
      long started = System.nanoTime();
      int from = activeNn();
      int to = 1 - from;
      dfs.transitionToStandby(from);
      dfs.transitionToActive(to);
      // Served means a client of the nameservice, which starts at nn1, gets an answer.
      Configuration client = new HdfsConfiguration(false);
      client.set("fs.defaultFS", "hdfs://" + NAMESERVICE);
      hdfsHaClientSettings().forEach(client::set);
      try (FileSystem fs = FileSystem.newInstance(new java.net.URI("hdfs://" + NAMESERVICE), client)) {
        fs.getFileStatus(new Path("/"));
      }
      return NN_IDS.get(to) + " is active (" + NN_IDS.get(from) + " standby) after "
          + millisSince(started) + " ms";
    }

    private NodeState waitForRmNodeState(int n, Set<NodeState> wanted, int seconds)
        throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      NodeState state = null;
      while (System.nanoTime() < deadline) {
        ResourceManager rm = yarn.getResourceManager();
        RMNode node = rm == null ? null : rm.getRMContext().getRMNodes().get(nodeIds[n]);
        if (node == null && rm != null) {
          node = rm.getRMContext().getInactiveRMNodes().get(nodeIds[n]);
        }
        state = node == null ? null : node.getState();
        if (state != null && wanted.contains(state)) {
          return state;
        }
        Thread.sleep(100);
      }
      throw new IllegalStateException("the RM did not see " + describe(n) + " " + wanted
          + " within " + seconds + " s (it is " + state + ")");
    }

    private void writeNodes() throws IOException {
      if (ha) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < RM_IDS.size(); i++) {
          text.append("resourcemanager ").append(RM_IDS.get(i)).append(' ');
          if (rms != null) {
            text.append(rms.describe(RM_IDS.get(i))).append('\n');
            continue;
          }
          ResourceManager rm = yarn.getResourceManager(i);
          text.append(rm == null ? "stopped"
                  : rm.getRMContext().getRMAdminService().getServiceStatus().getState()
                      .toString().toLowerCase())
              .append('\n');
        }
        for (int i = 0; i < NN_IDS.size(); i++) {
          text.append("namenode ").append(NN_IDS.get(i)).append(' ')
              .append(dfs.getNameNode(i).getState().toLowerCase()).append('\n');
        }
        writeAtomically(new File(controlDir, "nodes"), text.toString());
        return;
      }
      StringBuilder text = new StringBuilder();
      for (int n = 0; n < nodes; n++) {
        text.append("node ").append(n).append(' ').append(nodeIds[n]).append(' ')
            .append(nodeStates[n]).append(n == gpuNodeIndex ? " label=gpu" : "").append('\n');
      }
      text.append("resourcemanager ").append(yarn.getResourceManager() == null ? "stopped" : "running")
          .append(" restarts=").append(rmRestarts).append('\n');
      writeAtomically(new File(controlDir, "nodes"), text.toString());
    }
  }

  static Field findField(Class<?> type, String name) throws NoSuchFieldException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        return c.getDeclaredField(name);
      } catch (NoSuchFieldException e) {
        // look further up
      }
    }
    throw new NoSuchFieldException(type.getName() + "." + name);
  }

  private static long millisSince(long nanoTime) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanoTime);
  }

  private static void writeAtomically(File file, String text) throws IOException {
    File tmp = new File(file.getPath() + ".tmp");
    Files.writeString(tmp.toPath(), text, StandardCharsets.UTF_8);
    Files.move(tmp.toPath(), file.toPath(), REPLACE_EXISTING, ATOMIC_MOVE);
  }
}
