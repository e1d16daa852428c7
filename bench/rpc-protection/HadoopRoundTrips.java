import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The peer of rpc_round_trips: Hadoop's own YarnClient making the same getApplicationReport calls
 * at one protection level, one caller and then several sharing its one connection, after a warm-up
 * that lets the JIT compile the client. Prints what rpc_round_trips prints.
 *
 * <p>usage: java -cp HADOOP_CONF_DIR:CLASSPATH HadoopRoundTrips.java SECONDS PROTECTION PRINCIPAL
 * KEYTAB (with -Djava.security.krb5.conf=...)
 */
public final class HadoopRoundTrips {
  public static void main(String[] args) throws Exception {
    double seconds = Double.parseDouble(args[0]);
    YarnConfiguration conf = new YarnConfiguration();
    conf.set("hadoop.rpc.protection", args[1]);
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation user = UserGroupInformation.loginUserFromKeytabAndReturnUGI(args[2], args[3]);
    user.doAs((PrivilegedExceptionAction<Void>) () -> {
      run(conf, seconds, args[1]);
      return null;
    });
  }

  private static void run(YarnConfiguration conf, double seconds, String protection) throws Exception {
    YarnClient client = YarnClient.createYarnClient();
    client.init(conf);
    client.start();
    List<ApplicationReport> apps = client.getApplications();
    if (apps.isEmpty()) {
      System.err.println("the cluster has no application to ask about; run rpc_round_trips first");
      System.exit(3);
    }
    ApplicationId id = apps.get(0).getApplicationId();
    // The level is the only one this client allows; the server accepts every level.
    System.out.println("protection " + protection);
    measure(client, id, 1, seconds); // warm-up, not printed
    System.out.printf("%-10s %12s %12s %12s%n", "callers", "calls/s", "p50 us", "p99 us");
    for (int callers : new int[] {1, 4, 16}) {
      double[] row = measure(client, id, callers, seconds);
      System.out.printf("%-10d %12.0f %12.0f %12.0f%n", callers, row[0], row[1], row[2]);
    }
    client.stop();
  }

  /** Calls per second, median and 99th percentile latency in microseconds. */
  private static double[] measure(YarnClient client, ApplicationId id, int callers, double seconds)
      throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    List<List<Double>> latencies = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    for (int c = 0; c < callers; c++) {
      List<Double> mine = new ArrayList<>();
      latencies.add(mine);
      Thread thread = new Thread(() -> {
        try {
          while (!stop.get()) {
            long before = System.nanoTime();
            client.getApplicationReport(id);
            mine.add((System.nanoTime() - before) / 1000.0);
          }
        } catch (Exception e) {
          e.printStackTrace();
        }
      });
      threads.add(thread);
      thread.start();
    }
    Thread.sleep((long) (seconds * 1000));
    stop.set(true);
    List<Double> all = new ArrayList<>();
    for (int c = 0; c < callers; c++) {
      threads.get(c).join();
      all.addAll(latencies.get(c));
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    if (all.isEmpty()) {
      throw new IllegalStateException("no call succeeded");
    }
    Collections.sort(all);
    return new double[] {all.size() / elapsed, all.get(all.size() / 2), all.get(all.size() * 99 / 100)};
  }
}
