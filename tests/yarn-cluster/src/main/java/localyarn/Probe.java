package localyarn;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.NMClient;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.client.util.YarnClientUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;

/**
 * A tiny YARN application to check the local cluster end to end, in the spirit of Hadoop's
 * distributed shell (hadoop-yarn-applications-distributedshell 3.5.0 could not be resolved from
 * the Maven repository this project uses).
 *
 * <pre>
 * Probe run [--queue Q] [--label L] [--gpus N] [--memory MB] [--containers N] -- COMMAND...
 * </pre>
 *
 * submits an application whose AM (this class, {@code am} mode) asks for N containers (default
 * 1) with the given queue, node label expression, memory and {@code yarn.io/gpu} count, runs
 * COMMAND in each with bash, and finishes SUCCEEDED when every one exits 0. The client prints
 * the application id and the final status, whose diagnostics name the node and resources of each
 * container; it exits 0 only on success. COMMAND's output is in the containers' stdout/stderr
 * logs (aggregated to HDFS: read them with {@code LogsCLI}).
 *
 * <p>On a Kerberos cluster the client needs a ticket ({@code kinit}); it hands the application an
 * HDFS delegation token renewable by the RM, which the NodeManagers use to aggregate the logs,
 * and the AM passes it on to its containers.
 */
