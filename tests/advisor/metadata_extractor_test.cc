// The embedded extractor on small repositories in the styles users write:
// HF Trainer with argparse and CLI overrides, Hydra with config groups and
// an experiment override, a shell wrapper with a YAML config, defaults in an
// imported dataclass.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "advisor/metadata_extractor.h"
#include "repo/snapshot.h"
#include "advisor/temp_repo.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

using Repo = testing_support::TempRepo;

TEST(MetadataExtractor, HfTrainerArgparseAndOverrides) {
  Repo r("hf");
  r.File("train.py", R"(import argparse
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments
from datasets import load_dataset

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model_name_or_path", default="meta-llama/Meta-Llama-3-8B")
    p.add_argument("--batch_size", type=int, default=8)
    p.add_argument("--max_steps", type=int, default=1000)
    p.add_argument("--lr", type=float, default=2e-5)
    args = p.parse_args()
    tok = AutoTokenizer.from_pretrained("some/tokenizer")
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    ds = load_dataset("tatsu-lab/alpaca")
    targs = TrainingArguments(output_dir="out", per_device_train_batch_size=args.batch_size,
                              max_steps=args.max_steps, learning_rate=args.lr, bf16=True)
    from peft import LoraConfig, get_peft_model
    model = get_peft_model(model, LoraConfig(r=8))
)");
  WorkloadMetadata md = r.Extract("torchrun --nproc_per_node 8 --nnodes 2 train.py --max_steps 5000 --batch_size 16");
  EXPECT_EQ(md.model_name, "meta-llama/Meta-Llama-3-8B");
  EXPECT_EQ(md.model_type, "llm-sft");
  EXPECT_EQ(md.dataset, "tatsu-lab/alpaca");
  EXPECT_EQ(md.training_iterations, 5000);
  EXPECT_EQ(md.iteration_type, "step");
  EXPECT_EQ(md.batch_size, 16);
  EXPECT_DOUBLE_EQ(*md.learning_rate, 2e-5);
  EXPECT_EQ(md.hardware.num_gpus, 16);
  EXPECT_EQ(md.precision, "bf16");
  EXPECT_EQ(md.framework, "transformers");
  EXPECT_EQ(md.launcher, "torchrun");
  const FieldSource* bs = r.Source(md, "batch_size");
  ASSERT_NE(bs, nullptr);
  EXPECT_EQ(bs->file, "<command>");
  const FieldSource* model = r.Source(md, "model_name");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->file, "train.py");
  EXPECT_EQ(model->line, 7);
}

TEST(MetadataExtractor, HydraGroupsAndExperimentOverride) {
  Repo r("hydra");
  r.File("src/pkg/train.py", R"(import hydra
import torch
@hydra.main(config_path="../../conf", config_name="config", version_base=None)
def main(cfg):
    pass
)")
      .File("conf/config.yaml", "defaults:\n  - model: gpt2-small\n  - data: pile\n  - _self_\ntrainer:\n  max_steps: 10000\nbatch_size: 32\n")
      .File("conf/model/gpt2-small.yaml", "name: gpt2-small\nd_model: 768\nn_layer: 12\nblock_size: 1024\n")
      .File("conf/model/gpt2-large.yaml", "name: gpt2-large\nd_model: 1280\nn_layer: 36\n")
      .File("conf/data/pile.yaml", "name: the_pile\nnum_workers: 8\n")
      .File("conf/experiment/big.yaml", "# @package _global_\nmodel:\n  d_model: 2048\nbatch_size: 64\n");
  WorkloadMetadata md = r.Extract("python -m pkg.train experiment=big trainer.max_steps=20000");
  EXPECT_EQ(md.model_name, "gpt2-small");
  EXPECT_EQ(md.model_type, "llm-pretrain");
  EXPECT_EQ(md.dataset, "the_pile");
  EXPECT_EQ(md.training_iterations, 20000);
  EXPECT_EQ(md.d_model, 2048);
  EXPECT_EQ(md.num_layers, 12);
  EXPECT_EQ(md.seq_len, 1024);
  EXPECT_EQ(md.batch_size, 64);
  EXPECT_EQ(md.num_workers, 8);
  EXPECT_EQ(md.framework, "pytorch");
}

