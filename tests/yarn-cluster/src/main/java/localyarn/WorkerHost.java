package localyarn;

import java.io.File;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * One worker host of the multi-host local cluster: a DataNode and a NodeManager in this JVM,
 * which scripts/local-yarn starts inside the host's network namespace, under the host's name.
 *
 * <p>Usage: {@code WorkerHost CLUSTER_CONF_DIR HOST_DIR HOST_NAME}. Reads the client configuration
 * that the master host wrote into CLUSTER_CONF_DIR, writes this host's own into HOST_DIR/conf
 * (which must be first on this JVM's classpath, as HADOOP_CONF_DIR is on a real node: the
 * NodeManager's localizers and log aggregation read only the default resources), starts both
 * daemons, prints one {@code READY key=value ...} line on stdout once the NodeManager has
 * registered, and runs until SIGTERM or SIGINT.
 *
 * <p>With Kerberos (SPINDLE_KERBEROS_DIR names the cluster's keytabs and krb5.conf, and
 * SPINDLE_WORKER_SERVER_CONF the server settings the master host wrote) each daemon logs in as
 * its own principal on this host, dn/HOST and nm/HOST, and starts inside a doAs of it, so that
 * each answers as itself though both share this JVM.
 */
public final class WorkerHost {
  private static final List<String> SITE_FILES =
      List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "resource-types.xml");

  private final File clusterConf;
  private final File hostDir;
  private final String host;
  /** Kerberos: the keytabs, and the master host's server settings for this host's daemons. */
  private final File kerberosDir = fileFromEnvironment("SPINDLE_KERBEROS_DIR");
  private final File serverConf = fileFromEnvironment("SPINDLE_WORKER_SERVER_CONF");
  private DataNode dataNode;
  private NodeManager nodeManager;

  private WorkerHost(File clusterConf, File hostDir, String host) {
    this.clusterConf = clusterConf;
    this.hostDir = hostDir;
    this.host = host;
  }

  private static File fileFromEnvironment(String name) {
    String value = System.getenv(name);
    return value == null || value.isEmpty() ? null : new File(value);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: WorkerHost CLUSTER_CONF_DIR HOST_DIR HOST_NAME");
      System.exit(2);
    }
    WorkerHost worker = new WorkerHost(new File(args[0]).getAbsoluteFile(),
        new File(args[1]).getAbsoluteFile(), args[2]);
    Daemon.runUntilSignalled("worker host " + args[2], worker::start, worker::stop);
  }

  private void start() throws Exception {
    File conf = new File(hostDir, "conf");
    Files.createDirectories(conf.toPath());
    for (String name : SITE_FILES) {
      Configuration site = new Configuration(false);
      site.addResource(new Path(new File(clusterConf, name).toURI()));
      File serverSettings = serverConf == null ? null : new File(serverConf, name);
      if (serverSettings != null && serverSettings.isFile()) {
        site.addResource(new Path(serverSettings.toURI()));
      }
      if (name.equals("yarn-site.xml")) {
        nodeManagerSettings().forEach(site::set);
      } else if (name.equals("hdfs-site.xml")) {
        dataNodeSettings().forEach(site::set);
      } else if (name.equals("core-site.xml")) {
        // Modes set by system call, as with Hadoop's native library (see SyscallChmodLocalFs).
        site.set("fs.AbstractFileSystem.file.impl", SyscallChmodLocalFs.class.getName());
      }
      Daemon.writeSite(site, new File(conf, name));
    }

    // Two daemons in one JVM register the same JVM metrics source, which a real node's separate
    // processes never do; mini-cluster mode lets the second one through.
    DefaultMetricsSystem.setMiniClusterMode(true);
    // Read through the classpath, like every Configuration the daemons make for themselves.
    HdfsConfiguration hdfsConf = new HdfsConfiguration();
    UserGroupInformation dn = null;
    UserGroupInformation nm = null;
    if (kerberosDir != null) {
      UserGroupInformation.setConfiguration(hdfsConf);
      dn = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
          "dn/" + host + "@" + Kerberos.REALM, Kerberos.keytab(kerberosDir, "dn").getPath());
      nm = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
          "nm/" + host + "@" + Kerberos.REALM, Kerberos.keytab(kerberosDir, "nm").getPath());
    }
    dataNode = as(dn, () -> DataNode.createDataNode(new String[0], hdfsConf));
    nodeManager = new NodeManager();
    as(nm, () -> {
      nodeManager.init(new YarnConfiguration());
      nodeManager.start(); // returns once registered with the active ResourceManager
      return null;
    });

    System.out.println("READY host=" + host
        + " node=" + nodeManager.getNMContext().getNodeId()
        + " datanode=" + dataNode.getDisplayName()
        + " pid=" + ProcessHandle.current().pid());
    System.out.flush();
  }

  /**
   * This host's addresses: the NodeManager names itself by the host's name (its NodeId, and
   * NM_HOST in every container), and listens on every address of the host.
   */
  private Map<String, String> nodeManagerSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("yarn.nodemanager.hostname", host);
    s.put("yarn.nodemanager.bind-host", "0.0.0.0");
    s.put("yarn.nodemanager.address", host + ":0");
    s.put("yarn.nodemanager.localizer.address", host + ":0");
    s.put("yarn.nodemanager.webapp.address", host + ":0");
    s.put("yarn.nodemanager.webapp.https.address", host + ":0");
    s.put("yarn.nodemanager.local-dirs", new File(hostDir, "nm-local").getPath());
    s.put("yarn.nodemanager.log-dirs", new File(hostDir, "nm-logs").getPath());
    s.put("yarn.nodemanager.recovery.enabled", "false");
    return s;
  }

  private Map<String, String> dataNodeSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("dfs.datanode.hostname", host);
    s.put("dfs.datanode.address", "0.0.0.0:0");
    s.put("dfs.datanode.http.address", "0.0.0.0:0");
    s.put("dfs.datanode.ipc.address", "0.0.0.0:0");
    s.put("dfs.datanode.https.address", "0.0.0.0:0");
    s.put("dfs.datanode.data.dir", new File(hostDir, "dn").toURI().toString());
    s.put("dfs.heartbeat.interval", "3");
    return s;
  }

  private static <T> T as(UserGroupInformation user, java.security.PrivilegedExceptionAction<T> action)
      throws Exception {
    return user == null ? action.run() : Kerberos.as(user, action);
  }

  private void stop() {
    // Each on its own, so one failing does not leave the other running.
    if (nodeManager != null) {
      try {
        nodeManager.stop(); // kills its containers
      } catch (RuntimeException e) {
        e.printStackTrace();
      }
    }
    if (dataNode != null) {
      try {
        dataNode.shutdown();
      } catch (RuntimeException e) {
        e.printStackTrace();
      }
    }
    ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
  }
}