public final class Probe {
  private String queue = "default";
  private String label = null;
  private int gpus = 0;
  private int memoryMb = 256;
  private int containers = 1;
  private String command;

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || !List.of("run", "am").contains(args[0])) {
      System.err.println("usage: Probe run [--queue Q] [--label L] [--gpus N] [--memory MB] [--containers N] -- COMMAND...");
      System.exit(2);
    }
    Probe probe = new Probe();
    int i = 1;
    for (; i < args.length && !args[i].equals("--"); i += 2) {
      switch (args[i]) {
        case "--queue" -> probe.queue = args[i + 1];
        case "--label" -> probe.label = args[i + 1];
        case "--gpus" -> probe.gpus = Integer.parseInt(args[i + 1]);
        case "--memory" -> probe.memoryMb = Integer.parseInt(args[i + 1]);
        case "--containers" -> probe.containers = Integer.parseInt(args[i + 1]);
        case "--command-b64" -> probe.command =
            new String(Base64.getDecoder().decode(args[i + 1]), StandardCharsets.UTF_8);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    boolean ok = false;
    try {
      if (args[0].equals("run")) {
        probe.command = String.join(" ", List.of(args).subList(Math.min(i + 1, args.length), args.length));
        ok = probe.submit();
      } else {
        ok = probe.runAppMaster();
      }
    } catch (Throwable t) {
      t.printStackTrace();
    }
    // Explicitly: the AM's web server thread would otherwise keep a failed AM alive.
    System.exit(ok ? 0 : 1);
  }

  /** Client side: submit, wait, report. */
  private boolean submit() throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    YarnClient client = YarnClient.createYarnClient();
    client.init(conf);
    client.start();
    YarnClientApplication app = client.createApplication();
    ApplicationSubmissionContext context = app.getApplicationSubmissionContext();
    ApplicationId id = context.getApplicationId();
    context.setApplicationName("local-yarn-probe");
    context.setQueue(queue);
    context.setResource(Resource.newInstance(256, 1));
    context.setMaxAppAttempts(1);

    // The AM is this class again. The command travels base64-encoded so no quoting can break it.
    List<String> am = new ArrayList<>(List.of(
        Environment.JAVA_HOME.$$() + "/bin/java", "-Xmx128m", Probe.class.getName(), "am",
        "--queue", queue, "--gpus", String.valueOf(gpus), "--memory", String.valueOf(memoryMb),
        "--containers", String.valueOf(containers),
        "--command-b64", Base64.getEncoder().encodeToString(command.getBytes(StandardCharsets.UTF_8))));
    if (label != null) {
      am.addAll(List.of("--label", label));
    }
    am.add("1>" + ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/AppMaster.stdout");
    am.add("2>" + ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/AppMaster.stderr");
    // Same machine: the AM uses our classpath, after the cluster's configuration directory.
    String classpath = Environment.HADOOP_CONF_DIR.$$() + ApplicationConstants.CLASS_PATH_SEPARATOR
        + System.getProperty("java.class.path").replace(File.pathSeparator,
            ApplicationConstants.CLASS_PATH_SEPARATOR);
    ByteBuffer tokens = null;
    if (UserGroupInformation.isSecurityEnabled()) {
      // The renewer is the RM: its principal, _HOST resolved (HDFS keeps its short name).
      Credentials credentials = new Credentials();
      FileSystem.get(conf).addDelegationTokens(YarnClientUtils.getRmPrincipal(conf), credentials);
      tokens = serialize(credentials);
    }
    context.setAMContainerSpec(ContainerLaunchContext.newInstance(
        Map.of(), Map.of("CLASSPATH", classpath), List.of(String.join(" ", am)), null, tokens, null));

    client.submitApplication(context);
    System.out.println("application " + id);
    ApplicationReport report;
    while (true) {
      report = client.getApplicationReport(id);
      YarnApplicationState state = report.getYarnApplicationState();
      if (state == YarnApplicationState.FINISHED || state == YarnApplicationState.FAILED
          || state == YarnApplicationState.KILLED) {
        break;
      }
      Thread.sleep(200);
    }
    System.out.println("state " + report.getYarnApplicationState()
        + " final_status " + report.getFinalApplicationStatus()
        + " diagnostics " + report.getDiagnostics().replace('\n', ' '));
    client.stop();
    return report.getFinalApplicationStatus() == FinalApplicationStatus.SUCCEEDED;
  }

  /** AM side: run the command in each container; succeed when every one exits 0. */
  private boolean runAppMaster() throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    AMRMClient<ContainerRequest> rm = AMRMClient.createAMRMClient();
    rm.init(conf);
    rm.start();
    // A one-line web page at the tracking URL, to check the RM's web proxy in front of AMs.
    HttpServer web = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    web.createContext("/", exchange -> {
      byte[] body = ("probe AM of " + System.getenv("CONTAINER_ID") + "\n").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    web.start();
    rm.registerApplicationMaster("localhost", 0, "http://localhost:" + web.getAddress().getPort() + "/");
    NMClient nm = NMClient.createNMClient();
    nm.init(conf);
    nm.start();
    // The application's tokens (HDFS) for the containers, without the AM's own token for the RM.
    ByteBuffer tokens = null;
    if (UserGroupInformation.isSecurityEnabled()) {
      Credentials credentials = new Credentials(UserGroupInformation.getCurrentUser().getCredentials());
      credentials.getAllTokens().removeIf(t -> t.getKind().equals(AMRMTokenIdentifier.KIND_NAME));
      tokens = serialize(credentials);
    }

    Resource capability = Resource.newInstance(memoryMb, 1);
    capability.setResourceValue(LocalYarnCluster.GPU, gpus);
    ContainerRequest request =
        new ContainerRequest(capability, null, null, Priority.newInstance(1), true, label);
    for (int i = 0; i < containers; i++) {
      rm.addContainerRequest(request);
    }
    // The NM wraps the command in double quotes inside launch_container.sh, so it travels
    // base64-encoded (no quotes, no $) and is decoded into a script in the container.
    String shell = "echo " + Base64.getEncoder().encodeToString(command.getBytes(StandardCharsets.UTF_8))
        + " | base64 -d > probe.sh && bash probe.sh"
        + " 1>" + ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/stdout"
        + " 2>" + ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/stderr";

    // Placements and exit codes end up in the application's diagnostics, which the client prints.
    StringBuilder report = new StringBuilder();
    int launched = 0;
    int finished = 0;
    int failed = 0;
    while (finished < containers) {
      var response = rm.allocate(0.5f);
      for (Container c : response.getAllocatedContainers()) {
        if (launched == containers) {
          rm.releaseAssignedContainer(c.getId());
          continue;
        }
        launched++;
        rm.removeContainerRequest(request);
        report.append("container ").append(c.getId()).append(" on node ").append(c.getNodeId())
            .append(" with ").append(c.getResource()).append("; ");
        nm.startContainer(c, ContainerLaunchContext.newInstance(
            Map.of(), Map.of(), List.of(shell), null, tokens == null ? null : tokens.duplicate(), null));
      }
      for (ContainerStatus status : response.getCompletedContainersStatuses()) {
        finished++;
        if (status.getExitStatus() != 0) {
          failed++;
          report.append(status.getContainerId()).append(" exited ").append(status.getExitStatus())
              .append(' ').append(status.getDiagnostics()).append("; ");
        }
      }
      Thread.sleep(100);
    }
    report.append(containers - failed).append(" of ").append(containers).append(" exited 0");
    System.out.println(report);
    rm.unregisterApplicationMaster(
        failed == 0 ? FinalApplicationStatus.SUCCEEDED : FinalApplicationStatus.FAILED,
        report.toString(), "");
    nm.stop();
    rm.stop();
    web.stop(0);
    return failed == 0;
  }

  private static ByteBuffer serialize(Credentials credentials) throws java.io.IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    credentials.writeTokenStorageToStream(out);
    return ByteBuffer.wrap(out.getData(), 0, out.getLength());
  }
}