TEST(MetadataExtractor, ShellWrapperYamlAndImportedDefaults) {
  Repo r("wrap");
  r.File("scripts/run.sh", "#!/bin/bash\nset -e\nexport OMP_NUM_THREADS=8\npython train.py \\\n  --config configs/resnet.yaml\n")
      .File("train.py", "import lightning as L\nimport timm\nfrom settings import TrainConfig\nmodel = timm.create_model(cfg.arch)\n"
                        "trainer = L.Trainer()\n")
      .File("settings.py", "from dataclasses import dataclass\n@dataclass\nclass TrainConfig:\n    batch_size: int = 128\n    lr: float = 0.1\n    num_workers: int = 16\n")
      .File("configs/resnet.yaml", "model:\n  arch: resnet50\ndata:\n  dataset: imagenet-1k\ntrainer:\n  max_epochs: 90\n  devices: 4\nbatch_size: 256\n");
  WorkloadMetadata md = r.Extract("bash scripts/run.sh");
  EXPECT_EQ(md.model_name, "resnet50");
  EXPECT_EQ(md.model_type, "image-classification");
  EXPECT_EQ(md.dataset, "imagenet-1k");
  EXPECT_EQ(md.training_iterations, 90);
  EXPECT_EQ(md.iteration_type, "epoch");
  EXPECT_EQ(md.batch_size, 256);           // config over the imported default
  EXPECT_DOUBLE_EQ(*md.learning_rate, 0.1);  // only the imported default names it
  EXPECT_EQ(md.num_workers, 16);
  EXPECT_EQ(md.hardware.num_gpus, 4);
  EXPECT_EQ(md.framework, "lightning");
  EXPECT_EQ(md.launcher, "python");
}

TEST(MetadataExtractor, FailsCleanlyWithoutAnEntryPoint) {
  Repo r("none");
  r.File("README.md", "nothing here\n");
  auto snap = OpenDirectorySnapshot(testing::TempDir() + "/none" + std::to_string(getpid()));
  ASSERT_TRUE(snap.ok());
  EXPECT_FALSE(ExtractMetadata(**snap, "python train.py").ok());
  EXPECT_FALSE(ExtractMetadata(**snap, "make all").ok());
}

TEST(MetadataExtractor, BareDoubleDashAfterAListOption) {
  // Regression: `--` after an nargs='+' option threw std::out_of_range.
  Repo r("dashes");
  r.File("train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--methods', nargs='+')\n"
                     "p.add_argument('data')\n");
  WorkloadMetadata md = r.Extract("python train.py --methods a b -- /data/cifar10");
  EXPECT_EQ(md.launcher, "python");
}

TEST(MetadataExtractor, RegistryEntriesConfigClassesAndExternalClis) {
  // --hparams_set names a registered function; its literals are the run's.
  Repo r("registry");
  r.File("setup.py", "setup(scripts=['pkg/bin/trainer'])\n")
      .File("pkg/bin/trainer", "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
                              "p.add_argument('--hparams_set')\np.add_argument('--problem')\n")
      .File("pkg/models/net.py", "def base():\n  hparams.batch_size = 4096\n\n"
                                 "def net_small():\n  hparams = base()\n  hparams.batch_size = 1024\n  hparams.learning_rate = 0.2\n");
  WorkloadMetadata md = r.Extract("P=translate_x; trainer --problem=$P --hparams_set=net_small");
  EXPECT_EQ(md.batch_size, 1024);
  EXPECT_DOUBLE_EQ(*md.learning_rate, 0.2);
  EXPECT_EQ(md.dataset, "translate_x");
  EXPECT_EQ(md.framework, "tensorflow");
  EXPECT_EQ(md.hardware.num_gpus, 1);  // TensorFlow without a distribution strategy
  // A config class: constructor defaults are the run's, later conditional bindings are not.
  Repo c("config-class");
  c.File("run.py", "from configure import Config\nimport torch\ncfg = Config()\n")
      .File("configure.py", "class Config:\n  def __init__(self, debug=False):\n    self.train_batch_size = 128\n"
                            "    self.num_train_steps = 100000\n    if debug:\n      self.train_batch_size = 8\n");
  WorkloadMetadata cm = c.Extract("python run.py");
  EXPECT_EQ(cm.batch_size, 128);
  EXPECT_EQ(cm.training_iterations, 100000);
  // A CLI installed from elsewhere: the config it names is still read.
  Repo e("external");
  e.File("configs/run.yaml", "trainer:\n  max_epochs: 7\ndata:\n  batch_size: 16\n");
  WorkloadMetadata em = e.Extract("somecli train configs/run.yaml");
  EXPECT_EQ(em.training_iterations, 7);
  EXPECT_EQ(em.batch_size, 16);
}

