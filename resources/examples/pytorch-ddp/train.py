"""PyTorch DistributedDataParallel over gloo. The process group comes from
the environment Spindle sets (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE),
so torch.distributed's env:// rendezvous needs nothing else.

The same script runs one process per container (pytorch_ddp.yaml) or several
under torchrun (torchrun.yaml). Before training, each process checks that
the rank, world size and master it was given agree with the cluster Spindle
describes in TF_CONFIG, and stops with a sentence when they do not. Only
rank 0 writes: a checkpoint every CHECKPOINT_EVERY steps, the model, and a
report of every rank's view. When the group restarts (Spindle restarts it
as a whole when a member dies), every rank resumes from the checkpoint.
"""

import json
import os
import sys
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from example_support import CLASSES, FEATURES, describe_environment, output_dir, wine_splits


def checked_view():
    """This process's place in the group, as its environment gives it,
    checked against the job's cluster when run by Spindle."""
    view = {
        "task": os.environ.get("SPINDLE_TASK", "chief:0"),
        "rank": int(os.environ["RANK"]),
        "world_size": int(os.environ["WORLD_SIZE"]),
        "local_rank": int(os.environ.get("LOCAL_RANK", "0")),
        "local_world_size": int(os.environ.get("LOCAL_WORLD_SIZE", "1")),
        "master": f"{os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']}",
    }
    cluster = json.loads(os.environ.get("TF_CONFIG", "{}")).get("cluster")
    if not cluster:
        return view
    # The group is the chief, then the workers; each container holds local_world_size processes.
    members = cluster.get("chief", []) + cluster.get("worker", [])
    kind, _, index = view["task"].partition(":")
    container = int(index) + (len(cluster.get("chief", [])) if kind == "worker" else 0)
    expected = {
        "rank": container * view["local_world_size"] + view["local_rank"],
        "world_size": len(members) * view["local_world_size"],
        "master host": members[0].rsplit(":", 1)[0].strip("[]"),
    }
    seen = {"rank": view["rank"], "world_size": view["world_size"], "master host": os.environ["MASTER_ADDR"]}
    wrong = [f"{name} is {seen[name]}, not {expected[name]}" for name in expected if seen[name] != expected[name]]
    if wrong:
        sys.exit(f"{view['task']} (local rank {view['local_rank']}): " + "; ".join(wrong) +
                 f", for the cluster {members}")
    return view


def main():
    describe_environment()
    view = checked_view()
    dist.init_process_group(backend="gloo", init_method="env://")
    rank, world = dist.get_rank(), dist.get_world_size()
    if (rank, world) != (view["rank"], view["world_size"]):
        sys.exit(f"the process group made this rank {rank} of {world}, not {view['rank']} of {view['world_size']}")
    torch.manual_seed(1)
    x_train, y_train, _, _ = wine_splits()
    x = torch.from_numpy(x_train[rank::world])
    y = torch.from_numpy(y_train[rank::world]).long()

    model = DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(FEATURES, 32), torch.nn.ReLU(),
                                                        torch.nn.Linear(32, CLASSES)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = torch.nn.CrossEntropyLoss()
    steps = int(os.environ.get("TRAIN_STEPS", "200"))
    every = int(os.environ.get("CHECKPOINT_EVERY", "50"))
    pause = float(os.environ.get("STEP_SECONDS", "0"))  # to make a short job last, for tests
    output = output_dir()
    checkpoint = os.path.join(output, "checkpoint.pt")
    with torch.no_grad():
        first_loss = float(loss_fn(model(x), y))
    start = 0
    if os.path.exists(checkpoint):
        state = torch.load(checkpoint)
        model.module.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start, first_loss = state["step"], state["first_loss"][rank]
        print(f"rank {rank}: resumed from step {start}", flush=True)
    initial_losses = [None] * world
    dist.all_gather_object(initial_losses, first_loss)
    for step in range(start, steps):
        batch = torch.randint(0, len(x), (16,))
        optimizer.zero_grad()
        loss = loss_fn(model(x[batch]), y[batch])
        loss.backward()  # DDP all-reduces the gradients here
        optimizer.step()
        if rank == 0 and (step + 1) % every == 0:
            os.makedirs(output, exist_ok=True)
            state = {"model": model.module.state_dict(), "optimizer": optimizer.state_dict(), "step": step + 1,
                     "first_loss": initial_losses}
            torch.save(state, checkpoint + ".tmp")
            os.replace(checkpoint + ".tmp", checkpoint)
        if pause:
            time.sleep(pause)
    with torch.no_grad():
        last_loss = float(loss_fn(model(x), y))
    views = [None] * world
    dist.all_gather_object(views, {**view, "first_loss": first_loss, "last_loss": last_loss, "resumed_from": start,
                                   "attempt": int(os.environ.get("SPINDLE_ATTEMPT", "0"))})

    if rank == 0:
        os.makedirs(output, exist_ok=True)
        torch.save(model.module.state_dict(), os.path.join(output, "model.pt"))
        report = {
            "first_loss": sum(v["first_loss"] for v in views) / world,
            "last_loss": sum(v["last_loss"] for v in views) / world,
            "steps": steps,
            "world_size": world,
            "ranks": views,
        }
        with open(os.path.join(output, "training.json"), "w", encoding="utf-8") as out:
            json.dump(report, out)
    print(f"rank {rank}/{world}: loss {first_loss:.4f} -> {last_loss:.4f}", flush=True)
    dist.barrier()  # no rank tears the group down while another still uses it
    dist.destroy_process_group()
    # PyTorch 2.15's gloo aborts a process now and then as the interpreter tears
    # down after this ("terminate called without an active exception", seen in
    # about one run in ten of 4 ranks); the work is done and written by now.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
