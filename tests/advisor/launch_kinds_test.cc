// Kinds of launch evidence the extractor reads in code nobody here wrote —
// shell wrappers, launchers, process and device counts — each found among the
// development misses of the real-repository corpus (docs/advisor-real-corpus.md)
// and written here as a small repository. (The other kinds:
// extraction_kinds_test.cc.)
#include <string>

#include <gtest/gtest.h>

#include "advisor/metadata_extractor.h"
#include "advisor/run_values.h"
#include "advisor/temp_repo.h"

namespace schedmate {
namespace {

// Each test's repository, in its own temporary directory.
class Repo : public testing_support::TempRepo {
 public:
  explicit Repo(const std::string& name) : TempRepo("launch_" + name) {}
};

// A repository's own copy of torch.distributed.launch runs the script named
// after its options (here a shell script that runs main.py): the run is that
// script's, with the copy's process count.
TEST(LaunchKinds, RepositoryCopyOfTheDistributedLauncher) {
  Repo r("launcher_copy");
  r.File("tools/launch.py",
         "from argparse import ArgumentParser, REMAINDER\n"
         "def parse_args():\n    parser = ArgumentParser()\n"
         "    parser.add_argument('--nproc_per_node', type=int, default=1)\n"
         "    parser.add_argument('training_script', type=str)\n"
         "    parser.add_argument('training_script_args', nargs=REMAINDER)\n"
         "    return parser.parse_args()\n");
  r.File("configs/r50_exp.sh",
         "#!/usr/bin/env bash\nEXP_DIR=exps/r50\nPY_ARGS=${@:1}\n"
         "python -u main.py --output_dir ${EXP_DIR} ${PY_ARGS}\n");
  r.File("main.py",
         "import argparse\nimport torch\np = argparse.ArgumentParser()\n"
         "p.add_argument('--batch_size', default=2, type=int)\n"
         "p.add_argument('--epochs', default=50, type=int)\n"
         "p.add_argument('--lr', default=2e-4, type=float)\n");
  WorkloadMetadata md =
      r.Extract("python ./tools/launch.py --nnodes 1 --nproc_per_node 8 ./configs/r50_exp.sh --lr 1e-4");
  EXPECT_EQ(md.batch_size, 2);
  EXPECT_EQ(md.training_iterations, 50);
  EXPECT_EQ(md.learning_rate, 1e-4);
  EXPECT_EQ(md.hardware.num_gpus, 8);
}

// A script that only mentions 'training_script' and is handed a file that is
// no training run (a shell step that runs no Python) is not a launcher copy:
// the script itself stays the entry and extraction does not fail.
TEST(LaunchKinds, ALauncherLookAlikeKeepsTheLaunch) {
  Repo r("launcher_lookalike");
  r.File("train.py",
         "import argparse\n# usage: the training_script may be given as 'training_script'\n"
         "p = argparse.ArgumentParser()\n"
         "p.add_argument('step', type=str)\n"
         "p.add_argument('--batch_size', default=16, type=int)\n"
         "p.add_argument('--epochs', default=7, type=int)\n");
  r.File("prep.sh", "#!/usr/bin/env bash\necho preparing\n");
  WorkloadMetadata md = r.Extract("python train.py prep.sh");
  EXPECT_EQ(md.batch_size, 16);
  EXPECT_EQ(md.training_iterations, 7);
}

// A run on TPU cores (`--use_tpu`, on by default or from the command) uses no
// GPUs: the count is unresolved rather than the plain launch's one.
TEST(LaunchKinds, ATpuRunHasNoGpuCount) {
  Repo r("tpu_run");
  r.File("main.py",
         "from absl import flags\nimport tensorflow as tf\n"
         "flags.DEFINE_bool('use_tpu', True, 'Use TPU.')\n"
         "flags.DEFINE_integer('train_batch_size', 4096, 'Batch.')\n"
         "FLAGS = flags.FLAGS\n");
  WorkloadMetadata md = r.Extract("python main.py --mode=train");
  EXPECT_FALSE(md.hardware.num_gpus.has_value());
  md = r.Extract("python main.py --mode=train --use_tpu=False");
  EXPECT_EQ(md.hardware.num_gpus, 1);
}

// A wrapper that finds its own directory with `$(cd `dirname $0`; pwd)` or
// `$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)` names its own config beside
// it, not another recipe's file of the same name.
TEST(LaunchKinds, AWrappersOwnDirectoryThroughCdAndPwd) {
  Repo r("cd_pwd");
  r.File("bins/train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\n");
  r.File("egs/a/exp_config.json", "{\"train\": {\"batch_size\": 8}}\n");
  r.File("egs/b/exp_config.json", "{\"train\": {\"batch_size\": 16}, // the recipe's batch\n}\n");
  r.File("egs/b/run.sh",
         "exp_dir=$(cd `dirname $0`; pwd)\nwork_dir=$(dirname $(dirname $exp_dir))\n"
         "exp_config=\"${exp_dir}\"/exp_config.json\n"
         "accelerate launch \"${work_dir}\"/bins/train.py --config $exp_config\n");
  EXPECT_EQ(r.Extract("sh egs/b/run.sh").batch_size, 16);
  r.File("egs/b/run.sh",
         "HERE=$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\n"
         "python bins/train.py --config $HERE/exp_config.json\n");
  EXPECT_EQ(r.Extract("bash egs/b/run.sh").batch_size, 16);
}

// An Accelerator is HF accelerate's only when the run imports accelerate:
// audiotools and others define a class of that name around a plain loop.
TEST(LaunchKinds, AnAcceleratorFromAnotherLibrary) {
  Repo r("other_accelerator");
  r.File("train.py",
         "import torch\nfrom audiotools.ml import Accelerator\n"
         "def main():\n    accel = Accelerator()\n    model = accel.prepare_model(torch.nn.Linear(2, 2))\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python train.py").framework, "pytorch");
  r.File("train.py",
         "import torch\nfrom accelerate import Accelerator\n"
         "def main():\n    accel = Accelerator()\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python train.py").framework, "accelerate");
  // mmcv's Config for a Python config file beside that Accelerator: still accelerate's loop.
  r.File("configs/base.py", "lr = 1e-4\nbatch_size = 8\n");
  r.File("configs/xl.py", "_base_ = ['base.py']\nmodel = 'XL_2'\n");
  r.File("train.py",
         "import torch\nfrom mmcv import Config\nfrom accelerate import Accelerator\n"
         "def main():\n    cfg = Config.fromfile('configs/xl.py')\n    accel = Accelerator()\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python train.py configs/xl.py").framework, "accelerate");
}

