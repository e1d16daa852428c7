package localyarn;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;
import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import sun.misc.Signal;

import org.apache.hadoop.conf.Configuration;

/** What every JVM of the local clusters does around the Hadoop daemons it runs. */
final class Daemon {
  interface Start {
    void run() throws Exception;
  }

  private Daemon() {}

  /**
   * Starts, runs until SIGTERM or SIGINT, stops, and exits: 0, or 1 if the start failed. The
   * daemons are stopped on the main thread, before the JVM begins to shut down: inside a shutdown
   * hook Hadoop's services fail ("Shutdown in progress, cannot remove a shutdownHook") and leave
   * their work half done.
   */
  static void runUntilSignalled(String name, Start start, Runnable stop) {
    CountDownLatch stopRequested = new CountDownLatch(1);
    for (String signal : List.of("TERM", "INT")) {
      Signal.handle(new Signal(signal), received -> {
        System.err.println(name + ": got SIG" + received.getName());
        stopRequested.countDown();
      });
    }
    int status = 0;
    try {
      start.run();
      stopRequested.await();
    } catch (Throwable t) {
      t.printStackTrace();
      status = 1;
    }
    stop.run();
    System.exit(status);
  }

  /** Writes a Hadoop site file under another name and renames it: never read half written. */
  static void writeSite(Configuration conf, File file) throws IOException {
    File tmp = new File(file.getPath() + ".tmp");
    try (OutputStream out = new FileOutputStream(tmp)) {
      conf.writeXml(out);
    }
    Files.move(tmp.toPath(), file.toPath(), REPLACE_EXISTING, ATOMIC_MOVE);
  }
}