TEST(MetadataExtractor, SourcedConfigsEvalAndExportedVariables) {
  // A launcher script sources the config script it is given and evals a command string.
  Repo r("sourced");
  r.File("scripts/pretrain.sh", "#!/bin/bash\nNUM_GPUS=8\nPORT=$(shuf -n 1 -i 10000-65535)\nsource $1\n"
                                "run_cmd=\"deepspeed --master_port ${PORT} --num_gpus ${NUM_GPUS} pretrain.py ${opts}\"\n"
                                "eval ${run_cmd}\n")
      .File("config/large.sh", "opts=\"--batch-size 16 --train-iters 1000 --lr 0.0001\"\n")
      .File("pretrain.py", "import deepspeed\n")
      .File("run.sh", "source path.sh\n./local/train.sh\n")
      .File("path.sh", "export BIN_DIR=tools/bin\n")
      .File("local/train.sh", "python3 ${BIN_DIR}/train.py --epochs 3\n")
      .File("tools/bin/train.py", "import torch\n");
  WorkloadMetadata md = r.Extract("bash scripts/pretrain.sh config/large.sh");
  EXPECT_EQ(md.hardware.num_gpus, 8);
  EXPECT_EQ(md.batch_size, 16);
  EXPECT_EQ(md.training_iterations, 1000);
  EXPECT_DOUBLE_EQ(*md.learning_rate, 1e-4);
  WorkloadMetadata nested = r.Extract("bash run.sh");
  EXPECT_EQ(nested.training_iterations, 3);  // BIN_DIR from path.sh reached the nested script
}

TEST(MetadataExtractor, PlaceholderNamesStayNullWithTheirReason) {
  // The command's placeholder hides the code's default, and the reason says so.
  Repo r("placeholder");
  r.File("train.py", "import argparse\nimport torch\np = argparse.ArgumentParser()\n"
                     "p.add_argument('--data_path', default='data/cifar10')\n");
  WorkloadMetadata md = r.Extract("python train.py --data_path /path/to/data");
  EXPECT_FALSE(md.dataset.has_value());
  std::string why;
  for (const auto& [field, reason] : md.unresolved)
    if (field == "dataset") why = reason;
  EXPECT_NE(why.find("placeholder"), std::string::npos) << why;
}

// Mixed precision switched by a setting is as on as the setting; an
// autocast(enabled=False) turns nothing on; a device check is on with a GPU.
TEST(MetadataExtractor, MixedPrecisionFollowsItsSwitch) {
  Repo r("amp");
  r.File("config.py", "from yacs.config import CfgNode\n_C = CfgNode()\n_C.TRAIN = CfgNode()\n_C.TRAIN.MIXED_PRECISION = False\n");
  r.File("train.py", R"(import torch
from torch.cuda import amp
from config import _C as cfg

def loss_fn(x):
    with amp.autocast(enabled=False):
        return x.float()

def train(model, x):
    scaler = amp.GradScaler(enabled=cfg.TRAIN.MIXED_PRECISION)
    with amp.autocast(enabled=cfg.TRAIN.MIXED_PRECISION):
        y = model(x)

if __name__ == "__main__":
    train(None, None)
)");
  EXPECT_EQ(r.Extract("python train.py").precision, "fp32");
  EXPECT_EQ(r.Extract("python train.py TRAIN.MIXED_PRECISION True").precision, "fp16");
  Repo d("ampdev");
  d.File("train.py", "import torch\nfrom torch.cuda import amp\n\ndef step(model, x, device):\n"
                     "    with amp.autocast(enabled=device.type != 'cpu'):\n        return model(x)\n");
  EXPECT_EQ(d.Extract("python train.py").precision, "fp16");
  Repo u("ampunknown");
  u.File("train.py", "import torch\n\ndef step(model, x, opts):\n    with torch.autocast('cuda', enabled=opts.use_amp_flag):\n"
                     "        return model(x)\n");
  WorkloadMetadata md = u.Extract("python train.py");
  EXPECT_FALSE(md.precision.has_value());
  EXPECT_TRUE(std::any_of(md.unresolved.begin(), md.unresolved.end(), [](const auto& u) { return u.first == "precision"; }));
}

