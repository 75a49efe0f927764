"""A small stand-in for a training job, for the SLURM agent's end-to-end test.

It prints the progress lines a real PyTorch loop prints and fails the way real
jobs fail: an uncorrectable ECC error when the node it runs on has a hardware
fault injected (the file $FAULT_DIR/<node> exists), or a KeyError in the
user's own data handling when --label-key names a missing field.
"""
import argparse
import os
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="resnet50")
parser.add_argument("--dataset", default="imagenet")
parser.add_argument("--max-steps", type=int, default=40)
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--lr", type=float, default=0.1)
parser.add_argument("--label-key", default="label")
parser.add_argument("--step-time", type=float, default=0.15)
args = parser.parse_args()

node = os.environ.get("SLURMD_NODENAME", "localhost")
fault_file = os.path.join(os.environ.get("FAULT_DIR", "/nonexistent"), node)


def gpu_fault():
    print(f"[rank0]: NVRM: Xid (PCI:0000:3b:00): 48, pid={os.getpid()}, DBE (double bit error) ECC error, "
          "page retirement pending", flush=True)
    print("Traceback (most recent call last):", flush=True)
    print('  File "train.py", line 61, in <module>', flush=True)
    print("    loss.backward()", flush=True)
    print("RuntimeError: CUDA error: uncorrectable ECC error encountered", flush=True)
    sys.exit(1)


print(f"Running on {node}, CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES', '')}", flush=True)
print(f"model={args.model} dataset={args.dataset} batch_size={args.batch_size} max_steps={args.max_steps}",
      flush=True)
sample = {"image": [0.0] * 4, "label": 3}
loss = 6.9
for step in range(1, args.max_steps + 1):
    time.sleep(args.step_time)
    if os.path.exists(fault_file):
        gpu_fault()
    target = sample[args.label_key]
    loss = loss * 0.95 + 0.01 * target
    rate = args.batch_size / args.step_time
    print(f"Epoch 1 | step {step}/{args.max_steps} | loss {loss:.4f} | lr {args.lr:.4f} | "
          f"{rate:.1f} samples/s | {args.step_time:.3f} s/step", flush=True)
print("Training finished.", flush=True)
