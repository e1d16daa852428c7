"""hdfs-native's fsspec file systems, with readers that have readinto() and a
seek() that returns the new position, and writers that tell() where they are.

hdfs-native 0.14.7's reader is an io.RawIOBase that implements read() alone,
and RawIOBase's own readinto() raises NotImplementedError: torch.load (whose
C++ reader calls readinto when a file has one, as every RawIOBase has),
io.BufferedReader and torch.distributed.checkpoint's FsspecReader all read
through it. Its seek() returns None, where io.BufferedReader asks it for the
position. Its writer has no tell() (io.UnsupportedOperation), which
torch.distributed.checkpoint's FsspecWriter asks before each item it writes;
the writer then deletes the file, and the error that reaches the job is
closing it: "FileNotFoundError: File does not exist: ... does not have any
open files". Everything else is hdfs-native's as it is. fsspec imports this
module when a process first uses hdfs:// or viewfs:// after
spindle_hdfs.fsspec_setup.configure().
"""

import io

import hdfs_native
import hdfs_native.fsspec as _native


class _Reader(hdfs_native.FileReader):
    def seek(self, offset, whence=io.SEEK_SET):
        super().seek(offset, whence)
        return self.tell()

    def readinto(self, buffer):
        view = memoryview(buffer).cast("B")
        data = self.inner.read(len(view))
        view[: len(data)] = data
        return len(data)


class _Writer(hdfs_native.FileWriter):
    _position = 0  # where the file ends: its length when it was opened, and what was written since

    def write(self, buffer):
        written = super().write(buffer)
        self._position += memoryview(buffer).nbytes if written is None else written
        return written

    def tell(self):
        return self._position


def _adapted(file, length=0):
    """`file`, hdfs-native's reader or writer, as a _Reader or _Writer: the same object (a copy's
    finalizer would close the remote file), its class changed. A later hdfs-native's own classes,
    or anything else, are left as they are."""
    if type(file) is hdfs_native.FileReader and type(file).readinto is io.RawIOBase.readinto:
        file.__class__ = _Reader
    elif type(file) is hdfs_native.FileWriter and type(file).tell is io.RawIOBase.tell:
        file.__class__ = _Writer
        file._position = length
    return file


class _Files:
    def _open(self, path, mode="rb", block_size=None, **kwargs):
        if mode != "rb":
            length = self.info(path)["size"] if mode == "ab" else 0
            return _adapted(super()._open(path, mode=mode, block_size=block_size, **kwargs), length)
        reader = _adapted(super()._open(path, mode="rb", **kwargs))
        return io.BufferedReader(reader, buffer_size=block_size) if block_size else reader


class HdfsFileSystem(_Files, _native.HdfsFileSystem):
    pass


class ViewfsFileSystem(_Files, _native.ViewfsFileSystem):
    pass
