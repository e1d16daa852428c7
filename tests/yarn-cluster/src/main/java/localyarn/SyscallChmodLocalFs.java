package localyarn;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFs;
import org.apache.hadoop.fs.DelegateToFileSystem;
import org.apache.hadoop.fs.FsConstants;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system of the worker hosts' NodeManagers (fs.AbstractFileSystem.file.impl in
 * each host's core-site.xml): Hadoop's own, except that it sets a file's mode with one system
 * call, as Hadoop does on a node that has its native library.
 *
 * <p>Hadoop from Maven Central has no native library, so without this each mode a localizer sets
 * is a chmod process forked from the NodeManager's JVM: one per entry of an unpacked archive, over
 * 40,000 for a TensorFlow environment on each host, which took most of ten minutes of CPU. Real
 * nodes run with libhadoop.so, whose chmod is the system call this makes.
 */
public final class SyscallChmodLocalFs extends ChecksumFs {
  public SyscallChmodLocalFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    super(new Raw(uri, conf));
  }

  /** The raw layer under the checksums, as Hadoop's RawLocalFs is (links and defaults delegated). */
  static final class Raw extends DelegateToFileSystem {
    Raw(URI uri, Configuration conf) throws IOException, URISyntaxException {
      super(uri, new ChmodBySystemCall(), conf, FsConstants.LOCAL_FS_URI.getScheme(), false);
    }

    @Override
    public int getUriDefaultPort() {
      return -1; // no port, as Hadoop's RawLocalFs says
    }

    @Override
    public boolean isValidName(String src) {
      return true; // any local path, as Hadoop's RawLocalFs allows
    }
  }

  /** RawLocalFileSystem, whose setPermission forks chmod when the native library is missing. */
  static final class ChmodBySystemCall extends RawLocalFileSystem {
    @Override
    public void setPermission(Path path, FsPermission permission) throws IOException {
      short mode = permission.toShort();
      if ((mode & ~0777) != 0) {
        super.setPermission(path, permission); // sticky or set-id bits: java.nio cannot set those
        return;
      }
      Files.setPosixFilePermissions(pathToFile(path).toPath(), posix(mode));
    }

    private static Set<PosixFilePermission> posix(short mode) {
      Set<PosixFilePermission> bits = EnumSet.noneOf(PosixFilePermission.class);
      PosixFilePermission[] order = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE,
        PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_READ,
      };
      for (int bit = 0; bit < order.length; bit++) {
        if ((mode & (1 << bit)) != 0) {
          bits.add(order[bit]);
        }
      }
      return bits;
    }
  }
}
