// Launch commands as users write them.
#include <gtest/gtest.h>

#include "advisor/launch_command.h"
#include "advisor/shell_script.h"

namespace schedmate {
namespace {

TEST(LaunchCommand, Launchers) {
  auto t = ParseLaunchCommand("CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node=8 --nnodes 2 train.py "
                              "--config configs/gpt.yaml --lr 3e-4 --warmup -0.5 --bf16");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->launcher, "torchrun");
  EXPECT_EQ(t->entry, "train.py");
  EXPECT_EQ(t->nproc_per_node, 8);
  EXPECT_EQ(t->nnodes, 2);
  EXPECT_EQ(t->config_file, "configs/gpt.yaml");
  EXPECT_EQ(*t->Override("lr"), "3e-4");
  EXPECT_EQ(*t->Override("warmup"), "-0.5");
  EXPECT_EQ(*t->Override("bf16"), "true");
  EXPECT_EQ(t->env[0].first, "CUDA_VISIBLE_DEVICES");

  auto m = ParseLaunchCommand("python -u -m pkg.train experiment=pile/gpt model.d_model=1024 +trainer.max_steps=5000");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->entry_kind, LaunchSpec::Entry::kModule);
  EXPECT_EQ(m->entry, "pkg.train");
  EXPECT_EQ(*m->Override("experiment"), "pile/gpt");
  EXPECT_EQ(*m->Override("trainer.max_steps"), "5000");

  auto d = ParseLaunchCommand("deepspeed --num_gpus 4 --master_port 29501 pretrain.py --deepspeed ds.json");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->launcher, "deepspeed");
  EXPECT_EQ(d->nproc_per_node, 4);
  EXPECT_EQ(*d->Override("deepspeed"), "ds.json");

  auto a = ParseLaunchCommand("accelerate launch --config_file acc.yaml --num_processes 8 ./scripts/sft.py --epochs=3");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->launcher, "accelerate");
  EXPECT_EQ(a->entry, "scripts/sft.py");
  EXPECT_EQ(a->launcher_config, "acc.yaml");
  EXPECT_EQ(a->nproc_per_node, 8);

  auto py = ParseLaunchCommand("python -m torch.distributed.launch --nproc_per_node 2 main.py --batch-size 64");
  ASSERT_TRUE(py.ok());
  EXPECT_EQ(py->launcher, "torchrun");
  EXPECT_EQ(py->entry, "main.py");
  EXPECT_EQ(*py->Override("batch_size"), "64");

  auto srun = ParseLaunchCommand("srun --ntasks-per-node=8 -N 4 python train.py");
  ASSERT_TRUE(srun.ok());
  EXPECT_EQ(srun->launcher, "srun");
  EXPECT_EQ(srun->nnodes, 4);
  EXPECT_EQ(srun->nproc_per_node, 8);

  auto sh = ParseLaunchCommand("cd /work && bash scripts/run.sh 8");
  ASSERT_TRUE(sh.ok());
  EXPECT_EQ(sh->entry_kind, LaunchSpec::Entry::kShell);
  EXPECT_EQ(sh->entry, "scripts/run.sh");
}

TEST(LaunchCommand, QuotingErrorsAndShellScripts) {
  auto q = ParseLaunchCommand("python train.py --run_name 'my run' --note \"a \\\"quoted\\\" word\"");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(*q->Override("run_name"), "my run");
  EXPECT_EQ(*q->Override("note"), "a \"quoted\" word");
  // "$@" expands to one word per argument, and to none without arguments:
  // `--fp16 "$@"` is the flag alone, not --fp16 "".
  EXPECT_EQ(ExpandShellVars("python train.py --fp16 \"$@\"", {}, {}), "python train.py --fp16 ");
  EXPECT_EQ(ExpandShellVars("train.py --fp16 \"${@}\"", {}, {"--lr", "1e-4"}), "train.py --fp16 \"--lr\" \"1e-4\"");
  auto fwd = FindShellLaunch("python train.py --lr 3e-5 --fp16 \\\n    \"$@\"\n", {});
  ASSERT_TRUE(fwd.has_value());
  auto fwd_spec = ParseLaunchCommand(fwd->line);
  ASSERT_TRUE(fwd_spec.ok());
  EXPECT_EQ(*fwd_spec->Override("fp16"), "true");
  // An unquoted bracketed placeholder is one argument, not six.
  auto ph = ParseLaunchCommand("python main.py -a resnet50 --pretrained [your checkpoint path]/last.pth "
                               "[your imagenet-folder with train and val folders] --lr 0.1");
  ASSERT_TRUE(ph.ok());
  ASSERT_EQ(ph->positional.size(), 1u);
  EXPECT_EQ(ph->positional[0], "[your imagenet-folder with train and val folders]");
  EXPECT_EQ(*ph->Override("lr"), "0.1");
  EXPECT_EQ(*ph->Override("pretrained"), "[your checkpoint path]/last.pth");
  auto list = ParseLaunchCommand("python main.py [1,2] [a b");  // closed lists and unclosed brackets stay as they are
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->positional.size(), 3u);
  EXPECT_FALSE(ParseLaunchCommand("python train.py 'unterminated").ok());
  EXPECT_FALSE(ParseLaunchCommand("rm -rf /").ok());
  EXPECT_FALSE(ParseLaunchCommand("").ok());
  auto line = FindShellLaunch(
      "#!/bin/bash\nset -e\n# torchrun old.py\nexport NCCL_DEBUG=INFO\ntorchrun --nproc_per_node=$NGPU \\\n"
      "    train.py \\\n    --lr 1e-4\necho done\n", {});
  ASSERT_TRUE(line.has_value());
  auto spec = ParseLaunchCommand(line->line);
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->entry, "train.py");
  EXPECT_EQ(*spec->Override("lr"), "1e-4");
}

// argparse's single-dash long options (-lr 0.1, -O2) are options, not
// positional words; a negative number stays a value.
TEST(LaunchCommand, SingleDashLongOptions) {
  auto t = ParseLaunchCommand("python main.py data/imagenet -lr 0.1 -bs 256 -O2 --shift -1 -e -5");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(*t->Override("lr"), "0.1");
  EXPECT_EQ(*t->Override("bs"), "256");
  EXPECT_EQ(*t->Override("O2"), "true");
  EXPECT_EQ(*t->Override("shift"), "-1");
  EXPECT_EQ(*t->Override("e"), "-5");
  ASSERT_EQ(t->positional.size(), 1u);
  EXPECT_EQ(t->positional[0], "data/imagenet");
}

}  // namespace
}  // namespace schedmate
