"""The golden environments of tests/data/render-env, read by the programs that consume them.

GoldenEnvironmentTest and the CLI test prove only that `spindle render-env` still renders the golden files. This
proves that the golden files say what their consumers understand, as the consumers' own code reads them:

- TensorFlow: TFConfigClusterResolver parses each TF_CONFIG, and multi_worker_util applies the rules TensorFlow's
  strategies enforce (allowed job names, one chief, the evaluator outside the cluster, each task's id in it).
- PyTorch: torch.distributed's env:// rendezvous, the one init_process_group(init_method="env://") runs, reads RANK,
  WORLD_SIZE, MASTER_ADDR and MASTER_PORT; the TCPStore it would make is replaced by a recorder, so nothing listens
  or connects.
- TonY and YARN-DTF, which have nothing to install: their variables, by the rules of PublishedContract in
  tests/unit/core/environment_test.cpp.

What each file must hold is derived from full_job.yaml (its task types, their instances, processes and roles) and
the addresses the files were rendered with (HOSTS, as tests/unit/core/cli_test.cpp renders them), never from the
golden files themselves.

    golden_environment_contract.py tensorflow|pytorch [--data DIR] [Class[.test_method] ...]

runs the checks of one framework, in a Python that has it, with the checks that need only the standard library;
--data reads full_job.yaml and full_job.<type>-<index>.json from another directory (a broken copy, say)."""

import argparse
import collections
import contextlib
import importlib
import json
import os
import re
import sys
import unittest

DATA = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "render-env"))

# The addresses the golden files were rendered with: the --hosts of Cli.RenderEnvMatchesGoldenJson
# (tests/unit/core/cli_test.cpp) and full_job_hosts of GoldenEnvironmentTest (environment_test.cpp).
HOSTS = ("chief:0=c0:2000,worker:0=w0:2001,worker:1=w1:2002,ps:0=p0:2003,evaluator:0=e0:2004,tensorboard:0=t0:2005,"
         "reader:0=r0:2006")

# TensorFlow's training cluster: the job names its strategies allow, less the evaluator, which TensorFlow keeps
# outside the cluster it evaluates. Every other task sees the cluster, if at all, from outside.
TRAINING_CLUSTER = ("chief", "worker", "ps")
# PyTorch's group: the chief (rank 0, if there is one), then the workers in index order.
PYTORCH_GROUP = ("chief", "worker")
# Types that are services unless the spec says otherwise (default_task in core/src/job_spec.cpp): the job does not
# wait for them, so TonY's TASK_NUM leaves them out.
SERVICES_BY_DEFAULT = ("ps", "tensorboard")

data_directory = DATA

TaskType = collections.namedtuple("TaskType", "instances processes role")


def parse_hosts(text):
    """{(type, index): "host:port"} from render-env's --hosts form "chief:0=h:1,worker:0=h:2"."""
    addresses = {}
    for entry in text.split(","):
        task, address = entry.split("=", 1)
        kind, index = task.split(":")
        addresses[(kind, int(index))] = address
    return addresses


def split_address(address):
    """("host", port) of "host:port" or "[v6]:port", as MASTER_ADDR and MASTER_PORT carry them."""
    host, port = address.rsplit(":", 1)
    return host.strip("[]"), int(port)


def _skip_blanks(text, at):
    while at < len(text) and text[at] in " \t":
        at += 1
    return at


