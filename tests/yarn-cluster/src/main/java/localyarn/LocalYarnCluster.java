package localyarn;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;
import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import sun.misc.Signal;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeLabel;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.api.protocolrecords.AddToClusterNodeLabelsRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.ReplaceLabelsOnNodeRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.AdminService;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;

/**
 * A real single-machine HDFS + YARN for Spindle's integration tests.
 *
 * <p>Usage: {@code LocalYarnCluster CONF_DIR DATA_DIR}. Starts MiniDFSCluster and
 * MiniYARNCluster in this JVM, writes a Hadoop client configuration into CONF_DIR, prints one
 * {@code READY key=value ...} line on stdout and runs until SIGTERM or SIGINT. Everything else
 * (logs) goes to stderr.
 */
public final class LocalYarnCluster {
  static final String GPU = "yarn.io/gpu";
  static final String GPU_LABEL = "gpu";
  static final int NODE_MEMORY_MB = 12 * 1024;
  // Enough for ~20 one-vcore containers plus their AM on the one unlabelled node. Vcores are only
  // a scheduling count here (no cgroups), so they may exceed the machine's cores.
  static final int NODE_VCORES = 32;
  static final int GPUS_ON_GPU_NODE = 2;

  static final List<String> RM_ADDRESS_KEYS = List.of(
      "yarn.resourcemanager.address",
      "yarn.resourcemanager.scheduler.address",
      "yarn.resourcemanager.resource-tracker.address",
      "yarn.resourcemanager.admin.address",
      "yarn.resourcemanager.webapp.address");

  private final File confDir;
  private final File dataDir;
  private MiniDFSCluster dfs;
  private MiniYARNCluster yarn;

  private LocalYarnCluster(File confDir, File dataDir) {
    this.confDir = confDir;
    this.dataDir = dataDir;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: LocalYarnCluster CONF_DIR DATA_DIR");
      System.exit(2);
    }
    LocalYarnCluster cluster =
        new LocalYarnCluster(new File(args[0]).getAbsoluteFile(), new File(args[1]).getAbsoluteFile());

