package localyarn;

import java.lang.reflect.Field;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.webapp.WebApp;

/**
 * Keeps each web app of the single-JVM cluster answering its own routes.
 *
 * <p>YARN's web apps sit behind Guice's servlet filter (before Hadoop 3.5, with all of their REST
 * API inside it, Jersey 1). Jetty makes that filter from its class name, and such a filter serves
 * the routes of the Guice injector created last in the JVM. A real cluster runs one daemon per JVM
 * and never sees this. Here, the ResourceManager and the NodeManagers share the JVM: every web
 * server would serve the last started NodeManager's routes, and the ResourceManager's
 * {@code /ws/v1/cluster} would answer 404.
 *
 * <p>Each web app also keeps a filter bound to its own injector, made when it was built (Hadoop
 * uses it to stop the web app). This puts that filter in front of its own server.
 */
final class WebRoutes {
  private WebRoutes() {}

  /** Every ResourceManager's and NodeManager's web server of the cluster, as each stands now. */
  static void keepEachOnItsOwn(MiniYARNCluster yarn, int nodeManagers) throws ReflectiveOperationException {
    for (int i = 0; i < yarn.getNumOfResourceManager(); i++) {
      ResourceManager rm = yarn.getResourceManager(i);
      if (rm != null) {
        pin((WebApp) field(ResourceManager.class, "webApp").get(rm));
      }
    }
    for (int i = 0; i < nodeManagers; i++) {
      NodeManager nm = yarn.getNodeManager(i);
      if (nm == null) {
        continue;
      }
      for (Service service : nm.getServices()) {
        if (service instanceof org.apache.hadoop.yarn.server.nodemanager.webapp.WebServer) {
          pin((WebApp) field(service.getClass(), "webApp").get(service));
        }
      }
    }
  }

  private static void pin(WebApp app) throws ReflectiveOperationException {
    if (app == null || app.httpServer() == null) {
      return; // not started
    }
    Field own;
    try {
      own = field(WebApp.class, "guiceFilter");
    } catch (NoSuchFieldException e) {
      return; // a release that keeps none has nothing to mix up
    }
    Object filter = own.get(app);
    if (filter == null) {
      throw new IllegalStateException("the web app at " + app.httpServer().getConnectorAddress(0)
          + " kept no Guice filter of its own; its routes cannot be told apart");
    }
    // Through reflection: the Jetty classes differ between the Hadoop releases this is built for.
    Object context = app.httpServer().getClass().getMethod("getWebAppContext").invoke(app.httpServer());
    Object handler = context.getClass().getMethod("getServletHandler").invoke(context);
    Object holder = handler.getClass().getMethod("getFilter", String.class).invoke(handler, "guice");
    if (holder == null) {
      throw new IllegalStateException("the web app at " + app.httpServer().getConnectorAddress(0)
          + " has no filter named guice");
    }
    // The holder's running instance, not its configured one: replacing that through Jetty's API
    // would stop and destroy the old filter, whose pipeline is the last web app's.
    field(holder.getClass(), "_filter").set(holder, filter);
  }

  private static Field field(Class<?> type, String name) throws NoSuchFieldException {
    Field found = LocalYarnCluster.findField(type, name);
    found.setAccessible(true);
    return found;
  }
}
