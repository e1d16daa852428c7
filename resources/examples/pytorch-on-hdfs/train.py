"""PyTorch DistributedDataParallel whose checkpoints are in HDFS alone, written
and read through fsspec's hdfs:// (the hdfs-native package in the job's
environment: no JVM, no libhdfs, no Hadoop on the nodes).

RUN_URI (an hdfs:// URI, hdfs://NAMESERVICE/... or hdfs:///...) holds one
directory per checkpoint, checkpoints/step-NNNNNN-TOKEN/ (TOKEN names the
group's start: what a stopped group left half-written is never mixed with
what a later start writes, nor in its way, as a rename in HDFS does not
replace a file):

- dcp/: the model and optimizer, saved by every rank together with
  torch.distributed.checkpoint's FsspecWriter;
- model.pt: the same state, torch.save'd by rank 0 through fsspec.open, under
  a temporary name that is renamed once the file is whole and the dcp/ beside
  it is done. A directory with model.pt is a whole checkpoint.

At the end rank 0 writes RUN_URI/training.json with every rank's report.

When the group starts again (Spindle restarts it as a whole when a member
dies), every rank goes on from the newest whole checkpoint: the model and
optimizer from dcp/ with FsspecReader, and model.pt with torch.load, checked
to hold the same weights. Each rank prints the step it resumed from.
"""

import json
import os
import re
import socket
import sys
import time
import uuid

import fsspec
import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint import FsspecReader, FsspecWriter
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from torch.nn.parallel import DistributedDataParallel

from example_support import CLASSES, FEATURES, describe_environment, wine_splits

RUN = os.environ["RUN_URI"].rstrip("/")
CHECKPOINTS = RUN + "/checkpoints"
WHOLE = re.compile(r"step-(\d{6})-[0-9a-f]+")


def newest_whole_checkpoint(fs):
    """(step, URI) of the newest checkpoint with its model.pt and dcp/.metadata, or (0, None)."""
    try:
        names = [os.path.basename(path.rstrip("/")) for path in fs.ls(CHECKPOINTS, detail=False)]
    except FileNotFoundError:
        return 0, None
    for name in sorted((n for n in names if WHOLE.fullmatch(n)), reverse=True):
        uri = f"{CHECKPOINTS}/{name}"
        if fs.exists(uri + "/model.pt") and fs.exists(uri + "/dcp/.metadata"):
            return int(WHOLE.fullmatch(name).group(1)), uri
    return 0, None


def hadoop_facts():
    """What this task's Hadoop configuration and credentials are, as hdfs-native reads them."""
    conf = os.environ.get("HADOOP_CONF_DIR", "")
    nameservices = ""
    try:
        with open(os.path.join(conf, "hdfs-site.xml"), encoding="utf-8") as site:
            found = re.search(r"<name>dfs\.nameservices</name>\s*<value>([^<]*)</value>", site.read())
            nameservices = found.group(1) if found else ""
    except OSError:
        pass
    tokens = os.environ.get("HADOOP_TOKEN_FILE_LOCATION", "")
    services = []
    if tokens:
        with open(tokens, "rb") as credentials:
            services = sorted({m.decode() for m in re.findall(rb"ha-hdfs:[A-Za-z0-9._-]+", credentials.read())})
    # A Kerberos ticket the task could use instead of its tokens: one named, or the default cache.
    ticket = os.environ.get("KRB5CCNAME") or (f"/tmp/krb5cc_{os.getuid()}"
                                              if os.path.exists(f"/tmp/krb5cc_{os.getuid()}") else "")
    return {"hadoop_conf_dir": conf, "nameservices": nameservices, "token_services": services,
            "kerberos_ticket_cache": ticket}


def save_checkpoint(fs, model, optimizer, step, token, rank, first_losses):
    uri = f"{CHECKPOINTS}/step-{step:06d}-{token}"
    model_state, optimizer_state = get_state_dict(model, optimizer)
    # sync_files=False: an HDFS file is durable once closed (hdfs-native's writers have no fileno() to fsync).
    writer = FsspecWriter(uri + "/dcp", sync_files=False)
    dcp.save({"model": model_state, "optimizer": optimizer_state}, storage_writer=writer)
    if rank == 0:  # after dcp.save returned on rank 0, which wrote dcp/.metadata last
        with fsspec.open(uri + "/model.pt.partial", "wb") as out:
            torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict(), "step": step,
                        "first_loss": first_losses}, out)
        fs.mv(uri + "/model.pt.partial", uri + "/model.pt")


