package localyarn;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;
import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivilegedExceptionAction;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Secure mode: a KDC (Hadoop's MiniKdc) in the cluster's JVM, the principals and keytabs of the
 * daemons and of the user running the tests, and the Kerberos settings of HDFS and YARN.
 *
 * <p>Everything lands in one directory: {@code krb5.conf} for clients, one keytab per service
 * ({@code nn.keytab}, {@code dn.keytab}, {@code rm.keytab}, {@code nm.keytab},
 * {@code http.keytab}), {@code user.keytab} for {@code USER@EXAMPLE.COM} (USER being the Unix user
 * who started the cluster), {@code alice.keytab} for a second user {@code alice@EXAMPLE.COM},
 * {@code trainer.keytab} for {@code trainer@EXAMPLE.COM}, whom a rule of {@code
 * hadoop.security.auth_to_local} maps to USER, and {@code http-signature-secret} for the web
 * servers' auth cookies.
 *
 * <p>All daemons share one JVM, and Hadoop takes a server's Kerberos identity from the current
 * user of the thread that serves a connection. So each daemon is started inside a {@code doAs}
 * of its own principal (see {@link #as}): the threads it creates inherit that identity, and each
 * RPC server answers as its own principal.
 *
 * <p>In hosts mode the principals' host is the master host's name, the worker hosts' DataNodes,
 * NodeManagers and web servers have principals of their own host in the same keytabs, and the
 * KDC listens on every address of the master host (see {@link #serverPrincipal}).
 */
final class Kerberos {
  static final String REALM = "EXAMPLE.COM";
  /** The services, each with its own principal SERVICE/HOST and keytab. */
  static final List<String> SERVICES = List.of("nn", "dn", "rm", "nm", "HTTP");
  /** Hosts mode: the services of each worker host, principals SERVICE/WORKER. */
  static final List<String> WORKER_SERVICES = List.of("dn", "nm", "HTTP");
  /** How long a delegation token lives without renewal ({@code SPINDLE_TOKEN_RENEW_INTERVAL_MS}). */
  static final long TOKEN_RENEW_INTERVAL_MS = longFromEnvironment("SPINDLE_TOKEN_RENEW_INTERVAL_MS", 30_000);
  /**
   * The most any renewal can keep a delegation token alive ({@code SPINDLE_TOKEN_MAX_LIFETIME_MS});
   * Hadoop's seven days unless set, which the tests of long jobs cut to minutes.
   */
  static final long TOKEN_MAX_LIFETIME_MS = longFromEnvironment("SPINDLE_TOKEN_MAX_LIFETIME_MS", 7L * 24 * 3600 * 1000);
  /** Another user of the cluster, with {@code alice.keytab}. */
  static final String OTHER_USER = "alice";
  /** A principal the cluster's auth_to_local rules map to the user who started it, with {@code trainer.keytab}. */
  static final String MAPPED_PRINCIPAL = "trainer";

  private final File dir;
  private final File kdcDir;

  static boolean rmProxyUser() {
    return "true".equals(System.getenv("SPINDLE_RM_PROXY_USER"));
  }

  private static long longFromEnvironment(String name, long fallback) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) return fallback;
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " is \"" + value + "\", not a number of milliseconds");
    }
  }
  private final String user;
  /**
   * The host part of the principals of this JVM's services. It must be what Hadoop substitutes
   * for {@code _HOST}: the canonical name of the address the daemons answer at, and the host
   * clients name in their URLs (localhost, or in hosts mode the master host's name).
   */
  private final String host;
  /** Hosts mode: the worker hosts, each with principals of its own; empty otherwise. */
  private final List<String> workers;
  private MiniKdc kdc;

  Kerberos(File dir, File kdcDir, String host, List<String> workers) {
    this.dir = dir;
    this.kdcDir = kdcDir;
    this.user = System.getProperty("user.name");
    this.host = host;
    this.workers = workers;
  }

  /** Starts the KDC on an ephemeral port of the host and creates principals and keytabs. */
  void start() throws Exception {
    Files.createDirectories(dir.toPath());
    Files.createDirectories(kdcDir.toPath());
    Properties conf = MiniKdc.createConf();
    conf.setProperty(MiniKdc.ORG_NAME, REALM.substring(0, REALM.indexOf('.')));
    conf.setProperty(MiniKdc.ORG_DOMAIN, REALM.substring(REALM.indexOf('.') + 1));
    // MiniKdc's own krb5.conf, which this JVM reads, names localhost whatever the address; in
    // hosts mode the other hosts reach it at the master host's, so it listens on both.
    conf.setProperty(MiniKdc.KDC_BIND_ADDRESS, hostsMode() ? "0.0.0.0" : host);
    conf.setProperty(MiniKdc.KDC_PORT, "0");
    conf.setProperty(MiniKdc.TRANSPORT, "TCP"); // MiniKdc listens on TCP only
    kdc = new MiniKdc(conf, kdcDir);
    // It also points this JVM at a krb5.conf of its own (java.security.krb5.conf).
    kdc.start();
    // One keytab per service holds its principal on every host, as a keytab shipped to all nodes.
    for (String service : SERVICES) {
      List<String> principals = new ArrayList<>(List.of(service + "/" + host));
      if (WORKER_SERVICES.contains(service)) {
        workers.forEach(worker -> principals.add(service + "/" + worker));
      }
      kdc.createPrincipal(keytab(service), principals.toArray(new String[0]));
    }
    kdc.createPrincipal(userKeytab(), user);
    // A second person, for tests of what one user may not do with another's jobs.
    kdc.createPrincipal(otherUserKeytab(), OTHER_USER);
    // A principal whose short name is not its own name: a rule maps it, as sites map service accounts.
    kdc.createPrincipal(new File(dir, MAPPED_PRINCIPAL + ".keytab"), MAPPED_PRINCIPAL);
    for (File file : dir.listFiles((d, name) -> name.endsWith(".keytab"))) {
      ownerOnly(file);
    }
    writeAtomically(krb5Conf(), krb5ConfText());
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    writeAtomically(signatureSecret(), HexFormat.of().formatHex(secret));
    ownerOnly(signatureSecret());
  }

  private static void ownerOnly(File file) throws IOException {
    Files.setPosixFilePermissions(file.toPath(), PosixFilePermissions.fromString("rw-------"));
  }

  void stop() {
    if (kdc != null) {
      kdc.stop();
    }
  }

  /** For clients: TCP only, no DNS, no reverse lookups; ticket lifetimes are the defaults. */
  private String krb5ConfText() {
    return "[libdefaults]\n"
        + "  default_realm = " + REALM + "\n"
        + "  dns_lookup_kdc = false\n"
        + "  dns_lookup_realm = false\n"
        + "  dns_canonicalize_hostname = false\n"
        + "  rdns = false\n"
        + "  udp_preference_limit = 1\n"
        + "  forwardable = true\n"
        + "\n"
        + "[realms]\n"
        + "  " + REALM + " = {\n"
        + "    kdc = " + kdcAddress() + "\n"
        + "  }\n"
        + "\n"
        + "[domain_realm]\n"
        + Stream.concat(Stream.of(host), workers.stream())
            .map(name -> "  " + name + " = " + REALM + "\n")
            .collect(Collectors.joining());
  }

  String kdcAddress() {
    return host + ":" + kdc.getPort();
  }

  File krb5Conf() {
    return new File(dir, "krb5.conf");
  }

  File keytab(String service) {
    return keytab(dir, service);
  }

  /** SERVICE's keytab in the cluster's Kerberos directory DIR (a worker host reads it there). */
  static File keytab(File dir, String service) {
    return new File(dir, service.toLowerCase() + ".keytab");
  }

  File userKeytab() {
    return new File(dir, "user.keytab");
  }

  File otherUserKeytab() {
    return new File(dir, OTHER_USER + ".keytab");
  }

  File signatureSecret() {
    return new File(dir, "http-signature-secret");
  }

  String userPrincipal() {
    return user + "@" + REALM;
  }

  String principal(String service) {
    return service + "/" + host + "@" + REALM;
  }

  /**
   * What the servers' settings name for SERVICE: its principal, except in hosts mode for the
   * services of the worker hosts, where the pattern stands for each host's own (the NameNodes and
   * ResourceManagers check a DataNode or NodeManager against the name of the host it calls from),
   * and for HTTP, where each web server takes whichever HTTP principal of the keytab a client asks
   * for.
   */
  String serverPrincipal(String service) {
    if (workers.isEmpty() || !WORKER_SERVICES.contains(service)) {
      return principal(service);
    }
    return service.equals("HTTP") ? "*" : principalPattern(service);
  }

  boolean hostsMode() {
    return !workers.isEmpty();
  }

  /** What a client configuration names: the pattern with _HOST, as on a real cluster. */
  static String principalPattern(String service) {
    return service + "/_HOST@" + REALM;
  }

  /** Logs SERVICE in from its keytab, without touching the JVM's login user. */
  UserGroupInformation login(String service) throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        principal(service), keytab(service).getPath());
  }

  /** Runs ACTION as UGI; threads it starts keep that identity. */
  static <T> T as(UserGroupInformation ugi, PrivilegedExceptionAction<T> action) throws Exception {
    try {
      return ugi.doAs(action);
    } catch (java.lang.reflect.UndeclaredThrowableException e) {
      throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
    }
  }

  /**
   * How principals map to user names, as on a real cluster: nn/... and dn/... to hdfs (the HDFS
   * superuser, the NameNode's user), rm/... and nm/... to yarn (so yarn is the renewer of the
   * HDFS tokens that applications hand to the RM), USER@EXAMPLE.COM to USER, anything else of
   * the realm to its first component.
   */
  static String authToLocal() {
    String realm = REALM.replace(".", "\\.");
    return "RULE:[2:$1/$2@$0]([nd]n/.*@" + realm + ")s/.*/hdfs/\n"
        + "RULE:[2:$1/$2@$0]([rn]m/.*@" + realm + ")s/.*/yarn/\n"
        + "RULE:[1:$1@$0](" + MAPPED_PRINCIPAL + "@" + realm + ")s/.*/" + System.getProperty("user.name") + "/\n"
        + "RULE:[1:$1@$0](.*@" + realm + ")s/@.*//\n"
        + "DEFAULT";
  }

  /**
   * scripts/local-yarn --tls: the directory holding the keystore and truststore its ssl-server.xml
   * and ssl-client.xml (on this JVM's classpath) name; null without TLS.
   */
  static boolean tls() {
    return System.getenv("SPINDLE_TLS_DIR") != null;
  }

  /** The block transfers' SASL level: the strongest RPC level the cluster names. */
  static String dataTransferProtection() {
    String levels = System.getenv().getOrDefault("SPINDLE_RPC_PROTECTION", "authentication");
    return levels.contains("privacy") ? "privacy" : levels.contains("integrity") ? "integrity" : "authentication";
  }

  /** With --tls: every web server of HDFS and YARN on HTTPS alone, on ports picked at start. */
  Map<String, String> tlsServerSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("yarn.http.policy", "HTTPS_ONLY");
    s.put("dfs.http.policy", "HTTPS_ONLY");
    s.put("dfs.namenode.https-address", host + ":0");
    s.put("dfs.datanode.https.address", (hostsMode() ? "0.0.0.0" : host) + ":0");
    if (hostsMode()) {
      s.put("dfs.namenode.https-bind-host", "0.0.0.0");
    }
    s.put("hadoop.ssl.require.client.cert", "false");
    s.put("dfs.client.https.need-auth", "false");
    s.put("hadoop.ssl.server.conf", "ssl-server.xml");
    s.put("hadoop.ssl.client.conf", "ssl-client.xml");
    // An HTTPS-only DataNode on unprivileged ports protects its block transfers with SASL, at
    // the cluster's RPC level (privacy encrypts the blocks too); every client of this JVM reads
    // the same setting from the classpath's hdfs-site.xml (scripts/local-yarn writes it), so
    // that none skips the handshake.
    s.put("dfs.data.transfer.protection", dataTransferProtection());
    return s;
  }

  /** Settings every daemon and client shares (core-site). */
  static Map<String, String> coreSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("hadoop.security.authentication", "kerberos");
    // scripts/local-yarn --protection: authentication, integrity or privacy.
    s.put("hadoop.rpc.protection", System.getenv().getOrDefault("SPINDLE_RPC_PROTECTION", "authentication"));
    s.put("hadoop.security.auth_to_local", authToLocal());
    return s;
  }

  /** The HDFS daemons' settings. */
  Map<String, String> hdfsServerSettings() {
    Map<String, String> s = new LinkedHashMap<>(coreSettings());
    s.put("hadoop.security.authorization", "true");
    s.put("dfs.block.access.token.enable", "true");
    s.put("dfs.namenode.kerberos.principal", principal("nn"));
    s.put("dfs.namenode.keytab.file", keytab("nn").getPath());
    s.put("dfs.datanode.kerberos.principal", serverPrincipal("dn"));
    s.put("dfs.datanode.keytab.file", keytab("dn").getPath());
    // SPNEGO for WebHDFS and the NameNode's web pages, over plain HTTP.
    s.put("dfs.web.authentication.kerberos.principal", serverPrincipal("HTTP"));
    s.put("dfs.web.authentication.kerberos.keytab", keytab("HTTP").getPath());
    s.put("dfs.http.policy", "HTTP_ONLY");
    if (tls()) {
      s.putAll(tlsServerSettings());
    }
    s.putAll(httpAuthSettings());
    // A secure DataNode wants ports below 1024 (root) or SASL on its data transfers plus HTTPS.
    // Hadoop's switch for tests lets it run on ordinary ports without either; block access
    // tokens still guard every read and write. (With SASL on, clients inside this one JVM, such
    // as the NodeManagers' localizers, now and then skipped the handshake and reads failed.)
    s.put("ignore.secure.ports.for.testing", "true");
    // Delegation tokens expire unless renewed within TOKEN_RENEW_INTERVAL_MS (a day by
    // default), so that a test job of a few minutes proves the ResourceManager renews them.
    s.put("dfs.namenode.delegation.token.renew-interval", Long.toString(TOKEN_RENEW_INTERVAL_MS));
    s.put("dfs.namenode.delegation.token.max-lifetime", Long.toString(TOKEN_MAX_LIFETIME_MS));
    if (rmProxyUser()) {
      // The ResourceManager (short name yarn) may ask for tokens on behalf of the job's user.
      s.put("hadoop.proxyuser.yarn.hosts", "*");
      s.put("hadoop.proxyuser.yarn.groups", "*");
    }
    return s;
  }

  /**
   * SPNEGO on the daemons' web servers. The NameNode's filter reads these too, and left unset
   * its type would be core-default's "simple".
   */
  private Map<String, String> httpAuthSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("hadoop.http.authentication.type", "kerberos");
    s.put("hadoop.http.authentication.simple.anonymous.allowed", "false");
    s.put("hadoop.http.authentication.kerberos.principal", serverPrincipal("HTTP"));
    s.put("hadoop.http.authentication.kerberos.keytab", keytab("HTTP").getPath());
    // The secret that signs the auth cookies, one for all servers (else each makes up its own).
    s.put("hadoop.http.authentication.signature.secret.file", signatureSecret().getPath());
    return s;
  }

  /** The YARN daemons' settings, with what their HDFS clients need. */
  Map<String, String> yarnServerSettings() {
    Map<String, String> s = new LinkedHashMap<>(coreSettings());
    s.put("hadoop.security.authorization", "true");
    s.put("yarn.resourcemanager.principal", principal("rm"));
    s.put("yarn.resourcemanager.keytab", keytab("rm").getPath());
    s.put("yarn.resourcemanager.delegation.token.renew-interval", Long.toString(TOKEN_RENEW_INTERVAL_MS));
    s.put("yarn.resourcemanager.delegation.token.max-lifetime", Long.toString(TOKEN_MAX_LIFETIME_MS));
    // SPINDLE_RM_PROXY_USER=true: the ResourceManager gets new HDFS tokens for an application as a
    // proxy user when those it was given near their maximum lifetime, and hands them to the
    // NodeManagers for localization and log aggregation.
    s.put("yarn.resourcemanager.proxy-user-privileges.enabled", Boolean.toString(rmProxyUser()));
    if (rmProxyUser()) {
      // The RM stops renewing an application's own HDFS tokens once less than this is left of their
      // maximum lifetime, and gets its own instead (3 h by default, longer than this bed's
      // lifetimes): 30 s keeps the application's renewed nearly to their end, as on a real cluster.
      s.put("yarn.resourcemanager.system-credentials.valid-time-remaining", "30000");
    }
    s.put("yarn.nodemanager.principal", serverPrincipal("nm"));
    s.put("yarn.nodemanager.keytab", keytab("nm").getPath());
    // SPNEGO on the RM's and NMs' web servers (REST included).
    s.put("yarn.resourcemanager.webapp.spnego-principal", serverPrincipal("HTTP"));
    s.put("yarn.resourcemanager.webapp.spnego-keytab-file", keytab("HTTP").getPath());
    s.put("yarn.nodemanager.webapp.spnego-principal", serverPrincipal("HTTP"));
    s.put("yarn.nodemanager.webapp.spnego-keytab-file", keytab("HTTP").getPath());
    s.putAll(httpAuthSettings());
    if (tls()) {
      s.putAll(tlsServerSettings());
    }
    s.put("hadoop.http.filter.initializers",
        "org.apache.hadoop.security.AuthenticationFilterInitializer");
    // HDFS clients of the RM (token renewal) and the NMs (log aggregation).
    s.put("dfs.namenode.kerberos.principal", principal("nn"));
    s.put("dfs.datanode.kerberos.principal", serverPrincipal("dn"));
    return s;
  }

  /** What clients add to hdfs-site.xml. */
  static Map<String, String> hdfsClientSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("dfs.namenode.kerberos.principal", principalPattern("nn"));
    s.put("dfs.datanode.kerberos.principal", principalPattern("dn"));
    s.put("dfs.web.authentication.kerberos.principal", principalPattern("HTTP"));
    s.put("dfs.block.access.token.enable", "true");
    if (tls()) {
      s.put("dfs.http.policy", "HTTPS_ONLY");
      s.put("dfs.data.transfer.protection", dataTransferProtection());
    }
    return s;
  }

  /** What clients add to yarn-site.xml. */
  static Map<String, String> yarnClientSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("yarn.resourcemanager.principal", principalPattern("rm"));
    s.put("yarn.nodemanager.principal", principalPattern("nm"));
    s.put("yarn.resourcemanager.webapp.spnego-principal", principalPattern("HTTP"));
    s.put("yarn.nodemanager.webapp.spnego-principal", principalPattern("HTTP"));
    return s;
  }

  private static void writeAtomically(File file, String text) throws IOException {
    File tmp = new File(file.getPath() + ".tmp");
    Files.writeString(tmp.toPath(), text, StandardCharsets.UTF_8);
    Files.move(tmp.toPath(), file.toPath(), REPLACE_EXISTING, ATOMIC_MOVE);
  }
}