// mp.spawn with nprocs=world_size starts as many processes as the world size
// says (its default 1, or the command's); with nprocs=device_count() it is one
// per visible GPU, unresolved.
TEST(LaunchKinds, SpawnedAsManyAsTheWorldSize) {
  Repo r("spawn_world");
  r.File("train.py",
         "import argparse\nimport torch.multiprocessing as mp\n"
         "def run(rank, world_size, args):\n    pass\n"
         "def main():\n    p = argparse.ArgumentParser()\n    p.add_argument('--world-size', type=int, default=1)\n"
         "    args = p.parse_args()\n    if args.world_size > 1:\n"
         "        mp.spawn(run, args=(args.world_size, args), nprocs=args.world_size, join=True)\n"
         "    else:\n        run(0, 1, args)\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python train.py").hardware.num_gpus, 1);
  EXPECT_EQ(r.Extract("python train.py --world-size 2").hardware.num_gpus, 2);
  r.File("per_gpu.py",
         "import torch\nimport torch.multiprocessing as mp\n"
         "def run(rank):\n    pass\n"
         "def main():\n    mp.spawn(run, nprocs=torch.cuda.device_count())\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_FALSE(r.Extract("python per_gpu.py").hardware.num_gpus.has_value());
}

TEST(LaunchKinds, AWorldSizeTakenFromTheDeviceCountIsOnePerGpu) {
  // The PyTorch DDP tutorial: the file binds world_size to device_count(), so
  // nprocs=world_size is one process per visible GPU (unresolved), not 1.
  Repo r("spawn_device_count");
  r.File("train.py",
         "import torch\nimport torch.multiprocessing as mp\n"
         "def train(rank, world_size):\n    pass\n"
         "if __name__ == '__main__':\n    world_size = torch.cuda.device_count()\n"
         "    mp.spawn(train, args=(world_size,), nprocs=world_size, join=True)\n");
  EXPECT_FALSE(r.Extract("python train.py").hardware.num_gpus.has_value());
  r.File("args.py",
         "import argparse\nimport torch\nimport torch.multiprocessing as mp\n"
         "def main_worker(rank, args):\n    pass\n"
         "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
         "    parser.add_argument('--world_size', type=int, default=1)\n"
         "    args = parser.parse_args()\n    args.world_size = torch.cuda.device_count()\n"
         "    mp.spawn(main_worker, nprocs=args.world_size, args=(args,))\n");
  EXPECT_FALSE(r.Extract("python args.py").hardware.num_gpus.has_value());
}

