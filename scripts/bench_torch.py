#!/usr/bin/env python3
"""The network of crumble-model (model/src/net.rs), built identically in PyTorch, timed on the
CPU with the same thread count (or on a GPU with `--device cuda`): prints the keys of `crumble
bench net` so the two compare side by side.

Install PyTorch (CPU) into a virtualenv first, for example:

    python3 -m venv /tmp/venv
    /tmp/venv/bin/pip install torch --index-url https://download.pytorch.org/whl/cpu
    # if that index is unreachable, plain PyPI works (a larger download with CUDA libraries):
    /tmp/venv/bin/pip install torch

Then:

    /tmp/venv/bin/python scripts/bench_torch.py [--json] [--channels-last] [--seconds 3]
    cargo run --release -p crumble-train -- bench net [--json]

Defaults are the default `NetConfig` (6x6 board, R = 8). The inputs are random 0/1 planes
and random legal masks rather than real positions: dense convolutions cost the same
whatever the values.
"""

import argparse
import json
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

PLANES = 33


class Block(nn.Module):
    def __init__(self, c, gpool):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)
        self.gpool = nn.Linear(2 * c, c) if gpool else None
        self.alpha = nn.Parameter(torch.tensor([0.2]))

    def forward(self, x):
        h = self.conv1(F.relu(x))
        h = F.relu(h)
        if self.gpool is not None:
            h = h + self.gpool(pool(h))[:, :, None, None]
        h = self.conv2(h)
        return x + h * self.alpha


def pool(x):
    return torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)


class Net(nn.Module):
    def __init__(self, resolution=8, cell_pixels=1, channels=48, blocks=6, gpool_every=3, value_hidden=64):
        super().__init__()
        s = resolution // cell_pixels
        self.s = s
        c = channels
        self.stem = nn.Conv2d(PLANES, c, s, stride=s)
        self.blocks = nn.ModuleList(
            [Block(c, gpool_every > 0 and (b + 1) % gpool_every == 0) for b in range(blocks)]
        )
        self.policy = nn.Conv2d(c, 8 * s * s, 1)
        self.shuffle = nn.PixelShuffle(s)
        self.policy_fine = nn.Conv2d(PLANES, 8, 1)
        self.stop = nn.Linear(2 * c, 1)
        self.value1 = nn.Linear(2 * c, value_hidden)
        self.value2 = nn.Linear(value_hidden, 1)

    def forward(self, inp):
        b = inp.shape[0]
        x = F.relu(self.stem(inp))
        for blk in self.blocks:
            x = blk(x)
        h = F.relu(x)
        pooled = pool(h)
        planes = self.shuffle(self.policy(h)) + self.policy_fine(inp)
        logits = torch.cat([planes.reshape(b, -1), self.stop(pooled)], dim=1)
        value = torch.tanh(self.value2(F.relu(self.value1(pooled)))).reshape(b)
        return logits, value


def flops_per_position(a, n):
    c, s = a.channels, a.resolution // a.cell_pixels
    tn, g = n * a.cell_pixels, n * a.resolution
    px = tn * tn
    f = 2 * px * c * PLANES * s * s
    for b in range(a.blocks):
        f += 2 * 2 * px * c * c * 9
        if a.gpool_every > 0 and (b + 1) % a.gpool_every == 0:
            f += 2 * px * c + 2 * (2 * c) * c
    f += 2 * px * c * 8 * s * s + 2 * g * g * PLANES * 8 + 2 * px * c + 2 * 2 * c
    f += 2 * 2 * c * a.value_hidden + 2 * a.value_hidden
    return f


def rate(seconds, f, sync):
    f()
    sync()
    t = time.perf_counter()
    n = 0
    while n < 2 or time.perf_counter() - t < seconds:
        f()
        n += 1
        # A GPU queues work and returns at once: wait for it, or the rate counts launches.
        sync()
    return n / (time.perf_counter() - t)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true")
    p.add_argument("--channels-last", action="store_true", help="channels_last memory layout")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--device", default="cpu", help="torch device: cpu (default) or cuda")
    p.add_argument("--board", type=int, default=6)
    p.add_argument("--resolution", type=int, default=8)
    p.add_argument("--cell-pixels", type=int, default=1)
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--blocks", type=int, default=4)
    p.add_argument("--gpool-every", type=int, default=2)
    p.add_argument("--value-hidden", type=int, default=48)
    p.add_argument(
        "--legal-gather",
        action="store_true",
        help="policy loss over the gathered legal logits only, as crumble's training does "
        "(default: masked log-softmax over every logit)",
    )
    a = p.parse_args()
    cores = os.cpu_count() or 1
    torch.set_num_threads(cores)
    torch.manual_seed(0)
    dev = torch.device(a.device)
    sync = (lambda: torch.cuda.synchronize(dev)) if dev.type == "cuda" else (lambda: None)
    fmt = torch.channels_last if a.channels_last else torch.contiguous_format
    g = a.board * a.resolution
    A = 8 * g * g + 1
    net = Net(a.resolution, a.cell_pixels, a.channels, a.blocks, a.gpool_every, a.value_hidden)
    net = net.to(dev, memory_format=fmt)
    x_all = (torch.rand(256, PLANES, g, g) < 0.3).float().to(dev).contiguous(memory_format=fmt)

    out = {"cores": cores, "flops_per_pos": flops_per_position(a, a.board)}
    net.eval()
    with torch.inference_mode():
        for b in (1, 16, 64, 256):
            x = x_all[:b].contiguous(memory_format=fmt)
            out[f"infer_pos_per_sec_b{b}"] = rate(a.seconds, lambda: net(x), sync) * b

    net.train()
    b = 128
    x = x_all[:b].contiguous(memory_format=fmt)
    mask = (torch.rand(b, A) < 0.01).float()
    mask[:, -1] = 1.0
    target = mask / mask.sum(dim=1, keepdim=True)
    z = torch.tensor([[1.0, -1.0, 0.0][k % 3] for k in range(b)])
    opt = torch.optim.Adam(net.parameters(), lr=1e-4, eps=1e-8)

    # The legal decisions as indices padded to the most per sample (crumble's TrainBatch).
    L = int(mask.sum(dim=1).max())
    legal = torch.zeros(b, L, dtype=torch.long)
    pad = torch.full((b, L), -1e9)
    target_legal = torch.zeros(b, L)
    for k in range(b):
        idx = mask[k].nonzero().flatten()
        legal[k, : len(idx)] = idx
        pad[k, : len(idx)] = 0.0
        target_legal[k, : len(idx)] = target[k, idx]
    mask, target, z = mask.to(dev), target.to(dev), z.to(dev)
    legal, pad, target_legal = legal.to(dev), pad.to(dev), target_legal.to(dev)

    def step():
        logits, v = net(x)
        if a.legal_gather:
            logp = F.log_softmax(logits.gather(1, legal) + pad, dim=1)
            policy = -(target_legal * logp).sum(dim=1).mean()
        else:
            logp = F.log_softmax(logits + (mask - 1.0) * 1e9, dim=1)
            policy = -(target * logp).sum(dim=1).mean()
        loss = policy + ((v - z) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

    out["train_samples_per_sec_b128"] = rate(a.seconds, step, sync) * b
    if a.json:
        print(json.dumps(out))
    else:
        layout = "channels_last" if a.channels_last else "default layout"
        print(f"PyTorch {torch.__version__}, {a.device}, {cores} threads, {layout}")
        for k, v in out.items():
            print(f"  {k:28} {v:,.1f}" if isinstance(v, float) else f"  {k:28} {v:,}")


if __name__ == "__main__":
    main()