    // The clusters are stopped on the main thread, before the JVM begins to shut down: inside a
    // shutdown hook Hadoop's services fail ("Shutdown in progress, cannot remove a shutdownHook")
    // and leave their work half done.
    CountDownLatch stopRequested = new CountDownLatch(1);
    for (String name : List.of("TERM", "INT")) {
      Signal.handle(new Signal(name), signal -> {
        System.err.println("local-yarn: got SIG" + signal.getName());
        stopRequested.countDown();
      });
    }
    int status = 0;
    try {
      cluster.start();
      stopRequested.await();
    } catch (Throwable t) {
      t.printStackTrace();
      status = 1;
    }
    cluster.stop();
    System.exit(status);
  }

  private void start() throws Exception {
    Files.createDirectories(confDir.toPath());
    Files.createDirectories(dataDir.toPath());

    dfs = startDfs();
    String defaultFs = dfs.getURI().toString();
    Configuration yarnConf = yarnConfiguration(defaultFs);

    // MiniYARNCluster puts its work dirs under the test data dir, which defaults to ./target.
    System.setProperty("test.build.data", new File(dataDir, "yarn").getPath());
    yarn = new MiniYARNCluster("local-yarn", 2, 1, 1);
    yarn.init(yarnConf);
    yarn.start();

    NodeId gpuNode = yarn.getNodeManager(1).getNMContext().getNodeId();
    NodeId cpuNode = yarn.getNodeManager(0).getNMContext().getNodeId();
    ResourceManager rm = yarn.getResourceManager();
    labelGpuNode(rm, gpuNode);

    Configuration rmConf = rm.getConfig();
    writeConfigFiles(defaultFs, rmConf);

    String nnHttp = dfs.getNameNode().getHttpAddress().getHostString() + ":"
        + dfs.getNameNode().getHttpAddress().getPort();
    System.out.println("READY conf=" + confDir
        + " rm=" + rmConf.get("yarn.resourcemanager.address")
        + " rm_scheduler=" + rmConf.get("yarn.resourcemanager.scheduler.address")
        + " rm_web=" + WebAppUtils.getRMWebAppURLWithoutScheme(rmConf)
        + " namenode=" + defaultFs
        + " webhdfs=" + nnHttp
        + " gpu_node=" + gpuNode
        + " cpu_node=" + cpuNode
        + " pid=" + ProcessHandle.current().pid());
    System.out.flush();
  }

  private MiniDFSCluster startDfs() throws IOException {
    Configuration conf = new HdfsConfiguration();
    conf.setInt("dfs.replication", 1);
    conf.setBoolean("dfs.webhdfs.enabled", true);
    MiniDFSCluster cluster =
        new MiniDFSCluster.Builder(conf, new File(dataDir, "hdfs")).numDataNodes(1).build();
    cluster.waitActive();
    // World-writable /tmp and /user so tests may act as any user name (simple auth).
    FileSystem fs = cluster.getFileSystem();
    for (String dir : List.of("/tmp", "/user", "/app-logs")) {
      fs.mkdirs(new Path(dir));
      fs.setPermission(new Path(dir), new FsPermission((short) 01777));
    }
    return cluster;
  }

  /** Our YARN settings; the same map is written to yarn-site.xml for clients. */
  private static Map<String, String> yarnSettings() {
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
    s.put("yarn.node-labels.enabled", "true");
    s.put("yarn.log-aggregation-enable", "true");
    s.put("yarn.nodemanager.remote-app-log-dir", "/app-logs");
    // Containers get this JVM's PATH (the launcher puts the Python venv first). The NM starts
    // containers with an empty environment, so a whitelisted PATH would be bash's default; an
    // admin-env value is set as is, after any PATH the application gives its containers.
    s.put("yarn.nodemanager.admin-env.PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    // Variables a container gets from this JVM's environment unless it sets its own.
    s.put("yarn.nodemanager.env-whitelist", "JAVA_HOME,HADOOP_CONF_DIR,LANG,TZ");
    return s;
  }

  private static Map<String, String> capacitySchedulerSettings() {
    String cs = "yarn.scheduler.capacity.";
    Map<String, String> s = new LinkedHashMap<>();
    // Without DominantResourceCalculator the scheduler looks at memory only and ignores GPUs.
    s.put(cs + "resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
    // Tests start several jobs at once; the default 10 % would keep their AMs waiting.
    s.put(cs + "maximum-am-resource-percent", "0.5");
    s.put(cs + "root.queues", "default,ml-gpu");
    for (String q : List.of("default", "ml-gpu")) {
      s.put(cs + "root." + q + ".capacity", "50");
      s.put(cs + "root." + q + ".maximum-capacity", "100");
      // One user (the tests) may grow past the queue's share up to maximum-capacity.
      s.put(cs + "root." + q + ".user-limit-factor", "2");
    }
    // A blank list means no labels; left unset, default would inherit root's "*".
    s.put(cs + "root.default.accessible-node-labels", " ");
    s.put(cs + "root.ml-gpu.accessible-node-labels", GPU_LABEL);
    s.put(cs + "root.ml-gpu.accessible-node-labels." + GPU_LABEL + ".capacity", "100");
    s.put(cs + "root.ml-gpu.accessible-node-labels." + GPU_LABEL + ".maximum-capacity", "100");
    return s;
  }

  private Configuration yarnConfiguration(String defaultFs) throws IOException {
    Configuration conf = new YarnConfiguration();
    conf.set("fs.defaultFS", defaultFs); // log aggregation writes to HDFS
    yarnSettings().forEach(conf::set);
    capacitySchedulerSettings().forEach(conf::set);
    // Read by the RM and NMs in this JVM; clients read it from resource-types.xml.
    conf.set("yarn.resource-types", GPU);
    // The RM caches its web proxy's host:port, which every tracking URL carries, before its web
    // server binds: with MiniYARNCluster's port 0 the tracking URLs would say port 0. So the RM
    // gets free ports picked here (still ephemeral), and MiniYARNCluster is told to keep them.
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    for (String key : RM_ADDRESS_KEYS) {
      conf.set(key, freeAddress());
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
   */
  private static void labelGpuNode(ResourceManager rm, NodeId node) throws Exception {
    AdminService admin = rm.getRMContext().getRMAdminService();
    admin.addToClusterNodeLabels(AddToClusterNodeLabelsRequest.newInstance(
        List.of(NodeLabel.newInstance(GPU_LABEL, /* exclusive */ true))));
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

  private static String freeAddress() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return MiniYARNCluster.getHostname() + ":" + socket.getLocalPort();
    }
  }

  private void writeConfigFiles(String defaultFs, Configuration rmConf) throws IOException {
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", defaultFs);
    write(core, "core-site.xml");

    Configuration dfsConf = dfs.getConfiguration(0);
    Configuration hdfs = new Configuration(false);
    hdfs.set("dfs.namenode.rpc-address", dfsConf.get("dfs.namenode.rpc-address"));
    hdfs.set("dfs.namenode.http-address", dfsConf.get("dfs.namenode.http-address"));
    hdfs.set("dfs.webhdfs.enabled", "true");
    hdfs.set("dfs.replication", "1");
    write(hdfs, "hdfs-site.xml");

    Configuration site = new Configuration(false);
    yarnSettings().forEach(site::set);
    site.set("yarn.resourcemanager.hostname", MiniYARNCluster.getHostname());
    for (String key : RM_ADDRESS_KEYS) {
      site.set(key, rmConf.get(key));
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
    // Write to a temporary name and rename, so a reader never sees half a file.
    File tmp = new File(confDir, name + ".tmp");
    try (OutputStream out = new FileOutputStream(tmp)) {
      conf.writeXml(out);
    }
    Files.move(tmp.toPath(), new File(confDir, name).toPath(), REPLACE_EXISTING, ATOMIC_MOVE);
  }

  private void stop() {
    System.err.println("local-yarn: stopping");
    // Each step on its own, so that one failing does not leave the rest running.
    if (yarn != null) {
      run("stopping YARN", yarn::stop); // NMs kill their containers' process groups
    }
    if (dfs != null) {
      run("stopping HDFS", dfs::shutdown);
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
}