def _flow(text, at):
    """One YAML flow value of `text` from `at`: a mapping, a sequence or a scalar, as (value, where it ends).
    Scalars stay strings; the fields that are numbers are converted where they are used."""
    at = _skip_blanks(text, at)
    if at >= len(text):
        raise ValueError(f"a value is missing at the end of {text!r}")
    if text[at] in "{[":
        mapping = text[at] == "{"
        closing = "}" if mapping else "]"
        items = {} if mapping else []
        at = _skip_blanks(text, at + 1)
        while not text.startswith(closing, at):
            item, at = _flow(text, at)
            at = _skip_blanks(text, at)
            if mapping:
                if not text.startswith(":", at):
                    raise ValueError(f"no ':' after key {item!r} in {text!r}")
                items[item], at = _flow(text, at + 1)
                at = _skip_blanks(text, at)
            else:
                items.append(item)
            if text.startswith(",", at):
                at = _skip_blanks(text, at + 1)
            elif not text.startswith(closing, at):
                raise ValueError(f"expected ',' or {closing!r} at column {at} of {text!r}")
        return items, at + 1
    if text[at] == '"':
        quoted = re.compile(r'"(?:[^"\\]|\\.)*"').match(text, at)
        if not quoted:
            raise ValueError(f"unterminated string in {text!r}")
        return json.loads(quoted.group()), quoted.end()
    if text[at] == "'":
        quoted = re.compile(r"'(?:[^']|'')*'").match(text, at)
        if not quoted:
            raise ValueError(f"unterminated string in {text!r}")
        return quoted.group()[1:-1].replace("''", "'"), quoted.end()
    # A plain scalar runs to the next indicator of the flow, or to a colon that ends a key.
    plain = re.compile(r"(?:[^,{}\[\]:]|:(?![\s,}\]]|$))*").match(text, at)
    return plain.group().strip(), plain.end()


def read_tasks(path):
    """full_job.yaml's tasks as {type: {field: value}}, in the file's order, read without PyYAML, which the PyTorch
    environment lacks: the top-level `tasks:` block, one flow mapping per type, as the file writes it. Any other
    shape is refused rather than guessed at; SpecReading compares this reading with PyYAML's where PyYAML is."""
    with open(path, encoding="utf-8") as spec:
        lines = spec.read().splitlines()
    tasks = None
    indent = None
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if tasks is None:
            if re.fullmatch(r"tasks:\s*(#.*)?", line):
                tasks = {}
            elif line.startswith("tasks:"):
                raise ValueError(f"{path}:{number}: `tasks:` is read only as a block of `  type: {{...}}` lines")
            continue
        if not line[0].isspace():
            break
        match = re.fullmatch(r"(\s+)([a-z][a-z0-9_]*):\s*(\{.*\})\s*(#[^\"']*)?", line)
        if not match or (indent is not None and match[1] != indent):
            raise ValueError(f"{path}:{number}: {line.strip()!r} is not a `type: {{...}}` line of the tasks block")
        indent = match[1]
        fields, end = _flow(match[3], 0)
        if end != len(match[3]):
            raise ValueError(f"{path}:{number}: {match[3][end:]!r} follows the task's mapping")
        tasks[match[2]] = fields
    if not tasks:
        raise ValueError(f"{path} has no `tasks:` block")
    return tasks


class Job:
    """What full_job.yaml and HOSTS say the tasks' environments must hold."""

    def __init__(self, tasks, addresses):
        self.types = {}
        for kind, fields in tasks.items():
            fields = fields or {}
            role = fields.get("role", "service" if kind in SERVICES_BY_DEFAULT else "tracked")
            self.types[kind] = TaskType(int(fields.get("instances", 1)), int(fields.get("processes", 1)), str(role))
        self.addresses = addresses

    def tasks(self):
        """Every (type, index) of the job, types in the spec's order."""
        return [(kind, index) for kind, task in self.types.items() for index in range(task.instances)]

    def of_type(self, kind):
        return [self.addresses[(kind, index)] for index in range(self.types[kind].instances)]

    def cluster(self):
        """TF_CONFIG's and CLUSTER_SPEC's cluster: each training type's addresses in index order."""
        return {kind: self.of_type(kind) for kind in self.types if kind in TRAINING_CLUSTER}

    def tracked(self):
        """TonY's TASK_NUM: the tasks the job waits for."""
        return sum(task.instances for task in self.types.values() if task.role == "tracked")

    def chief(self):
        """TensorFlow's rule: the chief leads; without one, worker 0 does."""
        return ("chief", 0) if "chief" in self.types else ("worker", 0)

    def world_size(self):
        return sum(self.types[kind].instances * self.types[kind].processes for kind in PYTORCH_GROUP
                   if kind in self.types)

    def first_rank(self, kind, index):
        """The rank of the first process of a task in PyTorch's group, or None for a task outside it."""
        if kind not in PYTORCH_GROUP or kind not in self.types:
            return None
        before = 0
        if kind == "worker" and "chief" in self.types:
            before = self.types["chief"].instances * self.types["chief"].processes
        return before + index * self.types[kind].processes

    def rank_zero(self):
        return next(task for task in self.tasks() if self.first_rank(*task) == 0)