TEST(LaunchKinds, DeviceIdRanges) {
  Repo r("spawn_ranges");
  // A range of device ids.
  EXPECT_EQ(DeviceCount("0-3"), 4);
  EXPECT_EQ(DeviceCount("0,2-3"), 3);
  EXPECT_FALSE(DeviceCount("3-0").has_value());
  r.File("seg.py",
         "import argparse\np = argparse.ArgumentParser()\np.add_argument('--gpus', default='0-3')\n"
         "p.add_argument('--num_epoch', default=20)\n");
  EXPECT_EQ(r.Extract("python seg.py").hardware.num_gpus, 4);
  // An nargs='+' device list on a plain python command: all its ids, on this
  // machine (a config's node count for another launcher does not multiply it).
  r.File("app/main.py",
         "import argparse\np = argparse.ArgumentParser()\np.add_argument('--fname', type=str)\n"
         "p.add_argument('--devices', type=str, nargs='+', default=['cuda:0'])\n");
  r.File("configs/pretrain.yaml", "nodes: 16\ntasks_per_node: 8\noptimization:\n  epochs: 300\n");
  WorkloadMetadata md = r.Extract("python -m app.main --fname configs/pretrain.yaml --devices cuda:0 cuda:1 cuda:2");
  EXPECT_EQ(md.hardware.num_gpus, 3);
  EXPECT_EQ(md.hardware.num_nodes, 1);
}

// A device list with a node count on the same command (--gpus 0,1
// --num_nodes 2) is per node: 4 GPUs on 2 nodes.
TEST(LaunchKinds, ADeviceListIsPerNodeWhenTheCommandCountsNodes) {
  Repo r("gpus_per_node");
  r.File("train.py",
         "import argparse\nimport pytorch_lightning as pl\np = argparse.ArgumentParser()\n"
         "p.add_argument('--gpus', type=str, default='0')\np.add_argument('--num_nodes', type=int, default=1)\n"
         "a = p.parse_args()\ntrainer = pl.Trainer(gpus=a.gpus, num_nodes=a.num_nodes, max_epochs=10)\n");
  WorkloadMetadata md = r.Extract("python train.py --gpus 0,1 --num_nodes 2");
  EXPECT_EQ(md.hardware.num_gpus, 4);
  EXPECT_EQ(md.hardware.num_nodes, 2);
  EXPECT_EQ(r.Extract("python train.py --gpus 0,1").hardware.num_gpus, 2);
}

// `srun … bash -c '$LAUNCHER $CMD'`: the inner shell runs the string with the
// exported variables; a plain helper run before it (a data-ratio file) is not
// the run. When the script it launches lives outside the repository (the
// wrapper cds into another checkout), the command line it builds still counts.
TEST(LaunchKinds, AShellStringLaunchAfterAHelper) {
  Repo r("bash_c");
  r.File("tools/make_ratios.py", "print('ratios')\n");
  r.File("train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr', type=float)\n"
                     "p.add_argument('--batch-size', type=int)\nargs = p.parse_args()\n");
  r.File("run.slurm",
         "#!/bin/bash\n#SBATCH --nodes=2\n"
         "python tools/make_ratios.py --out ratios.txt\n"
         "export LAUNCHER=\"python -u -m torch.distributed.launch --nproc_per_node 4 --nnodes 2\"\n"
         "export CMD=\"train.py --lr 0.25 --batch-size 8\"\n"
         "srun --jobid $SLURM_JOBID bash -c '$LAUNCHER --node_rank $SLURM_PROCID $CMD' 2>&1 | tee log.txt\n");
  WorkloadMetadata md = r.Extract("sbatch run.slurm");
  EXPECT_EQ(md.learning_rate, 0.25);
  EXPECT_EQ(md.batch_size, 8);
  EXPECT_EQ(md.hardware.num_gpus, 8);
  r.File("ext.slurm",
         "#!/bin/bash\nEXT=$HOME/Megatron-DeepSpeed\ncd $EXT\n"
         "ARGS=\" \\\n    --micro-batch-size 2 \\\n    --lr 3e-4 \\\n    --train-iters 500 \\\n    --bf16\n    \"\n"
         "srun bash -c \"python $EXT/pretrain_gpt.py $ARGS --node_rank \\$SLURM_PROCID\"\n");
  md = r.Extract("sbatch ext.slurm");
  EXPECT_EQ(md.learning_rate, 3e-4);
  EXPECT_EQ(md.batch_size, 2);
  EXPECT_EQ(md.training_iterations, 500);
  EXPECT_EQ(md.precision, "bf16");
}

