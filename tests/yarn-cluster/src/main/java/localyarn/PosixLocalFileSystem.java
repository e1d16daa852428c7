package localyarn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;

import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system of a worker host's daemons, changing permissions as a production node
 * does.
 *
 * <p>A production node loads Hadoop's native library, and Hadoop changes a local file's mode with
 * one chmod(2) call. These test hosts get Hadoop from Maven Central, which ships no native
 * library, and Hadoop then starts a {@code chmod} process for every file instead. The NodeManager
 * sets the mode of every file and directory of every archive it localizes: the tests' TensorFlow
 * environment (40,000 of them) meant 40,000 processes forked by a JVM on each host, and six minutes
 * before its tasks could start. Here the mode is set through Java's file API, which makes the same system call; a mode
 * with the set-user, set-group or sticky bit, which that API cannot express, still goes through
 * Hadoop's own way.
 */
public final class PosixLocalFileSystem extends LocalFileSystem {
  public PosixLocalFileSystem() {
    super(new Raw());
  }

  /** The raw layer under the checksums, where the mode is set. */
  public static final class Raw extends RawLocalFileSystem {
    @Override
    public void setPermission(Path path, FsPermission permission) throws IOException {
      short mode = permission.toShort();
      if ((mode & 07000) != 0) {
        super.setPermission(path, permission);
        return;
      }
      // "rwxr-x---" from the nine permission bits, as ls prints them.
      String symbolic = permission.toString().substring(0, 9);
      Files.setPosixFilePermissions(pathToFile(path).toPath(), PosixFilePermissions.fromString(symbolic));
    }
  }
}