def resume(model, optimizer, uri):
    """Loads `uri` both ways into the model and optimizer; (first losses, whether the two agree)."""
    model_state, optimizer_state = get_state_dict(model, optimizer)
    state = {"model": model_state, "optimizer": optimizer_state}
    dcp.load(state, storage_reader=FsspecReader(uri + "/dcp"))
    set_state_dict(model, optimizer, model_state_dict=state["model"], optim_state_dict=state["optimizer"])
    with fsspec.open(uri + "/model.pt", "rb") as saved:
        rank0 = torch.load(saved)
    loaded = model.module.state_dict()
    agree = sorted(rank0["model"]) == sorted(loaded) and all(torch.equal(rank0["model"][k], loaded[k])
                                                             for k in loaded)
    return rank0["first_loss"], agree


def main():
    describe_environment()
    dist.init_process_group(backend="gloo", init_method="env://")
    rank, world = dist.get_rank(), dist.get_world_size()
    fs, _ = fsspec.url_to_fs(RUN)
    torch.manual_seed(1)
    x_train, y_train, _, _ = wine_splits()
    x = torch.from_numpy(x_train[rank::world])
    y = torch.from_numpy(y_train[rank::world]).long()
    model = DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(FEATURES, 32), torch.nn.ReLU(),
                                                        torch.nn.Linear(32, CLASSES)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    steps = int(os.environ.get("TRAIN_STEPS", "200"))
    every = int(os.environ.get("CHECKPOINT_EVERY", "50"))
    pause = float(os.environ.get("STEP_SECONDS", "0"))  # to make a short job last, for tests

    # Rank 0 picks the checkpoint and names this start of the group; every rank follows it.
    chosen = [newest_whole_checkpoint(fs) + (uuid.uuid4().hex[:8],) if rank == 0 else None]
    dist.broadcast_object_list(chosen, src=0)
    start, uri, token = chosen[0]
    with torch.no_grad():
        first_loss = float(loss_fn(model(x), y))
    first_losses, agree = None, None
    if uri:
        first_losses, agree = resume(model, optimizer, uri)
        first_loss = first_losses[rank]
        print(f"rank {rank}: resumed from step {start} ({uri}), with FsspecReader and torch.load, "
              f"{'the same weights' if agree else 'DIFFERENT WEIGHTS'}", flush=True)
    if first_losses is None:
        first_losses = [None] * world
        dist.all_gather_object(first_losses, first_loss)
    for step in range(start, steps):
        batch = torch.randint(0, len(x), (16,))
        optimizer.zero_grad()
        loss = loss_fn(model(x[batch]), y[batch])
        loss.backward()  # DDP all-reduces the gradients here
        optimizer.step()
        if (step + 1) % every == 0:
            save_checkpoint(fs, model, optimizer, step + 1, token, rank, first_losses)
        if pause:
            time.sleep(pause)
    with torch.no_grad():
        last_loss = float(loss_fn(model(x), y))
    view = {"task": os.environ.get("SPINDLE_TASK", "chief:0"), "rank": rank, "host": socket.gethostname(),
            "attempt": int(os.environ.get("SPINDLE_ATTEMPT", "0")), "resumed_from": start,
            "resumed_checkpoint": uri, "both_loads_agree": agree, "first_loss": first_loss, "last_loss": last_loss,
            "file_system": f"{type(fs).__module__}.{type(fs).__name__}", **hadoop_facts()}
    views = [None] * world
    dist.all_gather_object(views, view)
    if rank == 0:
        report = {"steps": steps, "world_size": world, "ranks": views,
                  "first_loss": sum(v["first_loss"] for v in views) / world,
                  "last_loss": sum(v["last_loss"] for v in views) / world}
        with fsspec.open(RUN + "/training.json", "wb") as out:
            out.write(json.dumps(report).encode())
    print(f"rank {rank}/{world}: loss {first_loss:.4f} -> {last_loss:.4f}", flush=True)
    dist.barrier()  # no rank tears the group down while another still uses it
    dist.destroy_process_group()
    # As in the pytorch-ddp example: gloo may abort a process while the interpreter tears down.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
