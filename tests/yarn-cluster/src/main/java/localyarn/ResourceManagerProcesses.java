package localyarn;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.ha.HAServiceProtocol.RequestSource;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.hadoop.ha.protocolPB.HAServiceProtocolClientSideTranslatorPB;
import org.apache.hadoop.net.NetUtils;

/**
 * The ResourceManagers of the multi-host cluster, each a process of its own running Hadoop's own
 * {@code ResourceManager} main class from a configuration directory of its own, as on a real
 * master host. (Two ResourceManagers in one JVM share their web applications' state, so a
 * standby's REST API would answer for the active one and the other way round.) Failovers go
 * through each one's HA admin protocol, as {@code yarn rmadmin -transitionToActive} does.
 */
final class ResourceManagerProcesses {
  private static final String MAIN = "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager";
  private static final int RPC_TIMEOUT_MS = 15_000;

  private final File dir;
  private final List<String> ids;
  private final Configuration clientConf;
  private final Map<String, String> adminAddresses = new LinkedHashMap<>();
  private final Map<String, Process> processes = new LinkedHashMap<>();

  /**
   * @param dir where each RM gets {@code ID/conf} and {@code ID/log}
   * @param files the configuration files every RM reads (name to settings); yarn-site.xml gets
   *     {@code yarn.resourcemanager.ha.id} added per RM
   * @param adminClientSettings what this JVM's HA admin client needs besides (with Kerberos)
   */
  ResourceManagerProcesses(File dir, List<String> ids, Map<String, Map<String, String>> files,
      Map<String, String> adminClientSettings) throws IOException {
    this.dir = dir;
    this.ids = ids;
    this.clientConf = new Configuration(false);
    adminClientSettings.forEach(clientConf::set);
    Map<String, String> yarnSite = files.get("yarn-site.xml");
    for (String id : ids) {
      adminAddresses.put(id, yarnSite.get("yarn.resourcemanager.admin.address." + id));
      File conf = new File(dir, id + "/conf");
      Files.createDirectories(conf.toPath());
      for (Map.Entry<String, Map<String, String>> file : files.entrySet()) {
        Configuration c = new Configuration(false);
        file.getValue().forEach(c::set);
        if (file.getKey().equals("yarn-site.xml")) {
          c.set("yarn.resourcemanager.ha.id", id);
        }
        Daemon.writeSite(c, new File(conf, file.getKey()));
      }
    }
  }

  /** Starts every RM (each comes up standby), then makes the first one active. */
  void start() throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.add("-Xmx384m");
    // Secure mode: the KDC this JVM started, whose configuration it was given at run time.
    String krb5Conf = System.getProperty("java.security.krb5.conf");
    if (krb5Conf != null) {
      command.add("-Djava.security.krb5.conf=" + krb5Conf);
    }
    for (String id : ids) {
      File conf = new File(dir, id + "/conf");
      List<String> argv = new ArrayList<>(command);
      argv.add("-cp");
      argv.add(conf + File.pathSeparator + System.getProperty("java.class.path"));
      argv.add(MAIN);
      ProcessBuilder builder = new ProcessBuilder(argv);
      builder.redirectErrorStream(true);
      builder.redirectOutput(new File(dir, id + "/log"));
      builder.environment().put("HADOOP_CONF_DIR", conf.getPath());
      processes.put(id, builder.start());
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    for (String id : ids) {
      while (true) {
        if (!processes.get(id).isAlive()) {
          throw new IllegalStateException("ResourceManager " + id + " exited while starting; its log: "
              + new File(dir, id + "/log"));
        }
        try {
          state(id);
          break;
        } catch (IOException e) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("ResourceManager " + id + " did not answer within 120 s: " + e);
          }
          Thread.sleep(250);
        }
      }
    }
    transition(ids.get(0), true);
  }

  HAServiceState state(String id) throws IOException {
    try (Admin admin = new Admin(id)) {
      return admin.proxy.getServiceStatus().getState();
    }
  }

  /** The id of the active RM; throws if none is. */
  String active() throws IOException {
    for (String id : ids) {
      if (processes.get(id).isAlive() && state(id) == HAServiceState.ACTIVE) {
        return id;
      }
    }
    throw new IllegalStateException("no ResourceManager is active");
  }

  void transition(String id, boolean toActive) throws IOException {
    StateChangeRequestInfo byUser = new StateChangeRequestInfo(RequestSource.REQUEST_BY_USER);
    try (Admin admin = new Admin(id)) {
      if (toActive) {
        admin.proxy.transitionToActive(byUser);
      } else {
        admin.proxy.transitionToStandby(byUser);
      }
    }
  }

  String describe(String id) {
    Process p = processes.get(id);
    if (p == null || !p.isAlive()) {
      return "stopped";
    }
    try {
      return state(id).toString().toLowerCase();
    } catch (IOException e) {
      return "not answering";
    }
  }

  /** SIGTERM to each (the RM's shutdown hook stops it cleanly), then SIGKILL after 30 s. */
  void stop() {
    processes.values().forEach(Process::destroy);
    for (Process p : processes.values()) {
      try {
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
      }
    }
  }

  private final class Admin implements AutoCloseable {
    final HAServiceProtocolClientSideTranslatorPB proxy;

    Admin(String id) throws IOException {
      proxy = new HAServiceProtocolClientSideTranslatorPB(
          NetUtils.createSocketAddr(adminAddresses.get(id)), clientConf,
          NetUtils.getDefaultSocketFactory(clientConf), RPC_TIMEOUT_MS);
    }

    @Override
    public void close() {
      proxy.close();
    }
  }
}