// ARGS=" --a 1 ⏎ --b 2 ⏎ ": a value written over several lines, some without
// a backslash, goes on to its closing quote.
TEST(LaunchKinds, AQuotedValueOverSeveralLines) {
  Repo r("multiline_value");
  r.File("train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr', type=float)\n"
                     "p.add_argument('--batch-size', type=int)\nargs = p.parse_args()\n");
  r.File("run.sh", "OPTS=\"\n    --lr 0.125 \\\n    --batch-size 16\n    \"\n# don't read this as a quote\n"
                   "python train.py $OPTS\n");
  WorkloadMetadata md = r.Extract("bash run.sh");
  EXPECT_EQ(md.learning_rate, 0.125);
  EXPECT_EQ(md.batch_size, 16);
}

// A Lightning Trainer's devices: "auto" is every visible GPU (no count), a
// number is the count; another call's `devices=` is where tensors go.
TEST(LaunchKinds, ALightningTrainersDevices) {
  Repo r("trainer_devices");
  r.File("auto.py", "import pytorch_lightning as pl\ndef main():\n    trainer = pl.Trainer(devices='auto', max_epochs=10)\n"
                    "    trainer.fit(model)\nif __name__ == '__main__':\n    main()\n");
  WorkloadMetadata md = r.Extract("python auto.py");
  EXPECT_FALSE(md.hardware.num_gpus.has_value());
  r.File("two.py", "import lightning as L\ntrainer = L.Trainer(devices=2, max_epochs=10)\ntrainer.fit(model)\n");
  EXPECT_EQ(r.Extract("python two.py").hardware.num_gpus, 2);
  r.File("tensor.py", "import torch\nx = torch.zeros(4, devices=3)\nmodel = torch.nn.Linear(2, 2)\n");
  EXPECT_EQ(r.Extract("python tensor.py").hardware.num_gpus, 1);
}

// A comment line ends at its newline even when it ends in a backslash
// (`#    --universal-checkpoint \`): the assignment after it is read.
TEST(LaunchKinds, ACommentEndingInABackslashJoinsNothing) {
  Repo r("comment_backslash");
  r.File("train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr', type=float)\n"
                     "args = p.parse_args()\n");
  r.File("run.sh", "#    --old-flag \\\nARGS=\"--lr 0.375\"\npython train.py $ARGS\n");
  EXPECT_EQ(r.Extract("bash run.sh").learning_rate, 0.375);
}

// A python run followed by a notification script or a post-training step
// under torchrun: the python run given training settings is the run.
TEST(LaunchKinds, APythonRunBeforeAPostStepIsTheRun) {
  Repo r("run_then_post_step");
  r.File("main.py", "import argparse\nfrom torchvision import models\np = argparse.ArgumentParser()\n"
                    "p.add_argument('--epochs', type=int, default=30)\n"
                    "p.add_argument('--batch_size', type=int, default=128)\nargs = p.parse_args()\n"
                    "model = models.resnet18()\n");
  r.File("notify.sh", "curl -d done \"$HOOK\"\n");
  r.File("post.py", "import torch\n");
  r.File("run.sh", "#!/bin/bash\npython main.py --epochs 120 --batch_size 512\nbash notify.sh\n");
  WorkloadMetadata md = r.Extract("bash run.sh");
  EXPECT_EQ(md.training_iterations, 120);
  EXPECT_EQ(md.batch_size, 512);
  r.File("run2.sh", "#!/bin/bash\npython main.py\nbash notify.sh\n");
  EXPECT_EQ(r.Extract("bash run2.sh").training_iterations, 30);
  r.File("run3.sh",
         "#!/bin/bash\npython main.py --epochs 120 --batch_size 512\ntorchrun --nproc_per_node 8 post.py --ckpt out/last.pth\n");
  md = r.Extract("bash run3.sh");
  EXPECT_EQ(md.training_iterations, 120);
  EXPECT_EQ(md.hardware.num_gpus, 1);
  // Without options: a later launch that only reads the run's checkpoint is no run.
  r.File("run4.sh", "#!/bin/bash\npython main.py\ntorchrun --nproc_per_node 8 post.py --ckpt out/last.pth\n");
  md = r.Extract("bash run4.sh");
  EXPECT_EQ(md.training_iterations, 30);
  EXPECT_EQ(md.hardware.num_gpus, 1);
}

