"""hdfs:// and viewfs:// for fsspec (and so for PyTorch, pandas, ...) in this
process, through the hdfs-native package: a client of HDFS's own RPC and block
protocols with no JVM (docs/fsspec-on-hdfs.md).

Installed, hdfs-native names its file systems to fsspec through an entry point
(group fsspec.specs: hdfs, viewfs), which fsspec reads as it is imported and
which replaces fsspec's own hdfs (pyarrow's, which needs a JVM and libhdfs).
configure() adds what that leaves out:

- hdfs-native's readers have no readinto(), which torch.load,
  torch.distributed.checkpoint's FsspecReader and io.BufferedReader call
  (NotImplementedError without it): the file systems registered here are
  hdfs-native's with readers that have it (spindle_hdfs.fsspec_hdfs);
- an environment without hdfs-native gets, for hdfs:// and viewfs://, a file
  system whose every use says in one sentence what to add, where fsspec would
  have said "pyarrow and local java libraries required for HDFS".

In a Spindle task the task's sitecustomize calls configure() once fsspec has
been imported. Anywhere else, one line does it:

    from spindle_hdfs import fsspec_setup; fsspec_setup.configure()

A file system that some other package or the job itself registered for these
protocols is left as it is; so is one registered after configure().
"""

import importlib.util
import sys

PACKAGE = "hdfs-native==0.14.7"
PROTOCOLS = ("hdfs", "viewfs")

# What each protocol may be mapped to before configure(): fsspec's own, hdfs-native's entry point, or ours.
_FSSPEC_DEFAULT = {"hdfs": "fsspec.implementations.arrow.HadoopFileSystem"}
_NATIVE = {"hdfs": "hdfs_native.fsspec.HdfsFileSystem", "viewfs": "hdfs_native.fsspec.ViewfsFileSystem"}
_OURS = {"hdfs": "spindle_hdfs.fsspec_hdfs.HdfsFileSystem", "viewfs": "spindle_hdfs.fsspec_hdfs.ViewfsFileSystem"}


def missing_package_message(protocol):
    return "%s:// through fsspec needs the hdfs-native package in the job's Python environment: add %s to it" % (
        protocol,
        PACKAGE,
    )


def _missing_file_system(protocol):
    """A file system class for `protocol` that cannot be made: it raises the sentence that names the package."""
    from fsspec import AbstractFileSystem

    def refuse(self, *args, **kwargs):
        """Says what to add to the job's environment, whatever the file system was asked."""
        raise ModuleNotFoundError(missing_package_message(protocol), name="hdfs_native")

    return type(
        "HdfsNativeMissing_" + protocol,
        (AbstractFileSystem,),
        {"protocol": protocol, "__init__": refuse, "__module__": __name__, "__doc__": refuse.__doc__},
    )


_missing = {}


def _ours_to_replace(protocol, registry, known):
    """Whether `protocol` is still fsspec's or hdfs-native's (or ours already), so that configure() may set it."""
    if protocol in registry:  # a class registered, or one already in use: its owner chose it
        return registry[protocol] is _missing.get(protocol)
    current = known.get(protocol, {}).get("class")
    return current in (None, _FSSPEC_DEFAULT.get(protocol), _NATIVE[protocol], _OURS[protocol])


def _configure():
    from fsspec.registry import _registry, known_implementations, register_implementation

    native = importlib.util.find_spec("hdfs_native") is not None
    for protocol in PROTOCOLS:
        if not _ours_to_replace(protocol, _registry, known_implementations):
            continue
        if native:
            _registry.pop(protocol, None)  # our own refusal, from a configure() before hdfs-native was installed
            register_implementation(
                protocol,
                _OURS[protocol],
                clobber=True,
                errtxt="hdfs-native is installed but could not be loaded for %s://" % protocol,
            )
        else:
            if protocol not in _missing:
                _missing[protocol] = _missing_file_system(protocol)
            register_implementation(protocol, _missing[protocol], clobber=True)


def configure():
    """Maps hdfs:// and viewfs:// in fsspec to hdfs-native (with the adapted readers and writers), or, without
    hdfs-native, to a refusal naming it. Any number of times; never raises."""
    try:
        _configure()
    except Exception as error:  # noqa: BLE001 - a hook never breaks the import it follows
        sys.stderr.write("spindle: fsspec's hdfs:// was left as it was: %s: %s\n" % (type(error).__name__, error))
