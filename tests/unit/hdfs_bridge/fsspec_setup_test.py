"""spindle_hdfs.fsspec_setup without a cluster, in the Python it is run with: the TensorFlow
environment of scripts/setup (fsspec and pyarrow, no hdfs-native) or PyTorch's (hdfs-native 0.14.7).

- Without hdfs-native: hdfs:// and viewfs:// raise the sentence that names the package, wherever
  fsspec is asked for them, instead of pyarrow's search for a JVM.
- With hdfs-native: its entry point alone already takes hdfs:// from fsspec's pyarrow mapping;
  configure() puts its file systems with adapted files in their place, and the adapted files
  (hdfs-native's own classes around a remote file that a bytes buffer stands in for) are read by
  torch.load and io.BufferedReader and tell where they are as they are written.
- Either way: configure() any number of times, and never over a file system another package or
  the job registered.

Usage: fsspec_setup_test.py HDFS_BRIDGE_PYTHON_DIR [unittest arguments]. The directory is put on
sys.path here, after start-up, so that its sitecustomize (the task's hook) does not run."""

import importlib.util
import io
import sys
import unittest

sys.path.insert(0, sys.argv.pop(1))

import fsspec  # noqa: E402
from fsspec.registry import _registry, known_implementations, register_implementation  # noqa: E402

from spindle_hdfs import fsspec_setup  # noqa: E402

NATIVE = importlib.util.find_spec("hdfs_native") is not None
ENTRY_POINT_CLASS = dict(known_implementations["hdfs"])  # as fsspec's import left it


class Common:
    """The cases of either environment; each restores fsspec's mapping as it found it."""

    def setUp(self):
        saved = {name: known_implementations.get(name) for name in ("hdfs", "viewfs")}
        registered = {name: _registry.get(name) for name in ("hdfs", "viewfs")}

        def restore():
            for name, value in saved.items():
                known_implementations.pop(name, None)
                if value is not None:
                    known_implementations[name] = value
            for name, value in registered.items():
                _registry.pop(name, None)
                if value is not None:
                    _registry[name] = value

        self.addCleanup(restore)

    def test_configure_twice_gives_what_once_does(self):
        fsspec_setup.configure()
        once = (dict(known_implementations["hdfs"]), _registry.get("hdfs"))
        fsspec_setup.configure()
        self.assertEqual((dict(known_implementations["hdfs"]), _registry.get("hdfs")), once)

    def test_a_file_system_the_job_registered_stays(self):
        class Own(fsspec.AbstractFileSystem):
            protocol = "hdfs"

        register_implementation("hdfs", Own, clobber=True)
        fsspec_setup.configure()
        self.assertIs(fsspec.get_filesystem_class("hdfs"), Own)

    def test_another_packages_entry_point_stays(self):
        register_implementation("viewfs", "somebody.else.ViewFs", clobber=True)
        fsspec_setup.configure()
        self.assertEqual(known_implementations["viewfs"]["class"], "somebody.else.ViewFs")


@unittest.skipIf(NATIVE, "this Python has hdfs-native")
class WithoutHdfsNative(Common, unittest.TestCase):
    def test_every_use_of_hdfs_and_viewfs_names_the_package(self):
        fsspec_setup.configure()
        for protocol, url in (("hdfs", "hdfs://nameservice/data/x"), ("hdfs", "hdfs:///data/x"),
                              ("viewfs", "viewfs://cluster/data/x")):
            sentence = (f"{protocol}:// through fsspec needs the hdfs-native package in the job's Python "
                        "environment: add hdfs-native==0.14.7 to it")
            for use in (lambda: fsspec.open(url, "rb").open(), lambda: fsspec.url_to_fs(url),
                        lambda: fsspec.filesystem(protocol)):
                with self.assertRaises(ModuleNotFoundError) as raised:
                    use()
                self.assertEqual(str(raised.exception), sentence)
                self.assertEqual(raised.exception.name, "hdfs_native")


@unittest.skipUnless(NATIVE, "this Python has no hdfs-native")
class WithHdfsNative(Common, unittest.TestCase):
    def test_the_entry_point_alone_takes_hdfs_from_pyarrow(self):
        self.assertEqual(ENTRY_POINT_CLASS["class"], "hdfs_native.fsspec.HdfsFileSystem")

    def test_configure_maps_both_protocols_to_the_adapted_file_systems(self):
        fsspec_setup.configure()
        from spindle_hdfs import fsspec_hdfs

        self.assertIs(fsspec.get_filesystem_class("hdfs"), fsspec_hdfs.HdfsFileSystem)
        self.assertIs(fsspec.get_filesystem_class("viewfs"), fsspec_hdfs.ViewfsFileSystem)
        import hdfs_native.fsspec

        self.assertTrue(issubclass(fsspec_hdfs.HdfsFileSystem, hdfs_native.fsspec.HdfsFileSystem))
        self.assertEqual(fsspec_hdfs.HdfsFileSystem.protocol, "hdfs")

    def test_torch_reads_and_writes_through_the_adapted_files(self):
        import hdfs_native
        import torch

        from spindle_hdfs.fsspec_hdfs import _adapted

        remote = RemoteFile()
        writer = _adapted(hdfs_native.FileWriter(remote), length=0)
        with self.assertRaises(io.UnsupportedOperation):
            hdfs_native.FileWriter(RemoteFile()).tell()  # what FsspecWriter met before
        state = {"weights": torch.arange(50000.0), "step": 7}
        torch.save(state, writer)
        self.assertEqual(writer.tell(), len(remote.data))
        self.assertGreater(writer.tell(), 200000)

        with self.assertRaises(NotImplementedError):
            torch.load(hdfs_native.FileReader(RemoteFile(remote.data)))  # what torch.load met before
        loaded = torch.load(_adapted(hdfs_native.FileReader(RemoteFile(remote.data))))
        self.assertEqual(loaded["step"], 7)
        self.assertTrue(torch.equal(loaded["weights"], state["weights"]))
        buffered = io.BufferedReader(_adapted(hdfs_native.FileReader(RemoteFile(remote.data))), buffer_size=4096)
        self.assertEqual(torch.load(buffered)["step"], 7)

    def test_an_appended_file_tells_from_its_old_end(self):
        import hdfs_native

        from spindle_hdfs.fsspec_hdfs import _adapted

        writer = _adapted(hdfs_native.FileWriter(RemoteFile()), length=100)
        writer.write(b"abc")
        self.assertEqual(writer.tell(), 103)


class RemoteFile:
    """Stands in for hdfs-native's remote file (its RawFileReader and RawFileWriter): bytes in memory."""

    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.position = 0

    def write(self, buffer):
        self.data += bytes(buffer)
        return len(memoryview(buffer).cast("B"))

    def close(self):
        pass

    def file_length(self):
        return len(self.data)

    def seek(self, position):
        self.position = position

    def tell(self):
        return self.position

    def read(self, size):
        size = len(self.data) - self.position if size < 0 else size
        chunk = bytes(self.data[self.position:self.position + size])
        self.position += len(chunk)
        return chunk


if __name__ == "__main__":
    unittest.main()
