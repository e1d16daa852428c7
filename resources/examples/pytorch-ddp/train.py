"""PyTorch DistributedDataParallel over gloo. The process group comes from
the environment Spindle sets (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE),
so torch.distributed's env:// rendezvous needs nothing else.
"""

import json
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from example_support import CLASSES, FEATURES, describe_environment, output_dir, wine_splits


def main():
    describe_environment()
    dist.init_process_group(backend="gloo", init_method="env://")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(1)
    x_train, y_train, _, _ = wine_splits()
    x = torch.from_numpy(x_train[rank::world])
    y = torch.from_numpy(y_train[rank::world]).long()

    model = DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(FEATURES, 32), torch.nn.ReLU(),
                                                        torch.nn.Linear(32, CLASSES)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = torch.nn.CrossEntropyLoss()
    steps = int(os.environ.get("TRAIN_STEPS", "200"))
    first_loss = None
    for step in range(steps):
        batch = torch.randint(0, len(x), (16,))
        optimizer.zero_grad()
        loss = loss_fn(model(x[batch]), y[batch])
        loss.backward()  # DDP all-reduces the gradients here
        optimizer.step()
        first_loss = float(loss) if first_loss is None else first_loss

    with torch.no_grad():
        full_loss = float(loss_fn(model(x), y))
    if rank == 0:
        output = output_dir()
        os.makedirs(output, exist_ok=True)
        torch.save(model.module.state_dict(), os.path.join(output, "model.pt"))
        with open(os.path.join(output, "training.json"), "w", encoding="utf-8") as out:
            json.dump({"first_loss": first_loss, "last_loss": full_loss, "steps": steps, "world_size": world}, out)
    print(f"rank {rank}/{world}: loss {first_loss:.4f} -> {full_loss:.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
