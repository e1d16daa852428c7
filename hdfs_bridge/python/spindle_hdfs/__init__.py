"""hdfs:// for TensorFlow in this process, through Spindle's file system
plugin and its HDFS bridge (docs/outputs-on-hdfs.md).

In a Spindle task this happens by itself, as TensorFlow is imported. Anywhere
else (a gateway with Spindle installed and a Kerberos ticket or a cluster
without Kerberos), one line does it:

    import spindle_hdfs; spindle_hdfs.register_tensorflow()
"""

import os
import sys

PLUGIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libspindle_hdfs_tf.so")

_registered = False


def register_tensorflow():
    """Registers hdfs:// with the TensorFlow this process imported (or
    imports it). Once per process; True when hdfs:// is Spindle's now."""
    global _registered
    if _registered:
        return True
    import tensorflow as tf

    if _registered:  # the import itself did, through the task's hook
        return True
    try:
        tf.experimental.register_filesystem_plugin(PLUGIN)
    except Exception as error:  # noqa: BLE001 - any refusal is said, then the process goes on
        if "already registered" in str(error) or "already exists" in str(error):
            # Another plugin holds hdfs:// (tensorflow-io, say): it stays.
            sys.stderr.write(
                "spindle: hdfs:// in TensorFlow is another plugin's already; Spindle's is not loaded (%s)\n" % error
            )
            return False
        sys.stderr.write(
            "spindle: TensorFlow %s did not load Spindle's hdfs:// plugin %s: %s\n"
            % (getattr(tf, "__version__", "?"), PLUGIN, error)
        )
        return False
    _registered = True
    return True