// `fabric run` launches a Fabric loop even when no import of lightning is
// to be seen (the Fabric class is looked up at run time).
TEST(MetadataExtractor, FabricLauncherRunsALightningLoop) {
  Repo r("fabric");
  r.File("lib/runner.py", "import importlib\n\ndef make_runner(name):\n    return getattr(importlib.import_module(name), 'Fabric')()\n");
  r.File("train.py", "import torch\nfrom lib.runner import make_runner\n\ndef main():\n    runner = make_runner('lightning')\n"
                     "    model = torch.nn.Linear(2, 2)\n\nif __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("fabric run --accelerator=gpu --devices=2 train.py").framework, "lightning");
  EXPECT_EQ(r.Extract("lightning run model train.py").framework, "lightning");
}

// A config's world_size is a default the launcher's WORLD_SIZE replaces:
// with torchrun's count a placeholder, the GPU count is unknown, not 1.
TEST(MetadataExtractor, PlaceholderProcessCountHidesAConfigsWorldSize) {
  Repo r("worldsize");
  r.File("cfg.yaml", "run:\n  world_size: 1\n  dist_url: env://\n  lr: 0.001\n");
  r.File("train.py", "import argparse\nimport torch\n\ndef main():\n    p = argparse.ArgumentParser()\n"
                     "    p.add_argument('--cfg-path')\n    args = p.parse_args()\n\nif __name__ == '__main__':\n    main()\n");
  EXPECT_FALSE(r.Extract("torchrun --nproc-per-node NUM_GPU train.py --cfg-path cfg.yaml").hardware.num_gpus.has_value());
  EXPECT_EQ(r.Extract("torchrun --nproc-per-node 4 train.py --cfg-path cfg.yaml").hardware.num_gpus, 4);
  EXPECT_EQ(r.Extract("python train.py --cfg-path cfg.yaml").hardware.num_gpus, 1);
}

// ml_collections configs inherit by importing their base as a submodule
// (`from pkg.configs import base_config`; no __init__.py): its settings are
// read first, and the derived config's own assignments win.
TEST(MetadataExtractor, PythonConfigInheritsAnImportedBaseSubmodule) {
  Repo r("mlcbase");
  r.File("proj/configs/base_config.py", "import ml_collections\n\ndef get_config():\n"
                                        "    config = ml_collections.ConfigDict()\n    config.num_train_steps = 5000\n"
                                        "    config.batch_size = 32\n    config.learning_rate = 0.05\n    return config\n");
  r.File("proj/configs/small.py", "from proj.configs import base_config\n\ndef get_config():\n"
                                  "    config = base_config.get_config()\n    config.learning_rate = 0.01\n    return config\n");
  r.File("proj/train.py", "from absl import app\nfrom ml_collections import config_flags\nimport jax\n\n"
                          "_CONFIG = config_flags.DEFINE_config_file('config')\n\ndef main(argv):\n    config = _CONFIG.value\n\n"
                          "if __name__ == '__main__':\n    app.run(main)\n");
  WorkloadMetadata md = r.Extract("python proj/train.py --config=proj/configs/small.py");
  EXPECT_EQ(md.training_iterations, 5000);
  EXPECT_EQ(md.iteration_type, "step");
  EXPECT_EQ(md.batch_size, 32);
  EXPECT_EQ(md.learning_rate, 0.01);
}

// `epoch=1` passed to a call is where the loop starts, not its budget; a
// `max_epoch` setting is.
TEST(MetadataExtractor, ACallsEpochArgumentIsNoBudget) {
  Repo r("epocharg");
  r.File("train.py", "import argparse\nimport torch\n\ndef main():\n    p = argparse.ArgumentParser()\n"
                     "    p.add_argument('--max-epoch', type=int, default=0)\n    args = p.parse_args()\n"
                     "    itr = trainer.get_train_iterator(epoch=1, load_dataset=True)\n\n"
                     "if __name__ == '__main__':\n    main()\n");
  EXPECT_FALSE(r.Extract("python train.py").training_iterations.has_value());
  EXPECT_EQ(r.Extract("python train.py --max-epoch 30").training_iterations, 30);
}

// A hand-written loop on ColossalAI's Booster runs on its engine: "other",
// not a plain PyTorch loop.
TEST(MetadataExtractor, ColossalAiBoosterLoopIsNotPlainPytorch) {
  Repo r("colossal");
  r.File("train.py", "import torch\nfrom colossalai.booster import Booster\n\ndef main():\n"
                     "    booster = Booster(plugin=None)\n    model, opt, *_ = booster.boost(torch.nn.Linear(2, 2), None)\n\n"
                     "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("torchrun --nproc_per_node 8 train.py").framework, "other");
  Repo p("plaintorch");
  p.File("train.py", "import torch\n\ndef main():\n    model = torch.nn.Linear(2, 2)\n\nif __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(p.Extract("torchrun --nproc_per_node 8 train.py").framework, "pytorch");
}

// LightningCLI configures the classes it is given, also when they are defined
// in the same file above the call: their constructor defaults are settings.
TEST(MetadataExtractor, LightningCliReadsClassesDefinedBesideIt) {
  Repo r("lcli");
  r.File("cli.py", R"(from lightning.pytorch import LightningModule, LightningDataModule
from lightning.pytorch.cli import LightningCLI

class LitModel(LightningModule):
    def __init__(self, hidden: int = 64, learning_rate: float = 0.0003):
        super().__init__()

class Data(LightningDataModule):
    def __init__(self, batch_size: int = 48):
        super().__init__()

def cli_main():
    cli = LightningCLI(LitModel, Data)

if __name__ == "__main__":
    cli_main()
)");
  WorkloadMetadata md = r.Extract("python cli.py fit --trainer.devices 2");
  EXPECT_EQ(md.batch_size, 48);
  EXPECT_EQ(md.learning_rate, 0.0003);
  EXPECT_EQ(r.Extract("python cli.py fit --data.batch_size 16").batch_size, 16);
}

// One part's rate is the run's when it is the only rate; parts that train
// at different rates (a model and a policy) leave the rate unknown.
TEST(MetadataExtractor, PartRatesAgreeOrStayUnknown) {
  Repo r("lrparts");
  r.File("conf.yaml", "train:\n  lr_encoder: 0.02\n  lr_decoder: 0.02\n  lr_pow: 0.9\n");
  r.File("train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--cfg')\n");
  EXPECT_EQ(r.Extract("python train.py --cfg conf.yaml").learning_rate, 0.02);
  Repo m("lrmodels");
  m.File("conf.yaml", "model_lr: 0.001\nsac_lr: 0.0003\n");
  m.File("train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--cfg')\n");
  WorkloadMetadata md = m.Extract("python train.py --cfg conf.yaml");
  EXPECT_FALSE(md.learning_rate.has_value());
}

// A detector's backbone is a part of the model, not its name.
TEST(MetadataExtractor, ABackboneIsNotADetectorsName) {
  Repo r("backbone");
  r.File("main.py", R"(import argparse
from models.detr import DETR
p = argparse.ArgumentParser()
p.add_argument('--backbone', default='resnet50')
p.add_argument('--coco_path', type=str)
p.add_argument('--epochs', default=300, type=int)
args = p.parse_args()
model = DETR(args.backbone)
)");
  r.File("models/detr.py", "class DETR:\n    pass\n");
  WorkloadMetadata md = r.Extract("python main.py --coco_path /data/coco");
  EXPECT_EQ(md.model_type, "detection");
  EXPECT_FALSE(md.model_name.has_value()) << *md.model_name;
  EXPECT_TRUE(std::any_of(md.unresolved.begin(), md.unresolved.end(),
                          [](const auto& u) { return u.first == "model_name" && u.second.find("backbone") != std::string::npos; }));
}

// Evaluation loaders and sampling calls run beside training: their batch
// sizes are not the run's.
TEST(MetadataExtractor, EvaluationBatchSizesAreNotTheRuns) {
  Repo r("evalbatch");
  r.File("main.py", R"(import argparse
import torch
p = argparse.ArgumentParser()
p.add_argument('--batch_size', type=int, default=32)
args = p.parse_args()
val_loader = torch.utils.data.DataLoader(Dataset(args, 'val'), batch_size=1)
images = trainer.sample(texts=['a'], batch_size=1)
)");
  WorkloadMetadata md = r.Extract("python main.py");
  EXPECT_EQ(md.batch_size, 32);
}

// When no dataset key names the data, known data in a path the run reads
// does (a wav directory, a config file's name, a recipe directory) — but not
// a checkpoint directory, a model hub id, or a word that only begins like
// known data ("vocab" is not VOC).
TEST(MetadataExtractor, KnownDataInPathsNamesTheDatasetWhenNothingElseDoes) {
  Repo r("datahint");
  r.File("train.py", R"(import argparse
p = argparse.ArgumentParser()
p.add_argument('--input_wavs_dir', default='LJSpeech-1.1/wavs')
p.add_argument('--checkpoint_path', default='cp_hifigan')
p.add_argument('--batch_size', type=int, default=16)
args = p.parse_args()
)");
  r.File("seg.py", R"(import argparse
p = argparse.ArgumentParser()
p.add_argument('--cfg', default='config/ade20k-resnet50-upernet.yaml')
p.add_argument('--vocab_file', default='data/voc/vocab.txt')
args = p.parse_args()
)");
  r.File("config/ade20k-resnet50-upernet.yaml", "DIR: ckpt/ade20k-resnet50-upernet\nTRAIN:\n  batch_size_per_gpu: 2\n");
  r.File("plain.py", R"(import argparse
p = argparse.ArgumentParser()
p.add_argument('--tokenizer2_path', default='laion/CLIP-ViT-bigG-14-laion2B-39B-b160k')
p.add_argument('--lists_dir', default='lists/vocabulary')
args = p.parse_args()
)");
  r.File("egs/aishell/s0/run.sh", "python ../../../plain.py\n");

  WorkloadMetadata wav = r.Extract("python train.py");
  ASSERT_TRUE(wav.dataset.has_value());
  EXPECT_EQ(*wav.dataset, "ljspeech");
  WorkloadMetadata seg = r.Extract("python seg.py --cfg config/ade20k-resnet50-upernet.yaml");
  EXPECT_EQ(seg.dataset, "ade20k");
  WorkloadMetadata plain = r.Extract("python plain.py");
  EXPECT_FALSE(plain.dataset.has_value()) << *plain.dataset;
  ExtractOptions in_recipe;
  in_recipe.workdir = "egs/aishell/s0";
  auto snap = OpenDirectorySnapshot(testing::TempDir() + "datahint" + std::to_string(getpid()));
  ASSERT_TRUE(snap.ok());
  auto recipe = ExtractMetadata(**snap, "bash run.sh", in_recipe);
  ASSERT_TRUE(recipe.ok()) << recipe.status().message();
  EXPECT_EQ(recipe->dataset, "aishell");
}

// Precision settings spelled the ways real configs spell them: `bf16: auto`
// (on where the GPU has it), an HParams string on the command line
// (`--hparams fp16_run=True`), a switch with a verb (`amp_training`),
// OpenMMLab's AmpOptimWrapper; and a data section's path names the data
// over its type (a prompt format).
TEST(MetadataExtractor, PrecisionSwitchesAndDataSectionsAsRealConfigsWriteThem) {
  Repo r("precisionstyles");
  r.File("train.py", R"(import argparse
p = argparse.ArgumentParser()
p.add_argument('config')
p.add_argument('--hparams', default='')
args = p.parse_args()
)");
  r.File("sft.yml", "base_model: org/base-7b\ndatasets:\n  - path: org/chat-data\n    type: alpaca\nbf16: auto\nfp16: false\n");
  r.File("tts.yml", "fp16_run: false\nbatch_size: 32\n");
  r.File("amp_cfg.yml", "amp_training: true\n");
  r.File("mm.py", "optim_wrapper = dict(type='AmpOptimWrapper', optimizer=dict(type='AdamW', lr=1e-4))\n");

  WorkloadMetadata sft = r.Extract("python train.py sft.yml");
  EXPECT_EQ(sft.precision, "bf16");
  EXPECT_EQ(sft.dataset, "org/chat-data");
  EXPECT_EQ(r.Extract("python train.py tts.yml").precision, "fp32");
  EXPECT_EQ(r.Extract("python train.py tts.yml --hparams fp16_run=True,batch_size=64").precision, "fp16");
  EXPECT_EQ(r.Extract("python train.py tts.yml --hparams fp16_run=True,batch_size=64").batch_size, 64);
  EXPECT_EQ(r.Extract("python train.py amp_cfg.yml").precision, "fp16");
  EXPECT_EQ(r.Extract("python train.py mm.py").precision, "fp16");
}

// The training function a script's main calls takes its settings as
// parameter defaults (`train_eval(FLAGS.root_dir)`); an evaluation
// function's defaults are not the run's.
TEST(MetadataExtractor, DefaultsOfTheTrainingFunctionMainCalls) {
  Repo r("trainfn");
  r.File("run.py", "import torch\n\n"
                   "def evaluate(model, batch_size=1, learning_rate=0.5):\n    pass\n\n"
                   "def train_eval(root_dir, batch_size=32, learning_rate=2.5e-4, num_iterations=1000):\n"
                   "    model = torch.nn.Linear(2, 2)\n    evaluate(model)\n\n"
                   "def main():\n    evaluate(None)\n    train_eval('/tmp/x')\n\n"
                   "if __name__ == '__main__':\n    main()\n");
  WorkloadMetadata md = r.Extract("python run.py");
  EXPECT_EQ(md.batch_size, 32);
  ASSERT_TRUE(md.learning_rate.has_value());
  EXPECT_DOUBLE_EQ(*md.learning_rate, 2.5e-4);
}

// fire.Fire(train) called after `def train(...)` in the same file: the
// function's defaults are read although its call comes later in the file.
TEST(MetadataExtractor, FireFunctionDefinedBeforeItsCall) {
  Repo r("firesame");
  r.File("pkg/cli.py", "import fire\nimport torch\n\n"
                       "def train_from_folder(data='./data', batch_size=10, learning_rate=2e-4, num_train_steps=150000):\n"
                       "    pass\n\ndef main():\n    fire.Fire(train_from_folder)\n");
  r.File("setup.py", "from setuptools import setup\nsetup(name='pkg', entry_points={'console_scripts': ['pkgtrain = pkg.cli:main']})\n");
  WorkloadMetadata md = r.Extract("pkgtrain --data ./imgs");
  EXPECT_EQ(md.batch_size, 10);
  EXPECT_EQ(md.training_iterations, 150000);
}

// A script named after the model family it trains names the model when
// nothing else does (train_gpt3_175b.sh, mujoco_sac.py); a name in the code
// still wins, and a script name without a known family names nothing.
TEST(MetadataExtractor, ScriptNamedAfterTheModelItTrains) {
  Repo r("scriptname");
  r.File("pretrain.py", "import argparse\nimport torch\np = argparse.ArgumentParser()\n"
                        "p.add_argument('--num-layers', type=int)\np.add_argument('--lr', type=float)\n");
  r.File("examples/train_gpt3_175b_cluster.sh", "#!/bin/bash\npython pretrain.py --num-layers 96 --lr 6e-5\n");
  r.File("control/walker_sac.py", "import torch\nlr = 3e-4\n");
  r.File("control/walker_named.py", "import torch\nfrom transformers import AutoModel\n"
                                    "model = AutoModel.from_pretrained('org/policy-net')\n");
  r.File("control/train_walker.py", "import torch\nlr = 3e-4\n");
  EXPECT_EQ(r.Extract("bash examples/train_gpt3_175b_cluster.sh").model_name, "gpt3_175b");
  EXPECT_EQ(r.Extract("python control/walker_sac.py").model_name, "sac");
  EXPECT_EQ(r.Extract("python control/walker_named.py").model_name, "org/policy-net");
  EXPECT_FALSE(r.Extract("python control/train_walker.py").model_name.has_value());
}

// mmengine's scoped base `pkg::_base_/x.py` is the package's configs/_base_/x.py;
// an argparse default that is a one-member list names that member.
TEST(MetadataExtractor, ScopedBaseConfigsAndOneMemberListDefaults) {
  Repo r("scoped");
  r.File("tools/train.py", "from mmengine.config import Config\nfrom mmengine.runner import Runner\n"
                           "import argparse\np = argparse.ArgumentParser()\np.add_argument('config')\n"
                           "cfg = Config.fromfile(p.parse_args().config)\nRunner.from_cfg(cfg).train()\n");
  r.File("configs/_base_/schedules/schedule_1x.py", "train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12)\n");
  r.File("configs/other/_base_/schedules/schedule_1x.py", "train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=50)\n");
  r.File("projects/x/configs/net_1x.py", "_base_ = ['mypkg::_base_/schedules/schedule_1x.py']\n"
                                         "model = dict(type='Net')\n");
  EXPECT_EQ(r.Extract("python tools/train.py projects/x/configs/net_1x.py").training_iterations, 12);
  r.File("sft.py", "import argparse\nimport torch\np = argparse.ArgumentParser()\n"
                   "p.add_argument('--data_path', nargs='*', default=['org/chat-pairs'])\n"
                   "p.add_argument('--data_split', default='2,4,4')\n");
  EXPECT_EQ(r.Extract("python sft.py").dataset, "org/chat-pairs");
}

// The loop a repository's own library runs, deeper than the entry's direct
// imports (a Trainer class that builds an Accelerator, or hands the model to
// the HF Trainer), is the run's framework.
TEST(MetadataExtractor, FrameworkOfTheLoopTheLibraryRuns) {
  Repo r("deeploop");
  r.File("train.py", "import torch\nfrom pkg.api import fit\n\nif __name__ == '__main__':\n    fit()\n");
  r.File("pkg/__init__.py", "");
  r.File("pkg/api.py", "from pkg.engine import Engine\n\ndef fit():\n    Engine().run()\n");
  r.File("pkg/engine.py", "import torch\nfrom accelerate import Accelerator\n\nclass Engine:\n"
                          "    def __init__(self):\n        self.accelerator = Accelerator()\n");
  EXPECT_EQ(r.Extract("python train.py").framework, "accelerate");
  r.File("pkg/engine.py", "import torch\nfrom transformers import Trainer\n\nclass Engine:\n"
                          "    def run(self):\n        Trainer(model=None).train()\n");
  EXPECT_EQ(r.Extract("python train.py").framework, "transformers");
  r.File("pkg/engine.py", "import torch\n\nclass Engine:\n    def run(self):\n        pass\n");
  EXPECT_EQ(r.Extract("python train.py").framework, "pytorch");
}

// An actor-critic agent's rate is its policy's (actor_lr, actor_learning_rate);
// the critic's and the temperature's train beside it.
TEST(MetadataExtractor, ActorCriticRateIsThePolicys) {
  Repo r("actorlr");
  r.File("train.py", "import argparse\nimport torch\np = argparse.ArgumentParser()\n"
                     "p.add_argument('--actor-lr', type=float, default=1e-3)\n"
                     "p.add_argument('--critic-lr', type=float, default=3e-3)\n"
                     "p.add_argument('--alpha-lr', type=float, default=3e-4)\n");
  EXPECT_EQ(r.Extract("python train.py").learning_rate, 1e-3);
  r.File("agent.py", "import torch\n\ndef train_eval(root_dir, actor_learning_rate=3e-4, critic_learning_rate=1e-3):\n"
                     "    pass\n\ndef main():\n    train_eval('/tmp')\n");
  EXPECT_EQ(r.Extract("python agent.py").learning_rate, 3e-4);
}

// A Jsonnet config (plain JSON in form) given to an outside training CLI is read.
TEST(MetadataExtractor, JsonnetConfigOfAnOutsideCli) {
  Repo r("jsonnet");
  r.File("exp/classifier.jsonnet", R"({"train_data_path": "data/reviews/train.tsv",
 "model": {"type": "bag_classifier"}, "data_loader": {"batch_size": 8}, "trainer": {"num_epochs": 5}})");
  WorkloadMetadata md = r.Extract("nlptool train exp/classifier.jsonnet --serialization-dir out");
  EXPECT_EQ(md.batch_size, 8);
  EXPECT_EQ(md.training_iterations, 5);
  EXPECT_EQ(md.dataset, "reviews");
}

// `--expid X` names a top-level section of a YAML file in the run's config
// directory: that section's settings are the run's; other sections are not.
TEST(MetadataExtractor, ExperimentIdNamesAConfigSection) {
  Repo r("expid");
  r.File("zoo/net/run_expid.py", "import argparse\nimport torch\nfrom lib.utils import load_config\n"
                                 "p = argparse.ArgumentParser()\np.add_argument('--config', default='./config/')\n"
                                 "p.add_argument('--expid', default='Net_default')\nargs = vars(p.parse_args())\n"
                                 "params = load_config(args['config'], args['expid'])\n");
  r.File("zoo/net/config/model_config.yaml", "Base:\n  num_workers: 3\n\n"
                                             "Net_small:\n  model: CrossNet\n  dataset_id: tiny_clicks\n"
                                             "  learning_rate: 1.0e-3\n  batch_size: 128\n  epochs: 2\n\n"
                                             "Net_big:\n  model: CrossNet\n  batch_size: 4096\n  epochs: 50\n");
  WorkloadMetadata md = r.Extract("python zoo/net/run_expid.py --expid Net_small --gpu 0");
  EXPECT_EQ(md.batch_size, 128);
  EXPECT_EQ(md.training_iterations, 2);
  EXPECT_EQ(md.model_name, "CrossNet");
  EXPECT_EQ(md.dataset, "tiny_clicks");
  EXPECT_EQ(r.Extract("python zoo/net/run_expid.py --expid Net_big").batch_size, 4096);
}

}  // namespace
}  // namespace schedmate
