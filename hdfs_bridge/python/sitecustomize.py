"""Spindle's hook in every Python process of a task: when the process
imports TensorFlow, hdfs:// is registered with it (spindle_hdfs), and
nothing else happens until then. The task executor puts this directory
first on PYTHONPATH (docs/outputs-on-hdfs.md).

An environment may have a sitecustomize of its own (Debian's Python does);
it runs right after this one, as if this one were not there.
"""

import importlib.abc
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: it lets the real finder find `tensorflow`, then
    runs a hook once the module has run, so that TensorFlow is whole when
    the plugin is registered."""

    def __init__(self, hooks):
        self._hooks = hooks
        self._finding = set()

    def find_spec(self, name, path=None, target=None):
        hook = self._hooks.get(name)
        if hook is None or name in self._finding:
            return None
        self._finding.add(name)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self._finding.discard(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            del self._hooks[name]
            try:
                hook()
            except Exception as error:  # noqa: BLE001 - a hook never breaks the import it follows
                sys.stderr.write("spindle: after importing %s: %s\n" % (name, error))

        loader.exec_module = exec_module
        return spec


def _register_tensorflow():
    import spindle_hdfs

    spindle_hdfs.register_tensorflow()


def _configure_fsspec():
    try:
        from spindle_hdfs import fsspec_setup
    except ImportError:
        return
    fsspec_setup.configure()


def _install():
    hooks = {"tensorflow": _register_tensorflow, "fsspec": _configure_fsspec}
    for name in list(hooks):
        if name in sys.modules:
            hooks.pop(name)()
    if hooks:
        sys.meta_path.insert(0, _AfterImport(hooks))


def _chain():
    """Runs the sitecustomize this one hides, if the environment has one."""
    del sys.modules["sitecustomize"]
    saved = list(sys.path)
    sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or ".") != _HERE]
    try:
        import sitecustomize  # noqa: F401 - the environment's own
    except ImportError as error:
        if error.name != "sitecustomize":
            raise
    finally:
        sys.path[:] = saved
        sys.modules["sitecustomize"] = sys.modules.get("sitecustomize") or _self


_self = sys.modules[__name__]
_install()
_chain()