// A double quote inside single quotes or inside `$(…)`, or in a trailing
// comment, leaves no assignment open: the lines after it are read.
TEST(LaunchKinds, QuotesCountedAsTheShellReadsThem) {
  Repo r("quotes_as_shell");
  r.File("main.py", "import argparse\np = argparse.ArgumentParser()\n"
                    "p.add_argument('--epochs', type=int, default=30)\n"
                    "p.add_argument('--batch_size', type=int, default=128)\nargs = p.parse_args()\n");
  r.File("run.sh", "#!/bin/bash\nNAME=\"$(jq .name run.json | tr -d '\"')\"\n"
                   "python main.py --epochs 120 --batch_size 512\n");
  EXPECT_EQ(r.Extract("bash run.sh").training_iterations, 120);
  r.File("run2.sh", "#!/bin/bash\nMODEL=\"gpt2-medium\"  # try \"gpt2-large\nBS=64\n"
                    "python main.py --epochs 7 --batch_size $BS\n");
  WorkloadMetadata md = r.Extract("bash run2.sh");
  EXPECT_EQ(md.training_iterations, 7);
  EXPECT_EQ(md.batch_size, 64);
  r.File("run3.sh", "#!/bin/bash\nARGS=\"--epochs 9\n  --batch_size 32\n\"\npython main.py $ARGS\n");
  EXPECT_EQ(r.Extract("bash run3.sh").batch_size, 32);
}

// The devices of the Trainer that fits are the run's; a Trainer that only
// tests or tunes (a one-GPU test pass, an lr_find tuner) is not.
TEST(LaunchKinds, ATestOrTunerTrainersDevicesAreNotTheRuns) {
  Repo r("trainer_test_devices");
  r.File("train.py", "import argparse\nimport lightning as L\np = argparse.ArgumentParser()\n"
                     "p.add_argument('--gpus', type=int, default=8)\nargs = p.parse_args()\n"
                     "trainer = L.Trainer(accelerator='gpu', devices=args.gpus, strategy='ddp', max_epochs=20)\n"
                     "trainer.fit(model, loader)\n"
                     "L.Trainer(accelerator='gpu', devices=1).test(model, loader)\n");
  EXPECT_EQ(r.Extract("python train.py").hardware.num_gpus, 8);
  r.File("tune.py", "import lightning as L\n"
                    "trainer = L.Trainer(devices=4)\n"
                    "tuner_trainer = L.Trainer(devices=1)\nL.pytorch.tuner.Tuner(tuner_trainer).lr_find(model)\n"
                    "trainer.fit(model)\n");
  EXPECT_EQ(r.Extract("python tune.py").hardware.num_gpus, 4);
}

// Assignments leading a `bash -c` string apply after the outer script's.
TEST(LaunchKinds, AssignmentsInsideAShellStringApplyLast) {
  Repo r("bash_c_assign");
  r.File("main.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr', type=float, default=0.1)\n"
                    "p.add_argument('--epochs', type=int, default=30)\nargs = p.parse_args()\n");
  r.File("run.sh", "#!/bin/bash\nLR=0.4\nsrun bash -c 'LR=0.05; python main.py --lr $LR'\n");
  EXPECT_EQ(r.Extract("bash run.sh").learning_rate, 0.05);
  r.File("run2.sh", "#!/bin/bash\nLR=0.4\nsrun bash -c 'python main.py --lr $LR'\n");
  EXPECT_EQ(r.Extract("bash run2.sh").learning_rate, 0.4);
}

}  // namespace
}  // namespace schedmate