def load_golden(directory):
    """{(type, index): environment} of every full_job.<type>-<index>.json in `directory`."""
    golden = {}
    for name in sorted(os.listdir(directory)):
        match = re.fullmatch(r"full_job\.([a-z][a-z0-9_]*)-(\d+)\.json", name)
        if match:
            with open(os.path.join(directory, name), encoding="utf-8") as file:
                golden[(match[1], int(match[2]))] = json.load(file)
    if not golden:
        raise ValueError(f"{directory} holds no full_job.<type>-<index>.json")
    return golden


def file_name(task):
    return f"full_job.{task[0]}-{task[1]}.json"


@contextlib.contextmanager
def environment_of(variables):
    """os.environ holding only a task's variables, as its process would see them, and what it held before after."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(variables)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


class GoldenCase(unittest.TestCase):
    """Reads the spec and the golden files once per class; a file that cannot be read fails the class."""

    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.directory = data_directory
        cls.job = Job(read_tasks(os.path.join(cls.directory, "full_job.yaml")), parse_hosts(HOSTS))
        cls.golden = load_golden(cls.directory)


class GoldenFiles(GoldenCase):
    """The inputs agree with each other, so that the checks below check something."""

    def test_every_type_of_the_spec_has_a_golden_file_and_only_its_tasks_do(self):
        kinds = {kind for kind, _ in self.golden}
        self.assertEqual(kinds, set(self.job.types), "the golden files should cover every task type of full_job.yaml")
        for task in self.golden:
            self.assertIn(task, self.job.tasks(), f"{file_name(task)} is for a task full_job.yaml does not have")

    def test_the_hosts_address_every_task_of_the_spec(self):
        self.assertEqual(sorted(self.job.addresses), sorted(self.job.tasks()),
                         "HOSTS and full_job.yaml should name the same tasks, as render-env requires")

    def test_every_value_is_a_string(self):
        for task, env in self.golden.items():
            for name, value in env.items():
                self.assertIsInstance(value, str, f"{file_name(task)}: {name} is no environment variable's value")


class SpecReading(GoldenCase):
    """The minimal reading of full_job.yaml is the one a YAML parser makes (PyYAML, which
    TensorFlow's environment has and PyTorch's has not: this runs with the TensorFlow suite)."""

    def test_the_spec_reads_as_pyyaml_reads_it(self):
        import yaml

        with open(os.path.join(self.directory, "full_job.yaml"), encoding="utf-8") as spec:
            tasks = yaml.safe_load(spec)["tasks"]
        self.assertEqual(list(Job(tasks, self.job.addresses).types.items()), list(self.job.types.items()))


class TonyVariables(GoldenCase):
    """TonY's executors set JOB_NAME to the task's type, TASK_INDEX to its index, TASK_NUM to the number of tasks the
    job waits for, IS_CHIEF for the one that leads, and CLUSTER_SPEC to the cluster TF_CONFIG holds."""

    def test_job_name_task_index_and_task_num(self):
        for (kind, index), env in self.golden.items():
            name = file_name((kind, index))
            self.assertEqual(env.get("JOB_NAME"), kind, f"{name}: JOB_NAME")
            self.assertEqual(env.get("TASK_INDEX"), str(index), f"{name}: TASK_INDEX")
            self.assertEqual(env.get("TASK_NUM"), str(self.job.tracked()),
                             f"{name}: TASK_NUM should count the tracked tasks of full_job.yaml")

    def test_cluster_spec_is_the_training_cluster_as_tf_config_has_it(self):
        for task, env in self.golden.items():
            name = file_name(task)
            self.assertIn("CLUSTER_SPEC", env, name)
            cluster = json.loads(env["CLUSTER_SPEC"])
            self.assertEqual(cluster, self.job.cluster(), f"{name}: CLUSTER_SPEC")
            if "TF_CONFIG" in env:
                self.assertEqual(cluster, json.loads(env["TF_CONFIG"]).get("cluster"),
                                 f"{name}: CLUSTER_SPEC should be TF_CONFIG's cluster")

    def test_is_chief_only_for_the_task_that_leads(self):
        for task, env in self.golden.items():
            self.assertEqual(env.get("IS_CHIEF"), "true" if task == self.job.chief() else "false",
                             f"{file_name(task)}: IS_CHIEF ({self.job.chief()[0]}:0 leads)")


class YarnDtfVariables(GoldenCase):
    """The YARN-DTF design: DTF_<TYPE>_HOSTS lists each type's addresses in index order, comma separated;
    DTF_TASK_JOB_NAME and DTF_TASK_INDEX name the task."""

    def test_hosts_lists_and_the_task(self):
        for (kind, index), env in self.golden.items():
            name = file_name((kind, index))
            self.assertEqual(env.get("DTF_TASK_JOB_NAME"), kind, f"{name}: DTF_TASK_JOB_NAME")
            self.assertEqual(env.get("DTF_TASK_INDEX"), str(index), f"{name}: DTF_TASK_INDEX")
            for listed in self.job.types:
                variable = f"DTF_{listed.upper()}_HOSTS"
                self.assertEqual(env.get(variable), ",".join(self.job.of_type(listed)), f"{name}: {variable}")


class TensorFlowReadsTheGoldenEnvironments(GoldenCase):
    """TensorFlow's own parsing of TF_CONFIG and its strategies' rules, applied to each golden environment."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        try:
            import tensorflow
            from tensorflow.python.distribute import multi_worker_util
        except ImportError as error:
            raise RuntimeError(f"TensorFlow is not importable by {sys.executable} ({error}); scripts/setup installs "
                               "it in ~/.cache/spindle/venv") from error
        cls.tf = tensorflow
        cls.multi_worker_util = multi_worker_util

    def resolve(self, task, env):
        """What TFConfigClusterResolver makes of a task's environment: (task type, task id, ClusterSpec, master)."""
        with environment_of(env):
            try:
                resolver = self.tf.distribute.cluster_resolver.TFConfigClusterResolver()
                cluster = resolver.cluster_spec()
                kind, index = resolver.task_type, resolver.task_id
                master = resolver.master() if kind in cluster.jobs else None
            except (ValueError, KeyError, TypeError) as error:
                refusal = f"{file_name(task)}: TFConfigClusterResolver refuses it: {error!r}"
                raise self.failureException(refusal) from None
        return kind, index, cluster, master

    def with_tf_config(self):
        return [(task, env) for task, env in self.golden.items() if "TF_CONFIG" in env]

    def test_only_tasks_outside_the_training_cluster_lack_tf_config(self):
        for task, env in self.golden.items():
            if "TF_CONFIG" in env:
                continue
            self.assertNotIn(task[0], self.job.cluster(),
                             f"{file_name(task)} has no TF_CONFIG, yet full_job.yaml puts {task[0]} in the training "
                             "cluster")
            # Nor would TensorFlow find a cluster anywhere else: it runs as a process on its own.
            self.assertEqual(self.resolve(task, env)[2].as_dict(), {}, file_name(task))

    def test_each_task_is_the_one_its_file_is_for_and_sees_the_training_cluster(self):
        for task, env in self.with_tf_config():
            name = file_name(task)
            kind, index, cluster, master = self.resolve(task, env)
            self.assertEqual((kind, index), task, f"{name}: TFConfigClusterResolver's task_type and task_id")
            self.assertEqual(cluster.as_dict(), self.job.cluster(),
                             f"{name}: TFConfigClusterResolver's cluster_spec() should be full_job.yaml's training "
                             "cluster at the rendered addresses")
            if kind in TRAINING_CLUSTER:
                # The server TensorFlow starts for the task listens where Spindle registered the task.
                self.assertEqual(master, self.job.addresses[task], f"{name}: TFConfigClusterResolver's master()")

    def test_the_strategies_accept_the_cluster_and_number_the_workers_as_pytorch_does(self):
        util = self.multi_worker_util
        for task, env in self.with_tf_config():
            name = file_name(task)
            kind, index, cluster, _ = self.resolve(task, env)
            cluster = util.normalize_cluster_spec(cluster)
            if kind in TRAINING_CLUSTER + ("evaluator",):
                try:
                    util._validate_cluster_spec(cluster, kind, index)  # pylint: disable=protected-access
                except ValueError as error:
                    refusal = f"{name}: multi_worker_util refuses the cluster for {kind}:{index}: {error}"
                    raise self.failureException(refusal) from None
            else:
                # A custom task is no member TensorFlow would accept; it sees the training cluster from outside.
                self.assertNotIn(kind, cluster.jobs, f"{name}: a {kind} task in the training cluster")
                try:
                    util._validate_cluster_spec(cluster, None, None)  # pylint: disable=protected-access
                except ValueError as error:
                    refusal = f"{name}: multi_worker_util refuses the cluster the {kind} task sees: {error}"
                    raise self.failureException(refusal) from None
            if kind in PYTORCH_GROUP:
                self.assertEqual(str(util.id_in_cluster(cluster, kind, index)), env.get("RANK"),
                                 f"{name}: TensorFlow's id_in_cluster should be PyTorch's RANK")
                self.assertEqual(str(util.worker_count(cluster, kind)), env.get("WORLD_SIZE"),
                                 f"{name}: TensorFlow's worker_count should be PyTorch's WORLD_SIZE")

    def test_exactly_one_task_is_chief(self):
        util = self.multi_worker_util
        for task, env in self.with_tf_config():
            name = file_name(task)
            kind, index, cluster, _ = self.resolve(task, env)
            members = [(job, member) for job in cluster.jobs for member in range(cluster.num_tasks(job))]
            try:
                chiefs = [member for member in members if util.is_chief(cluster, *member)]
                # TensorFlow calls the evaluator a chief of its own, outside the cluster; IS_CHIEF is about the
                # training cluster.
                is_chief = util.is_chief(cluster, kind, index) if kind in TRAINING_CLUSTER else None
            except ValueError as error:
                refusal = f"{name}: multi_worker_util.is_chief refuses the cluster: {error}"
                raise self.failureException(refusal) from None
            self.assertEqual(chiefs, [self.job.chief()], f"{name}: the chiefs TensorFlow finds in the cluster")
            if is_chief is not None:
                # TonY's IS_CHIEF is TensorFlow's idea of the chief.
                self.assertEqual(env.get("IS_CHIEF"), "true" if is_chief else "false",
                                 f"{name}: IS_CHIEF should be multi_worker_util.is_chief")


class PyTorchJoinsTheGroup(GoldenCase):
    """PyTorch's env:// rendezvous, as init_process_group(init_method="env://") runs it, on each golden environment.
    Its TCPStore is replaced by a recorder, so torch's own _create_c10d_store still checks the port and chooses the
    rank that hosts the store, and nothing listens or connects."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        try:
            import torch.distributed
            # The module, not the function torch.distributed exports under the same name.
            rendezvous = importlib.import_module("torch.distributed.rendezvous")
        except ImportError as error:
            raise RuntimeError(f"PyTorch is not importable by {sys.executable} ({error}); scripts/setup --tests "
                               "installs it in ~/.cache/spindle/torch-venv") from error
        if not torch.distributed.is_available():
            raise RuntimeError(f"the PyTorch of {sys.executable} has no torch.distributed")
        cls.rendezvous_module = rendezvous

    def join(self, env):
        """(rank, world size, the store's arguments) that torch's env:// rendezvous makes of `env`."""
        made = []

        def recording_store(*args, **kwargs):
            made.append(kwargs)
            if args:
                raise AssertionError(f"torch made its TCPStore with positional arguments {args}; the recorder in "
                                     f"{__file__} needs updating for this torch")
            return object()

        module = self.rendezvous_module
        real_store = module.TCPStore
        module.TCPStore = recording_store
        try:
            with environment_of(env):
                _, rank, world_size = next(module.rendezvous("env://"))
        finally:
            module.TCPStore = real_store
        if len(made) != 1:
            raise AssertionError(f"torch's env:// rendezvous made {len(made)} stores, not one; the recorder in "
                                 f"{__file__} needs updating for this torch")
        return rank, world_size, made[0]

    def test_the_group_meets_at_rank_zero_with_unique_ranks(self):
        ranks = {}
        expected_master = self.job.addresses[self.job.rank_zero()]
        for task, env in self.golden.items():
            if "RANK" not in env:
                continue
            name = file_name(task)
            try:
                rank, world_size, store = self.join(env)
            except (ValueError, RuntimeError, TypeError) as error:
                raise self.failureException(f"{name}: torch's env:// rendezvous refuses it: {error}") from None
            self.assertNotIn(rank, ranks, f"{name} has rank {rank}, as {file_name(ranks.get(rank, task))} has")
            ranks[rank] = task
            self.assertEqual(world_size, self.job.world_size(),
                             f"{name}: WORLD_SIZE should be the chief's and workers' processes in full_job.yaml")
            self.assertIn(rank, range(world_size), f"{name}: RANK {rank} is not below WORLD_SIZE {world_size}")
            self.assertEqual(rank, self.job.first_rank(*task),
                             f"{name}: the chief's ranks come first, then each worker's in index order")
            self.assertEqual(f"{store['host_name']}:{store['port']}", expected_master,
                             f"{name}: MASTER_ADDR:MASTER_PORT should be where rank 0 "
                             f"({self.job.rank_zero()[0]}:{self.job.rank_zero()[1]}) listens")
            self.assertEqual(store["world_size"], world_size, f"{name}: the store's world size")
            self.assertEqual(store["is_master"], rank == 0,
                             f"{name}: torch should have rank 0, and only rank 0, host the store")
        self.assertTrue(ranks, "no golden file carries RANK")
        if self.job.rank_zero() in self.golden:
            self.assertIn(0, ranks, f"{file_name(self.job.rank_zero())} should have rank 0")

    def test_only_the_groups_tasks_carry_a_rank_and_every_task_agrees_on_the_master(self):
        master = split_address(self.job.addresses[self.job.rank_zero()])
        for task, env in self.golden.items():
            name = file_name(task)
            in_group = self.job.first_rank(*task) is not None
            self.assertEqual("RANK" in env, in_group,
                             f"{name}: RANK belongs to the tasks of PyTorch's group (chief and workers) only")
            if "MASTER_ADDR" in env or "MASTER_PORT" in env:
                self.assertEqual((env.get("MASTER_ADDR"), env.get("MASTER_PORT")), (master[0], str(master[1])),
                                 f"{name}: MASTER_ADDR and MASTER_PORT")
            if in_group:
                processes = self.job.types[task[0]].processes
                self.assertEqual(env.get("LOCAL_WORLD_SIZE"), str(processes), f"{name}: LOCAL_WORLD_SIZE")
                self.assertEqual(env.get("LOCAL_RANK"), "0", f"{name}: LOCAL_RANK of the container's first process")
                continue
            # A task outside the group may know where the group meets, but claims no place in it.
            self.assertFalse("LOCAL_RANK" in env, f"{name}: LOCAL_RANK without RANK")
            with self.assertRaisesRegex(ValueError, "RANK", msg=f"{name}: torch let a task outside the group join"):
                self.join(env)


SUITES = {
    "tensorflow": [GoldenFiles, SpecReading, TonyVariables, YarnDtfVariables, TensorFlowReadsTheGoldenEnvironments],
    "pytorch": [GoldenFiles, TonyVariables, YarnDtfVariables, PyTorchJoinsTheGroup],
}


def main():
    global data_directory
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("framework", choices=sorted(SUITES), help="whose consumer to run, besides the stdlib checks")
    parser.add_argument("--data", default=DATA, help="directory of full_job.yaml and its golden files")
    parser.add_argument("tests", nargs="*", help="only these tests (Class or Class.test_method), default all")
    options = parser.parse_args()
    data_directory = options.data
    loader = unittest.defaultTestLoader
    if options.tests:
        tests = loader.loadTestsFromNames(options.tests, sys.modules[__name__])
    else:
        tests = unittest.TestSuite(loader.loadTestsFromTestCase(case) for case in SUITES[options.framework])
    result = unittest.TextTestRunner(verbosity=2).run(tests)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
