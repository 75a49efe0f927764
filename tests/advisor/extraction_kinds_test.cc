// Kinds of evidence the extractor reads in code nobody here wrote, each
// found among the development misses of the real-repository corpus
// (docs/advisor-real-corpus.md) and written here as a small repository.
// Launch kinds (shell wrappers, launchers, process and device counts) are in
// launch_kinds_test.cc.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "advisor/field_keys.h"
#include "advisor/metadata_extractor.h"
#include "advisor/run_values.h"
#include "repo/snapshot.h"
#include "advisor/temp_repo.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

// Each test's repository, in its own temporary directory.
class Repo : public testing_support::TempRepo {
 public:
  explicit Repo(const std::string& name) : TempRepo("kinds_" + name) {}
};

// The model a script builds names the model: at the top of a script as well
// as in a function, under `model_<class>` as well as `model`; a wrapper built
// around it, a task-head class and an RL library's network do not.
TEST(ExtractionKinds, ModelTheEntryBuilds) {
  Repo r("model_built");
  r.File("sage.py",
         "import torch\nfrom torch_geometric.nn import GraphSAGE\n"
         "model = GraphSAGE(100, 256, num_layers=2).to('cuda')\n"
         "model = torch.nn.parallel.DistributedDataParallel(model)\n"
         "opt = torch.optim.Adam(model.parameters(), lr=0.001)\n");
  EXPECT_EQ(r.Extract("python sage.py").model_name, "GraphSAGE");
  r.File("rec.py",
         "import torch\nfrom models import BERT4Rec\n"
         "def main():\n    model_bert4rec = BERT4Rec(1000, 200, emb_dim=64).to('cuda')\n"
         "    model = DistributedModelParallel(module=model_bert4rec)\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python rec.py").model_name, "BERT4Rec");
  r.File("cls.py",
         "import torch\nfrom modeling import GLMForSequenceClassification\n"
         "def main():\n    model = GLMForSequenceClassification(cfg)\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_FALSE(r.Extract("python cls.py").model_name.has_value());
  r.File("rl.py",
         "import torch\nfrom tianshou.utils.net.common import MLP\n"
         "net = MLP(4, 2, hidden_sizes=[64, 64])\n");
  EXPECT_FALSE(r.Extract("python rl.py").model_name.has_value());
}

// Dataset keys as public training code spells them: a training dataset's path
// or hub id, a dataset section's repo_id, an Atari game; a registered task's
// versioned name is kept whole. One repository's own words (--dset, a mixer
// list, MIXTURE_NAME, game_name, environment_name) are no dataset keys.
TEST(ExtractionKinds, DatasetKeysAndNames) {
  for (const char* key : {"train_dataset_path", "training_dataset", "dataset.repo_id", "game"})
    EXPECT_EQ(ClassifyKey(key).field, "dataset") << key;
  for (const char* key : {"dset", "MIXTURE_NAME", "dataset_mixer_list", "game_name", "environment_name"})
    EXPECT_NE(ClassifyKey(key).field, "dataset") << key;
  EXPECT_EQ(ClassifyKey("eval_dataset_path").field, "");
  std::string why;
  EXPECT_EQ(NameOf("glue_mrpc_v002", true, &why), "glue_mrpc_v002");
  EXPECT_EQ(NameOf("ljs_audio_text_train_filelist", true, &why), "ljs");
}

// Where runs name their model besides a model key: a Hydra choice in the
// model config group, an RL algorithm's or agent's name, a
// script's own sys.argv default, and a Python config's plain `model = '…'`
// (over the config file's stem).
TEST(ExtractionKinds, ModelNameKinds) {
  for (const char* key : {"algo_name", "agent_name"})
    EXPECT_EQ(ClassifyKey(key).field, "model_name") << key;
  EXPECT_NE(ClassifyKey("model.model_source").field, "model_name");
  Repo r("model_kinds");
  r.File("train.py",
         "import hydra\n@hydra.main(config_path='configs', config_name='config')\n"
         "def main(cfg):\n    pass\n");
  r.File("configs/config.yaml", "defaults:\n  - model: s4\n  - _self_\ntrainer:\n  max_epochs: 5\n");
  r.File("configs/model/s4.yaml", "n_layers: 4\nd_model: 256\n");
  r.File("configs/model/lstm.yaml", "n_layers: 2\n");
  EXPECT_EQ(r.Extract("python train.py").model_name, "s4");
  EXPECT_EQ(r.Extract("python train.py model=lstm").model_name, "lstm");
  r.File("sts.py",
         "import sys\nfrom sentence_transformers import SentenceTransformer\n"
         "model_name = sys.argv[1] if len(sys.argv) > 1 else 'distilbert-base-uncased'\n"
         "train_batch_size = 16\nmodel = SentenceTransformer(model_name)\n");
  EXPECT_EQ(r.Extract("python sts.py").model_name, "distilbert-base-uncased");
  r.File("tools/train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('config')\n");
  r.File("cfgs/_base_/default.py", "num_epochs = 10\n");
  r.File("cfgs/net_xl2_img256_sam.py", "_base_ = ['./_base_/default.py']\nmodel = 'Net_XL_2'\nimage_size = 256\n");
  EXPECT_EQ(r.Extract("python tools/train.py cfgs/net_xl2_img256_sam.py").model_name, "Net_XL_2");
}

// FSDP's MixedPrecision(param_dtype=torch.bfloat16) near the entry: the run
// computes in bf16, as it does for param_dtype='bfloat16'.
TEST(ExtractionKinds, HalfDtypeKeywordNamedByTheLibrary) {
  Repo r("dtype_name");
  r.File("dpo.py",
         "import torch\nfrom torch.distributed.fsdp import MixedPrecision\n"
         "def main():\n    mp = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python dpo.py").precision, "bf16");
  // Only precision APIs: a tensor's dtype is not the run's precision.
  r.File("zeros.py",
         "import torch\ndef main():\n    buf = torch.zeros(8, 8, dtype=torch.float16)\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_NE(r.Extract("python zeros.py").precision, "fp16");
  r.File("hf.py",
         "import torch\nfrom transformers import AutoModelForCausalLM\n"
         "def main():\n    model = AutoModelForCausalLM.from_pretrained('gpt2', torch_dtype=torch.bfloat16)\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python hf.py").precision, "bf16");
  r.File("flax_train.py",
         "import jax.numpy as jnp\nimport flax.linen as nn\nfrom models import ResNet50\n"
         "def main():\n    model = ResNet50(num_classes=10, dtype=jnp.float16)\n    x = jnp.ones((1, 4), dtype=jnp.bfloat16)\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python flax_train.py").precision, "fp16");
}

// The package's default config the code opens beside itself
// (os.path.join(os.path.dirname(__file__), "config", "default.yaml")) is the
// run's base; a join to another YAML (one of several choices) is not read.
TEST(ExtractionKinds, DefaultConfigTheCodeJoinsToItsDirectory) {
  Repo r("joined_default");
  r.File("src/main.py",
         "import os\nimport yaml\n"
         "def _defaults():\n"
         "    with open(os.path.join(os.path.dirname(__file__), 'config', 'default.yaml')) as f:\n"
         "        return yaml.safe_load(f)\n"
         "def _other():\n"
         "    return os.path.join(os.path.dirname(__file__), 'config', 'eval.yaml')\n");
  r.File("src/config/default.yaml", "batch_size: 32\nlr: 0.0005\nt_max: 10000\n");
  r.File("src/config/eval.yaml", "batch_size: 4\n");
  WorkloadMetadata md = r.Extract("python3 src/main.py");
  EXPECT_EQ(md.batch_size, 32);
  EXPECT_EQ(md.learning_rate, 0.0005);
}

// A defaults-named YAML joined to anything but the file's own directory, found
// elsewhere in the repository only, or opened for writing, is no config the
// run reads.
TEST(ExtractionKinds, DefaultConfigJoinedElsewhereOrWrittenIsNotRead) {
  Repo r("joined_not_read");
  r.File("configs/logger/common.yaml", "batch_size: 32\nlr: 0.0005\n");
  r.File("common.yaml", "batch_size: 16\n");
  r.File("src/config/default.yaml", "batch_size: 8\n");
  // The output directory's file, written.
  r.File("dump.py",
         "import argparse\nimport os\np = argparse.ArgumentParser()\np.add_argument('--out', default='.')\n"
         "def main():\n    args = p.parse_args()\n"
         "    with open(os.path.join(args.out, 'common.yaml'), 'w') as f:\n        f.write('')\n");
  WorkloadMetadata md = r.Extract("python dump.py --out configs/logger");
  EXPECT_FALSE(md.batch_size.has_value());
  EXPECT_FALSE(md.learning_rate.has_value());
  // The file's own directory, but written.
  r.File("src/save.py",
         "import os\ndef main():\n"
         "    with open(os.path.join(os.path.dirname(__file__), 'config', 'default.yaml'), 'w') as f:\n"
         "        f.write('')\n");
  EXPECT_FALSE(r.Extract("python src/save.py").batch_size.has_value());
  // A join to a directory that is no __file__'s.
  r.File("run.py",
         "import os\nroot = os.getcwd()\n"
         "def main():\n    return os.path.join(root, 'configs', 'logger', 'common.yaml')\n");
  md = r.Extract("python run.py");
  EXPECT_FALSE(md.batch_size.has_value());
  EXPECT_FALSE(md.learning_rate.has_value());
  // Beside the file: src/logger/common.yaml does not exist; configs/logger/common.yaml is not searched for.
  r.File("src/train.py",
         "import os\ndef main():\n    return os.path.join(os.path.dirname(__file__), 'logger', 'common.yaml')\n");
  EXPECT_FALSE(r.Extract("python src/train.py").batch_size.has_value());
  // Path(__file__).parent is the file's directory too.
  r.File("src/fit.py",
         "from pathlib import Path\nimport os\nimport yaml\n"
         "def main():\n    return yaml.safe_load(open(os.path.join(Path(__file__).parent, 'config', 'default.yaml')))\n");
  EXPECT_EQ(r.Extract("python src/fit.py").batch_size, 8);
}

// The dtype of a mixed-precision switch that is off says nothing: the run
// is full precision. With the switch on, the dtype names the precision.
TEST(ExtractionKinds, TheDtypeOfAnAutocastThatIsOff) {
  Repo r("autocast_off");
  r.File("train.py",
         "import argparse\nimport torch\n"
         "p = argparse.ArgumentParser()\n"
         "p.add_argument('--amp', action='store_true', default=False)\n"
         "p.add_argument('--amp-dtype', default='float16', type=str)\n"
         "p.add_argument('--lr', type=float, default=0.1)\n"
         "args = p.parse_args()\n");
  EXPECT_EQ(r.Extract("python train.py").precision, "fp32");
  EXPECT_EQ(r.Extract("python train.py --amp").precision, "fp16");
  EXPECT_EQ(r.Extract("python train.py --amp --amp-dtype bfloat16").precision, "bf16");
  r.File("conf/config.yaml", "lr: 0.001\nautocast: false\nautocast_dtype: bfloat16\n");
  r.File("fit.py", "import yaml\nimport torch\ncfg = yaml.safe_load(open('conf/config.yaml'))\n");
  EXPECT_EQ(r.Extract("python fit.py --config conf/config.yaml").precision, "fp32");
  r.File("conf/on.yaml", "lr: 0.001\nautocast: true\nautocast_dtype: bfloat16\n");
  EXPECT_EQ(r.Extract("python fit.py --config conf/on.yaml").precision, "bf16");
}

// autocast as one branch of a conditional expression: the condition is the
// switch (off by its default here); a device test keeps it on wherever there is a GPU.
TEST(ExtractionKinds, AnAutocastChosenByACondition) {
  Repo r("autocast_cond");
  r.File("train.py",
         "import argparse\nfrom contextlib import nullcontext\nimport torch\n"
         "p = argparse.ArgumentParser()\n"
         "p.add_argument('--use_amp', action='store_true')\n"
         "args = p.parse_args()\n"
         "def step(model, x):\n"
         "    with torch.autocast('cuda') if args.use_amp else nullcontext():\n"
         "        return model(x)\n");
  EXPECT_EQ(r.Extract("python train.py").precision, "fp32");
  EXPECT_EQ(r.Extract("python train.py --use_amp").precision, "fp16");
  r.File("gpt.py",
         "import torch\nfrom contextlib import nullcontext\n"
         "device_type = 'cuda'\n"
         "ctx = nullcontext() if device_type == 'cpu' else torch.amp.autocast(device_type=device_type, dtype=torch.bfloat16)\n");
  EXPECT_EQ(r.Extract("python gpt.py").precision, "bf16");
}

// A preset flag: `if opt.O: opt.fp16 = True` holds when the command turns
// the flag on, and not otherwise; a value the command gives itself still wins.
TEST(ExtractionKinds, ASettingThatAFlagTurnsOn) {
  Repo r("flag_preset");
  r.File("main.py",
         "import argparse\nimport torch\n"
         "if __name__ == '__main__':\n"
         "    p = argparse.ArgumentParser()\n"
         "    p.add_argument('-O', action='store_true')\n"
         "    p.add_argument('--fp16', action='store_true')\n"
         "    p.add_argument('--iters', type=int, default=10000)\n"
         "    opt = p.parse_args()\n"
         "    if opt.O:\n"
         "        opt.fp16 = True\n"
         "        opt.iters = 5000\n");
  WorkloadMetadata off = r.Extract("python main.py");
  EXPECT_EQ(off.precision, "fp32");
  EXPECT_EQ(off.training_iterations, 10000);
  WorkloadMetadata on = r.Extract("python main.py -O");
  EXPECT_EQ(on.precision, "fp16");
  EXPECT_EQ(on.training_iterations, 5000);
  EXPECT_EQ(r.Extract("python main.py -O --iters 300").training_iterations, 300);
}

// A data class named after the package it lives in (vocos.dataset.VocosDataModule,
// TTS.tts.datasets.TTSDataset) is the project's own loader: it names no data.
// A class that names known data keeps doing so (torchvision.datasets.CIFAR10).
TEST(ExtractionKinds, APackagesOwnDataClassNamesNoData) {
  EXPECT_TRUE(IsPackagesOwnDataClass("vocos.dataset.VocosDataModule"));
  EXPECT_TRUE(IsPackagesOwnDataClass("TTS.tts.datasets.TTSDataset"));
  EXPECT_FALSE(IsPackagesOwnDataClass("torchvision.datasets.CIFAR10"));
  EXPECT_FALSE(IsPackagesOwnDataClass("mmdet.datasets.CocoDataset"));
  std::string why;
  EXPECT_FALSE(NameOf("vocos.dataset.VocosDataModule", true, &why).has_value());
  EXPECT_EQ(NameOf("mypkg.data.CocoDataModule", true, &why), "coco");  // the known data it names
  Repo r("own_data_class");
  r.File("TTS/__init__.py", "");
  r.File("TTS/datasets/__init__.py", "class TTSDataset:\n    def __init__(self, items):\n        self.items = items\n");
  r.File("train.py",
         "import torch\nfrom TTS.datasets import TTSDataset\n"
         "def main():\n    ds = TTSDataset(items=[])\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_FALSE(r.Extract("python train.py").dataset.has_value());
}

// A known dataset named in a datasets module's function path: `datasets.mnist()`
// (the repository's own loader module), `tf.keras.datasets.cifar10.load_data()`.
TEST(ExtractionKinds, ADatasetsFunctionNamesItsData) {
  Repo r("datasets_function");
  r.File("datasets.py", "import numpy as np\n_DATA = '/tmp/jax_example_data/'\ndef mnist():\n    return np.zeros(1)\n");
  r.File("train.py",
         "import jax\nimport datasets\n"
         "def main():\n    train_images = datasets.mnist()\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python train.py").dataset, "mnist");
  r.File("keras_train.py",
         "import tensorflow as tf\n"
         "(x, y), _ = tf.keras.datasets.cifar10.load_data()\n"
         "model = tf.keras.applications.ResNet50(weights=None)\n"
         "model.fit(x, y, epochs=5, batch_size=64)\n");
  EXPECT_EQ(r.Extract("python keras_train.py").dataset, "cifar10");
}

// A config's datasets section keyed by the data's names: the first names the run's data.
TEST(ExtractionKinds, ADatasetsSectionKeyedByName) {
  Repo r("datasets_section");
  r.File("train.py",
         "import argparse\nimport yaml\nimport torch\n"
         "p = argparse.ArgumentParser()\np.add_argument('--cfg-path', required=True)\n"
         "args = p.parse_args()\ncfg = yaml.safe_load(open(args.cfg_path))\n");
  r.File("configs/ft.yaml",
         "model:\n  arch: blip_caption\n"
         "datasets:\n  coco_caption:\n    vis_processor:\n      train:\n        name: blip_image_train\n"
         "  vg_caption:\n    text_processor:\n      train:\n        name: blip_caption\n"
         "run:\n  max_epoch: 5\n  batch_size_train: 16\n  init_lr: 1e-5\n");
  EXPECT_EQ(r.Extract("python train.py --cfg-path configs/ft.yaml").dataset, "coco_caption");
}

// A model name made only of words for a model's role or a run's stage
// (asr_model, causal_lm, reward_model, stage1, sample_train) names no model:
// a config key set to one leaves the model unresolved instead of wrong.
TEST(ExtractionKinds, RoleWordsNameNoModel) {
  std::string why;
  for (const char* role : {"asr_model", "causal_lm", "reward_model", "based_model", "gnn", "llm", "Linear",
                           "stage1", "sample_train", "config_det_finetune", "operative_config"})
    EXPECT_FALSE(NameOf(role, false, &why).has_value()) << role;
  EXPECT_EQ(NameOf("conformer", false, &why), "conformer");
  EXPECT_EQ(NameOf("gpt2_model", false, &why), "gpt2_model");
  EXPECT_EQ(NameOf("transformer_lm", false, &why), "transformer_lm");
  EXPECT_EQ(NameOf("asr_model", true, &why), "asr_model");  // the rule is for models only
  Repo r("role_words");
  r.File("train.py",
         "import argparse\nimport yaml\np = argparse.ArgumentParser()\n"
         "p.add_argument('--config', required=True)\nargs = p.parse_args()\n"
         "cfg = yaml.safe_load(open(args.config))\n");
  r.File("conf/train.yaml", "model: asr_model\nencoder: conformer\nbatch_size: 16\n");
  EXPECT_FALSE(r.Extract("python train.py --config conf/train.yaml").model_name.has_value());
}

// A tyro subcommand CLI over a table of named configs: the command's first
// bare word picks an entry, whose calls' keywords are the run's settings
// (the first binding of a key wins; the configurations it did not pick say
// nothing), and the entry's name is the model's.
TEST(ExtractionKinds, TyroSubcommandPicksANamedConfig) {
  Repo r("tyro_subcommand");
  r.File("train.py",
         "import tyro\nfrom configs import all_methods\n"
         "def main():\n    cfg = tyro.cli(all_methods)\n"
         "if __name__ == '__main__':\n    main()\n");
  r.File("configs.py",
         "import tyro\nfrom trainer import TrainerConfig, DataConfig, AdamConfig, DecayScheduler\n"
         "method_configs = {}\n"
         "method_configs['fastnet'] = TrainerConfig(\n    max_num_iterations=30000,\n"
         "    data=DataConfig(train_batch_size=4096),\n"
         "    optimizers={'fields': AdamConfig(lr=1e-2), 'cam': AdamConfig(lr=1e-3),\n"
         "                'sched': DecayScheduler(max_steps=200000)},\n)\n"
         "method_configs['slownet'] = TrainerConfig(\n    max_num_iterations=1000000,\n"
         "    data=DataConfig(train_batch_size=1024),\n    optimizers={'fields': AdamConfig(lr=5e-4)},\n)\n"
         "all_methods = tyro.extras.subcommand_type_from_defaults(defaults=method_configs)\n");
  WorkloadMetadata fast = r.Extract("python train.py fastnet");
  EXPECT_EQ(fast.model_name, "fastnet");
  EXPECT_EQ(fast.training_iterations, 30000);
  EXPECT_EQ(fast.batch_size, 4096);
  EXPECT_EQ(fast.learning_rate, 1e-2);
  WorkloadMetadata slow = r.Extract("python train.py slownet --data.train-batch-size 512");
  EXPECT_EQ(slow.model_name, "slownet");
  EXPECT_EQ(slow.training_iterations, 1000000);
  EXPECT_EQ(slow.batch_size, 512);
  EXPECT_EQ(slow.learning_rate, 5e-4);
}

// Code that walks up from the config it is given and merges the default.<ext>
// of each directory (`os.path.join(d, "default" + ext)`): the named config
// sits on those defaults, the nearer directory's over the farther. Without
// that code, a default.yaml beside the config is not read. A BatchNorm
// recalibration batch (reset_bn_batch_size) is not the run's batch.
// A default.yaml the code writes (open(os.path.join(args.out, "default.yaml"),
// "w")) is an output: the config's directories' defaults are not read.
TEST(ExtractionKinds, AWrittenDefaultIsNoConfigDirectorysDefault) {
  Repo r("written_default");
  r.File("train.py",
         "import argparse, os, yaml\np = argparse.ArgumentParser()\np.add_argument('--config', required=True)\n"
         "p.add_argument('--out', default='runs')\na = p.parse_args()\ncfg = yaml.safe_load(open(a.config))\n"
         "with open(os.path.join(a.out, 'default.yaml'), 'w') as f:\n    yaml.safe_dump(cfg, f)\n");
  r.File("configs/default.yaml", "epochs: 300\nbatch_size: 512\n");
  r.File("configs/cifar/resnet.yaml", "lr: 0.1\n");
  WorkloadMetadata md = r.Extract("python train.py --config configs/cifar/resnet.yaml");
  EXPECT_FALSE(md.training_iterations.has_value());
  EXPECT_FALSE(md.batch_size.has_value());
  EXPECT_EQ(md.learning_rate, 0.1);
}

TEST(ExtractionKinds, DefaultsOfAConfigsDirectories) {
  Repo r("config_dir_defaults");
  r.File("setup_exp.py",
         "import os\nimport yaml\n"
         "def setup_exp_config(config_path):\n    paths = [config_path]\n"
         "    ext = os.path.splitext(config_path)[1]\n"
         "    while os.path.dirname(config_path) != config_path:\n"
         "        config_path = os.path.dirname(config_path)\n"
         "        f = os.path.join(config_path, \"default\" + ext)\n"
         "        if os.path.isfile(f):\n            paths.append(f)\n    return paths\n");
  r.File("train.py",
         "import argparse\nfrom setup_exp import setup_exp_config\n"
         "p = argparse.ArgumentParser()\np.add_argument('config')\nargs = p.parse_args()\n"
         "cfg = setup_exp_config(args.config)\n");
  r.File("configs/default.yaml", "run_config:\n  n_epochs: 100\n  base_lr: 0.1\n");
  r.File("configs/imagenet/default.yaml",
         "data_provider:\n  train_batch_size: 64\nrun_config:\n  n_epochs: 300\n  reset_bn_batch_size: 100\n");
  r.File("configs/imagenet/small.yaml", "run_config:\n  base_lr: 0.00015\n");
  WorkloadMetadata md = r.Extract("python train.py configs/imagenet/small.yaml");
  EXPECT_EQ(md.training_iterations, 300);
  EXPECT_EQ(md.batch_size, 64);
  EXPECT_EQ(md.learning_rate, 0.00015);
  r.File("setup_exp.py", "import yaml\ndef setup_exp_config(config_path):\n    return [config_path]\n");
  md = r.Extract("python train.py configs/imagenet/small.yaml");
  EXPECT_FALSE(md.training_iterations.has_value());
  EXPECT_EQ(md.learning_rate, 0.00015);
}

// A learning-rate schedule's own length yields to the run's budget in the
// same config (`epoch: 80` beside a cosine schedule's `max_epochs: 96`).
// END_EPOCH is the budget under a train section only (yacs TRAIN.END_EPOCH);
// an augmentation's end_epoch (mixup stops at 90) is not the run's 100 epochs.
TEST(ExtractionKinds, AnotherSectionsEndEpochIsNotTheBudget) {
  EXPECT_EQ(ClassifyKey("TRAIN.END_EPOCH").field, "epochs");
  EXPECT_EQ(ClassifyKey("mixup.end_epoch").field, "");
  Repo r("mixup_end_epoch");
  r.File("train.py",
         "import argparse, yaml\np = argparse.ArgumentParser()\np.add_argument('--config')\n"
         "args = p.parse_args()\ncfg = yaml.safe_load(open(args.config))\n");
  r.File("configs/run.yaml", "epochs: 100\nlr: 0.1\nbatch_size: 64\nmixup:\n  alpha: 0.2\n  end_epoch: 90\n");
  EXPECT_EQ(r.Extract("python train.py --config configs/run.yaml").training_iterations, 100);
}

TEST(ExtractionKinds, AScheduleLengthYieldsToTheRunsBudget) {
  EXPECT_EQ(ClassifyKey("learningrate.schedulers.0.max_epochs").specificity, 0);
  EXPECT_EQ(ClassifyKey("TRAIN.END_EPOCH").field, "epochs");  // yacs, beside BEGIN_EPOCH
  EXPECT_EQ(ClassifyKey("end_lr").field, "");
  // One part's rate yields to the run's own.
  EXPECT_EQ(ClassifyKey("backbone_training.lr_configs.base_learning_rate").specificity, 0);
  EXPECT_GT(ClassifyKey("lr_configs.base_learning_rate").specificity, 0);
  // Batches of evaluation and generation passes, and of one encoder, are not the run's.
  EXPECT_EQ(ClassifyKey("solver.dataset.evaluate.batch_size").field, "");
  EXPECT_EQ(ClassifyKey("solver.dataset.generate.batch_size").field, "");
  EXPECT_EQ(ClassifyKey("audio_encoder_per_device_batch_size").field, "");
  EXPECT_EQ(ClassifyKey("solver.dataset.batch_size").field, "batch_size");
  EXPECT_EQ(ClassifyKey("variables.data_local").field, "dataset");  // a streaming dataset's local copy
  // A part's class names the part, not the model.
  EXPECT_EQ(ClassifyKey("model.encoder._target_").field, "");
  EXPECT_EQ(ClassifyKey("model.backbone.type").field, "");
  EXPECT_EQ(ClassifyKey("model._target_").field, "model_name");
  EXPECT_GT(ClassifyKey("max_epochs").specificity, 0);
  Repo r("schedule_length");
  r.File("tools/train.py",
         "import argparse\nimport yaml\np = argparse.ArgumentParser()\n"
         "p.add_argument('-c', '--config')\nargs = p.parse_args()\n");
  r.File("configs/det.yml",
         "epoch: 80\nLearningRate:\n  base_lr: 0.001\n  schedulers:\n  - name: CosineDecay\n    max_epochs: 96\n");
  EXPECT_EQ(r.Extract("python tools/train.py -c configs/det.yml").training_iterations, 80);
}

// Budget batching is the run's batch setting when no batch size is set:
// lhotse's --max-duration (seconds of audio per batch) in a run that uses
// lhotse, and fairseq's dataset.max_tokens in a config. Without lhotse a
// max_duration is no batch.
TEST(ExtractionKinds, BudgetBatching) {
  Repo r("budget_batching");
  r.File("asr/train.py",
         "import argparse\nfrom lhotse.dataset import DynamicBucketingSampler\n"
         "p = argparse.ArgumentParser()\np.add_argument('--max-duration', type=float, default=200.0)\n"
         "p.add_argument('--num-epochs', type=int, default=30)\n");
  EXPECT_EQ(r.Extract("python asr/train.py --max-duration 1400").batch_size, 1400);
  EXPECT_EQ(r.Extract("python asr/train.py").batch_size, 200);
  r.File("tts/train.py",
         "import argparse\np = argparse.ArgumentParser()\np.add_argument('--max-duration', type=float, default=200.0)\n");
  EXPECT_FALSE(r.Extract("python tts/train.py --max-duration 1400").batch_size.has_value());
  r.File("w2v/train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\n");
  r.File("w2v/base.yaml", "dataset:\n  max_tokens: 1400000\noptimization:\n  max_update: 400000\n");
  EXPECT_EQ(r.Extract("python w2v/train.py --config w2v/base.yaml").batch_size, 1400000);
}

// A data mixture keyed by the data's names with their weights names the run's
// data by its first name; a weight table under another section does not.
TEST(ExtractionKinds, ADataMixtureKeyedByName) {
  Repo r("data_mixture");
  r.File("train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\n");
  r.File("lm.yaml", "steps: 1000\ndata:\n  root_dir: /data/shuffled\n  sources:\n    dclm_baseline_1.0: 1.0\n");
  EXPECT_EQ(r.Extract("python train.py --config lm.yaml").dataset, "dclm_baseline");  // a known corpus, by its name
  r.File("sft.yaml", "dataset_mixer:\n  HuggingFaceH4/ultrachat_200k: 1.0\nnum_train_epochs: 1\n");
  EXPECT_EQ(r.Extract("python train.py --config sft.yaml").dataset, "HuggingFaceH4/ultrachat_200k");
  r.File("loss.yaml", "steps: 1000\nloss:\n  sources:\n    ce: 1.0\n");
  EXPECT_FALSE(r.Extract("python train.py --config loss.yaml").dataset.has_value());
}

// A mixture of experts' section (mixture: {num_experts: 8, top_k: 2}) or a
// loader's settings under sources are no data mixture: the generic sections
// need data names keyed to weights.
TEST(ExtractionKinds, AnExpertMixtureIsNoDataMixture) {
  Repo r("moe_mixture");
  r.File("train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\n");
  r.File("moe.yaml", "mixture:\n  num_experts: 8\n  top_k: 2\nlr: 0.001\n");
  EXPECT_FALSE(r.Extract("python train.py --config moe.yaml").dataset.has_value());
  r.File("gmm.yaml", "data:\n  path: /data/points\n  sources:\n    num_workers: 4\nlr: 0.001\n");
  EXPECT_NE(r.Extract("python train.py --config gmm.yaml").dataset, "num_workers");  // data.path names it
  r.File("lm.yaml", "data:\n  sources:\n    fineweb: 0.7\n    org/code-corpus: 0.3\n");
  EXPECT_EQ(r.Extract("python train.py --config lm.yaml").dataset, "fineweb");
}

// A CLI's first bare word that is a model family exactly names the model
// when nothing else does; a path or any other word does not.
TEST(ExtractionKinds, AFirstBareWordThatIsAFamily) {
  Repo r("first_word");
  r.File("spin/run.py",
         "import sys\nif __name__ == '__main__':\n    cmd = sys.argv[1]\n");
  EXPECT_EQ(r.Extract("python -m spin.run ppo --env LunarLander-v2").model_name, "ppo");
  EXPECT_FALSE(r.Extract("python -m spin.run plot data/ppo").model_name.has_value());
}

// Data files' extensions (.hdf5, .npz, ...) are not part of the data's name,
// and a data class whose stem is too short to name data keeps its name.
TEST(ExtractionKinds, DataNamesWithoutFileExtensions) {
  std::string why;
  EXPECT_EQ(NameOf("datasets/lift/ph/low_dim_v141.hdf5", true, &why), "low_dim_v141");
  EXPECT_EQ(NameOf("data/pusht.npz", true, &why), "pusht");
  EXPECT_FALSE(NameOf("XyzDataset", true, &why).has_value());  // never the data's name
  EXPECT_FALSE(NameOf("CUBDataset", true, &why).has_value());
  EXPECT_EQ(NameOf("CityPersonsDataset", true, &why), "CityPersons");
  // A blend's weight or an index, and a subset's name, name no data.
  EXPECT_FALSE(NameOf("1", true, &why).has_value());
  EXPECT_FALSE(NameOf("0.5", true, &why).has_value());
  EXPECT_FALSE(NameOf("subset", true, &why).has_value());
  EXPECT_EQ(NameOf("cifar10", true, &why), "cifar10");
}

// An RL library's loop is `other` also when the command runs an example in
// the library's own repository; a module merely named `trainer` there is the
// repository's own loop.
TEST(ExtractionKinds, ALibrarysLoopInItsOwnRepository) {
  Repo r("library_loop");
  r.File("stable_baselines3/__init__.py", "from stable_baselines3.ppo import PPO\n");
  r.File("stable_baselines3/ppo.py", "import torch\nclass PPO:\n    pass\n");
  r.File("examples/cartpole.py",
         "import torch\nfrom stable_baselines3 import PPO\nmodel = PPO('MlpPolicy', 'CartPole-v1')\n"
         "model.learn(total_timesteps=10000)\n");
  EXPECT_EQ(r.Extract("python examples/cartpole.py").framework, "other");
  r.File("ptuning/trainer.py", "import torch\nclass Trainer:\n    def train(self):\n        pass\n");
  r.File("ptuning/main.py", "import torch\nfrom trainer import Trainer\nTrainer().train()\n");
  EXPECT_EQ(r.Extract("python ptuning/main.py").framework, "pytorch");
}

// A family refined by another key of the same config (ARCH: vit beside
// MODEL_NAME: vit_base_patch16_224) names the model by the refinement; a
// wrapper class that merely starts with the family (EDVRModel) does not.
TEST(ExtractionKinds, AFamilyRefinedBesideIt) {
  Repo r("refined_family");
  r.File("tools/run_net.py",
         "import argparse\np = argparse.ArgumentParser()\np.add_argument('--cfg', dest='cfg_file')\n");
  r.File("configs/k400.yaml",
         "TRAIN:\n  BATCH_SIZE: 8\nMODEL:\n  MODEL_NAME: vit_base_patch16_224\n  ARCH: vit\n");
  EXPECT_EQ(r.Extract("python tools/run_net.py --cfg configs/k400.yaml").model_name, "vit_base_patch16_224");
  r.File("configs/sr.yaml", "model_type: EDVRModel\nnetwork_g:\n  type: EDVR\ntrain:\n  total_iter: 600000\n");
  EXPECT_NE(r.Extract("python tools/run_net.py --cfg configs/sr.yaml").model_name, "EDVRModel");
}

// StyleGAN-family `num_fp16_res`: a positive count of float16 resolutions is
// mixed precision; zero is full precision.
TEST(ExtractionKinds, Fp16ResolutionsAreMixedPrecision) {
  Repo r("fp16_res");
  r.File("train.py",
         "import click\n@click.command()\n@click.option('--sr-num-fp16-res', type=int, default=4)\n"
         "@click.option('--batch', type=int, default=32)\ndef main(**kwargs):\n    pass\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python train.py").precision, "fp16");
  EXPECT_EQ(r.Extract("python train.py --sr-num-fp16-res 0").precision, "fp32");
}

// A learning rate the entry binds to a conditional expression over other
// settings is evaluated once the command is read: the config name picks the
// default, a rate given on the command line wins; an expression over anything
// else is not evaluated.
TEST(ExtractionKinds, ARateChosenByAConditionalExpression) {
  Repo r("conditional_rate");
  r.File("train.py",
         "import click\nimport dnnlib\n"
         "@click.command()\n@click.option('--cfg', type=click.Choice(['stylegan3-t', 'stylegan2']), required=True)\n"
         "@click.option('--glr', type=float)\n@click.option('--batch', type=int, required=True)\n"
         "def main(**kwargs):\n    opts = dnnlib.EasyDict(kwargs)\n    c = dnnlib.EasyDict()\n"
         "    c.G_opt_kwargs = dnnlib.EasyDict(class_name='torch.optim.Adam')\n"
         "    c.G_opt_kwargs.lr = (0.002 if opts.cfg == 'stylegan2' else 0.0025) if opts.glr is None else opts.glr\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python train.py --cfg=stylegan3-t --batch=32").learning_rate, 0.0025);
  EXPECT_EQ(r.Extract("python train.py --cfg=stylegan2 --batch=32").learning_rate, 0.002);
  EXPECT_EQ(r.Extract("python train.py --cfg=stylegan2 --batch=32 --glr=0.001").learning_rate, 0.001);
  r.File("other.py",
         "def main():\n    lr = 0.1 if torch.cuda.device_count() > 1 else 0.01\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_FALSE(r.Extract("python other.py").learning_rate.has_value());
}

// load_dataset's evaluation splits are not the run's data, and a hub id's
// configuration is no part of its name; a bare builder keeps its config.
TEST(ExtractionKinds, LoadDatasetSplitsAndConfigs) {
  Repo r("load_dataset");
  r.File("train.py",
         "from datasets import load_dataset\n"
         "train = load_dataset('sentence-transformers/all-nli', 'triplet', split='train')\n"
         "dev = load_dataset('sentence-transformers/stsb', split='validation')\n");
  EXPECT_EQ(r.Extract("python train.py").dataset, "sentence-transformers/all-nli");
  r.File("glue.py", "from datasets import load_dataset\nraw = load_dataset('glue', 'mrpc')\n");
  EXPECT_EQ(r.Extract("python glue.py").dataset, "glue/mrpc");
}

// The values of an nargs='+' option (`--baselines ppo sac`) are not the
// command's first bare word: they name no model (a bare word still does).
TEST(ExtractionKinds, AnNargsOptionsValuesAreNoBareWord) {
  Repo r("nargs_bare_word");
  r.File("train.py",
         "import argparse\nimport gym\np = argparse.ArgumentParser()\n"
         "p.add_argument('--env', default='HalfCheetah-v4')\n"
         "p.add_argument('--baselines', nargs='+', default=[])\n"
         "p.add_argument('--steps', type=int, default=100000)\na = p.parse_args()\nenv = gym.make(a.env)\n");
  EXPECT_NE(r.Extract("python train.py --baselines ppo sac --env Hopper-v4").model_name, "sac");
  EXPECT_NE(r.Extract("python train.py --baselines ppo sac --env Hopper-v4").model_name, "ppo");
}

// tyro's subcommand_cli_from_dict over functions: the subcommand names a
// command (distill), not the model; over config objects it names the model.
TEST(ExtractionKinds, ASubcommandOverFunctionsNamesNoModel) {
  Repo r("tyro_functions");
  r.File("main.py",
         "import tyro\ndef fit(lr: float = 0.01, epochs: int = 5): ...\ndef distill(lr: float = 0.02): ...\n"
         "commands = {'fit': fit, 'distill': distill}\n"
         "if __name__ == '__main__':\n    tyro.extras.subcommand_cli_from_dict(commands)\n");
  EXPECT_NE(r.Extract("python main.py distill --lr 0.05").model_name, "distill");
  r.File("cfg.py",
         "import tyro\nfrom dataclasses import dataclass\n@dataclass\nclass Config:\n    lr: float = 1e-3\n"
         "configs = {\n    'tiny': Config(lr=0.5),\n    'huge': Config(lr=0.25),\n}\n"
         "if __name__ == '__main__':\n    tyro.extras.subcommand_cli_from_dict(configs)\n");
  EXPECT_EQ(r.Extract("python cfg.py tiny").model_name, "tiny");
}

// A tyro table on one line: the chosen entry's call is told from its
// siblings' by its place in the line, not by the line; and only the table
// the tyro call is given counts (another dict with the same key does not).
TEST(ExtractionKinds, AOneLineTyroTableKeepsTheChosenCall) {
  Repo r("tyro_one_line");
  r.File("train.py",
         "import tyro\nfrom dataclasses import dataclass\n@dataclass\nclass Config:\n"
         "    lr: float = 1e-3\n    batch_size: int = 8\n"
         "configs = {'tiny': ('tiny', Config(lr=0.5, batch_size=2)), 'huge': ('huge', Config(lr=0.25, batch_size=4))}\n"
         "cfg = tyro.extras.overridable_config_cli(configs)\n");
  WorkloadMetadata md = r.Extract("python train.py tiny");
  EXPECT_EQ(md.learning_rate, 0.5);
  EXPECT_EQ(md.batch_size, 2);
  r.File("other.py",
         "import tyro\nfrom dataclasses import dataclass\n@dataclass\nclass Config:\n"
         "    lr: float = 1e-3\n"
         "aliases = {\n    'tiny': Config(lr=0.9),\n}\n"
         "configs = {\n    'base': ('base', Config(lr=0.5)),\n}\n"
         "cfg = tyro.extras.overridable_config_cli(configs)\n");
  EXPECT_NE(r.Extract("python other.py tiny").model_name, "tiny");
}

// A run's label or place (exp_name=anthropic_dpo_gpt2, run_dir) only
// mentions the model; a config flag's preset (--cfg=stylegan3-t) names it.
TEST(ExtractionKinds, ARunsLabelIsNoConfigPreset) {
  Repo r("run_label");
  r.File("train.py",
         "import argparse\np = argparse.ArgumentParser()\np.add_argument('--exp_name', default='x')\n"
         "p.add_argument('--lr', type=float, default=0.1)\nargs = p.parse_args()\n");
  WorkloadMetadata md = r.Extract("python train.py --exp_name anthropic_dpo_gpt2 --lr 0.5");
  EXPECT_NE(md.model_name, "anthropic_dpo_gpt2");
  EXPECT_EQ(md.learning_rate, 0.5);
}

// An initial rate is where many warm-ups start (init_lr 1e-10 beside
// peak_lr 1e-4): the run's rate only when nothing plainer is set.
TEST(ExtractionKinds, AnInitialRateYieldsToThePeak) {
  Repo r("init_lr");
  r.File("train.py", "import yaml\nimport torch\ncfg = yaml.safe_load(open('c.yaml'))\n");
  r.File("c.yaml", "scheduler:\n  init_lr: 1.0e-10\n  peak_lr: 1.0e-4\n  warmup_steps: 400\n");
  EXPECT_EQ(r.Extract("python train.py --config c.yaml").learning_rate, 1e-4);
  r.File("d.yaml", "optimizer:\n  initial_learning_rate: 0.05\n");
  EXPECT_EQ(r.Extract("python train.py --config d.yaml").learning_rate, 0.05);
}

// A mixed-precision policy's parameter dtype is the precision the model computes in.
TEST(ExtractionKinds, AMixedPrecisionPolicysParamDtype) {
  Repo r("mp_param");
  r.File("train.py", "import yaml\nimport torch\ncfg = yaml.safe_load(open('c.yaml'))\n");
  r.File("c.yaml", "parallelism:\n  mixed_precision_param: bfloat16\n  mixed_precision_reduce: float32\n");
  EXPECT_EQ(r.Extract("python train.py --config c.yaml").precision, "bf16");
}

// max_epochs=10000000 only means "until stopped": no budget.
TEST(ExtractionKinds, ARunUntilStoppedEpochSentinel) {
  Repo r("epoch_sentinel");
  r.File("train.py", "import pytorch_lightning as pl\ntrainer = pl.Trainer(max_epochs=10000000)\ntrainer.fit(model)\n");
  WorkloadMetadata md = r.Extract("python train.py");
  EXPECT_FALSE(md.training_iterations.has_value());
  EXPECT_FALSE(md.iteration_type.has_value());
  r.File("short.py", "import pytorch_lightning as pl\ntrainer = pl.Trainer(max_epochs=300)\ntrainer.fit(model)\n");
  EXPECT_EQ(r.Extract("python short.py").training_iterations, 300);
}

// Megatron's samples budget with a ramping batch has no fixed step count.
TEST(ExtractionKinds, ASamplesBudgetWithARampingBatch) {
  Repo r("rampup");
  r.File("pretrain_gpt.py", "import torch\nfrom megatron.training import pretrain\n");
  WorkloadMetadata md = r.Extract("python pretrain_gpt.py --train-samples 1000000 --global-batch-size 100");
  EXPECT_EQ(md.training_iterations, 10000);
  md = r.Extract(
      "python pretrain_gpt.py --train-samples 1000000 --global-batch-size 100 --rampup-batch-size 16 16 50000");
  EXPECT_FALSE(md.training_iterations.has_value());
}

// Clipping settings (--clip-grad, clip_param) name no CLIP model.
TEST(ExtractionKinds, ClippingIsNoClip) {
  Repo r("clip_grad");
  r.File("main.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--clip-grad', type=float)\n"
                    "args = p.parse_args()\n");
  EXPECT_NE(r.Extract("python main.py --clip-grad 1.0").model_type, "contrastive-pretrain");
}

// A tyro table built from a list of config objects that carry their own
// names: only the object the command names is the run's.
TEST(ExtractionKinds, AListOfNamedConfigObjects) {
  Repo r("named_list");
  r.File("config.py",
         "import dataclasses\nimport tyro\n@dataclasses.dataclass\nclass TrainConfig:\n"
         "    name: str = 'x'\n    batch_size: int = 32\n    num_train_steps: int = 30000\n"
         "_CONFIGS = [\n    TrainConfig(\n        name='libero',\n        batch_size=256,\n"
         "        num_train_steps=20000,\n    ),\n    TrainConfig(name='debug', batch_size=2, num_train_steps=10),\n]\n"
         "_BY_NAME = {c.name: c for c in _CONFIGS}\n"
         "def cli():\n    return tyro.extras.overridable_config_cli({k: (k, v) for k, v in _BY_NAME.items()})\n");
  r.File("train.py", "import config\ndef main(cfg):\n    pass\nif __name__ == '__main__':\n    main(config.cli())\n");
  WorkloadMetadata md = r.Extract("python train.py libero --exp-name=x");
  EXPECT_EQ(md.batch_size, 256);
  EXPECT_EQ(md.training_iterations, 20000);
}

// Full precision is not assumed for a language model when nothing read turns
// mixed precision on or off; it still is for other runs.
TEST(ExtractionKinds, NoFullPrecisionAssumedForALanguageModel) {
  Repo r("llm_precision");
  r.File("pretrain_gpt.py",
         "import torch\nfrom transformers import AutoModelForCausalLM\n"
         "model = AutoModelForCausalLM.from_pretrained('gpt2')\nopt = torch.optim.AdamW(model.parameters(), lr=3e-4)\n");
  WorkloadMetadata md = r.Extract("python pretrain_gpt.py");
  ASSERT_TRUE(md.model_type.has_value());
  EXPECT_EQ(*md.model_type, "llm-pretrain");
  EXPECT_FALSE(md.precision.has_value());
  r.File("amp_gpt.py",
         "import torch\nfrom transformers import AutoModelForCausalLM\n"
         "model = AutoModelForCausalLM.from_pretrained('gpt2')\n"
         "with torch.autocast('cuda', dtype=torch.bfloat16):\n    loss = model(x).loss\n");
  EXPECT_EQ(r.Extract("python amp_gpt.py").precision, "bf16");
  r.File("cls.py", "import torch\nimport torchvision\nmodel = torchvision.models.resnet50()\n"
                   "data = torchvision.datasets.CIFAR10('data')\n");
  EXPECT_EQ(r.Extract("python cls.py").precision, "fp32");
}

// A config registry function that returns a config object: the literal
// keywords of its calls are the run's settings (a validator's own steps are not).
TEST(ExtractionKinds, ARegistryFunctionThatReturnsAConfigObject) {
  Repo r("registry_return");
  r.File("proj/configs.py",
         "def big_run():\n    return Trainer.Config(\n        optimizer=adamw(lr=3e-4),\n"
         "        training=TrainingConfig(steps=1000, batch_size=16),\n"
         "        validator=Validator.Config(freq=500, steps=1200),\n    )\n"
         "def tiny_run():\n    return Trainer.Config(training=TrainingConfig(steps=10))\n");
  r.File("proj/train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--config')\n"
                          "args = p.parse_args()\n");
  WorkloadMetadata md = r.Extract("python -m proj.train --config big_run");
  EXPECT_EQ(md.training_iterations, 1000);
  EXPECT_EQ(md.learning_rate, 3e-4);
  EXPECT_EQ(md.batch_size, 16);
}

// `TASK_NAME = "task_name"`: a constant that spells its own name is no setting.
TEST(ExtractionKinds, AConstantSpellingItsOwnNameIsNoSetting) {
  Repo r("self_named_constant");
  r.File("keys.py", "class Keys:\n    TASK_NAME = 'task_name'\n    DATASET = 'dataset'\n");
  r.File("train.py", "import torch\nfrom keys import Keys\nmodel = torch.nn.Linear(2, 2)\n");
  WorkloadMetadata md = r.Extract("python train.py");
  EXPECT_NE(md.dataset, "task_name");
  EXPECT_NE(md.dataset, "dataset");
}

// A command-line option's default batch size outranks a helper's
// DataLoader keyword in another imported module (a few-shot index search).
TEST(ExtractionKinds, AnOptionsDefaultOutranksAHelpersLoaderKeyword) {
  Repo r("option_default_vs_helper");
  r.File("pkg/__init__.py", "");
  r.File("pkg/common.py", "import argparse\ndef argparser():\n    p = argparse.ArgumentParser()\n"
                          "    p.add_argument('--batch', type=int, default=512)\n    return p\n");
  r.File("pkg/fewshot.py", "import torch\ndef find_indices(dataset):\n"
                           "    loader = torch.utils.data.DataLoader(dataset, batch_size=1024, shuffle=True)\n"
                           "    return [i for i, _ in enumerate(loader)]\n");
  r.File("pkg/train.py", "import torch\nimport pkg.fewshot as fs\nimport pkg.common as common\n"
                         "def main(args):\n    idx = fs.find_indices(data)\n"
                         "if __name__ == '__main__':\n    main(common.argparser().parse_args())\n");
  EXPECT_EQ(r.Extract("python -m pkg.train").batch_size, 512);
}

// Review of the night's rules: each test below failed on the rule it names.

// `train_samples` outside a Megatron-style argument set subsets the data set:
// no step budget (the epochs stay the run's).
TEST(ExtractionKinds, TrainSamplesOutsideMegatronIsNoBudget) {
  Repo r("train_samples_subset");
  r.File("train.py", "import argparse\nfrom torchvision import models\np = argparse.ArgumentParser()\n"
                     "p.add_argument('--epochs', type=int, default=30)\n"
                     "p.add_argument('--batch_size', type=int, default=128)\n"
                     "p.add_argument('--train_samples', type=int, default=None, help='use only this many images')\n"
                     "args = p.parse_args()\nmodel = models.resnet18()\n");
  WorkloadMetadata md = r.Extract("python train.py --train_samples 10000 --batch_size 64");
  EXPECT_EQ(md.training_iterations, 30);
  EXPECT_EQ(md.iteration_type, "epoch");
  r.File("cfg.yaml", "train_samples: 20000\nbatch_size: 16\n");
  r.File("main.py", "import argparse, yaml\np = argparse.ArgumentParser()\n"
                    "p.add_argument('--num_epochs', type=int, default=1)\n"
                    "p.add_argument('--config', default='cfg.yaml')\nargs = p.parse_args()\n"
                    "cfg = yaml.safe_load(open(args.config))\n");
  md = r.Extract("python main.py --config cfg.yaml --num_epochs 3");
  EXPECT_NE(md.training_iterations, 1250);
}

// Megatron's --train-samples without --global-batch-size: the global batch
// is the micro batch times the data-parallel size (8 GPUs, no TP/PP).
TEST(ExtractionKinds, MegatronSamplesOverTheDerivedGlobalBatch) {
  Repo r("megatron_dp_batch");
  r.File("pretrain_gpt.py", "from megatron.training import pretrain\npretrain(None, None, None, None)\n");
  WorkloadMetadata md = r.Extract(
      "torchrun --nproc_per_node 8 pretrain_gpt.py --micro-batch-size 4 --train-samples 2048000 --lr 3e-4 --bf16");
  EXPECT_EQ(md.training_iterations, 64000);
  md = r.Extract("torchrun --nproc_per_node 8 pretrain_gpt.py --micro-batch-size 4 --train-samples 2048000 "
                 "--tensor-model-parallel-size 2");
  EXPECT_EQ(md.training_iterations, 128000);
  EXPECT_EQ(r.Extract("python pretrain_gpt.py --micro-batch-size 4 --train-samples 2048000 --tensor-model-parallel-size X")
                .training_iterations,
            std::nullopt);
}

// HF's --config_name gpt2 names the model; exp_name only labels the run.
TEST(ExtractionKinds, AConfigNameIsNoRunLabel) {
  Repo r("config_name");
  r.File("run_clm.py", "from transformers import AutoConfig, AutoModelForCausalLM, HfArgumentParser, TrainingArguments\n"
                       "parser = HfArgumentParser((TrainingArguments,))\n");
  EXPECT_EQ(r.Extract("python run_clm.py --config_name gpt2 --dataset_name wikitext --num_train_epochs 3 "
                      "--output_dir out")
                .model_name,
            "gpt2");
}

// An initial rate yields to the run's plain or peak rate, not to one part's.
TEST(ExtractionKinds, AnInitialRateOutranksAPartsRate) {
  Repo r("init_vs_part_lr");
  r.File("train.py", "import argparse\nfrom torchvision import models\np = argparse.ArgumentParser()\n"
                     "p.add_argument('--epochs', type=int, default=90)\n"
                     "p.add_argument('--init_lr', type=float, default=0.05)\n"
                     "p.add_argument('--encoder_lr', type=float, default=0.005)\nargs = p.parse_args()\n"
                     "model = models.resnet50()\n");
  EXPECT_EQ(r.Extract("python train.py").learning_rate, 0.05);
  r.File("cfg.yaml", "init_lr: 1e-5\nvit_lr: 1e-6\nepochs: 10\n");
  r.File("main.py", "import argparse, yaml\np = argparse.ArgumentParser()\np.add_argument('--config')\n"
                    "args = p.parse_args()\ncfg = yaml.safe_load(open(args.config))\n");
  EXPECT_EQ(r.Extract("python main.py --config cfg.yaml").learning_rate, 1e-5);
  r.File("cfg2.yaml", "init_lr: 1e-10\npeak_lr: 1e-4\nepochs: 10\n");
  EXPECT_EQ(r.Extract("python main.py --config cfg2.yaml").learning_rate, 1e-4);
}

// A registry function's config: the calls bound to test/warm-up/validation
// keywords (warmup=…, test=…, val_data=…) hold no run setting.
TEST(ExtractionKinds, ARegistryConfigsTestAndWarmupPartsAreNotTheRuns) {
  Repo r("registry_test_parts");
  r.File("configs.py",
         "def vit_small():\n    return Config(\n        model=ModelCfg(arch='vit_small_patch16_224'),\n"
         "        warmup=LinearWarmup(steps=2000),\n        test=TestCfg(batch_size=512),\n"
         "        val_data=DataCfg(name='x', batch_size=64),\n"
         "        data=DataCfg(dataset='imagenet', batch_size=1024),\n"
         "        training=TrainingCfg(steps=300000),\n        optim=OptimCfg(lr=5e-4),\n    )\n");
  r.File("train.py", "import argparse\nimport configs\np = argparse.ArgumentParser()\n"
                     "p.add_argument('--config', default='vit_small')\n"
                     "cfg = getattr(configs, p.parse_args().config)()\n");
  WorkloadMetadata md = r.Extract("python train.py --config vit_small");
  EXPECT_EQ(md.training_iterations, 300000);
  EXPECT_EQ(md.batch_size, 1024);
}

// A trainer's argument keyword (TrainingArguments(per_device_train_batch_size=16))
// is the run's batch, not an unrelated option's default (a corpus embedding batch).
TEST(ExtractionKinds, ATrainerArgumentOutranksAnUnrelatedOptionsDefault) {
  Repo r("trainer_arg_vs_option");
  r.File("train.py",
         "import argparse\nfrom transformers import AutoModelForSequenceClassification, TrainingArguments, Trainer\n"
         "def train(args):\n    model = AutoModelForSequenceClassification.from_pretrained('bert-base-uncased')\n"
         "    targs = TrainingArguments(output_dir='out', per_device_train_batch_size=16, num_train_epochs=3)\n"
         "    Trainer(model=model, args=targs).train()\n"
         "if __name__ == '__main__':\n    p = argparse.ArgumentParser()\n"
         "    p.add_argument('--batch_size', type=int, default=256, help='batch size for embedding the corpus')\n"
         "    train(p.parse_args())\n");
  EXPECT_EQ(r.Extract("python train.py").batch_size, 16);
}

// A config's own name chosen as a subcommand is at most a fallback: the hub
// id the code loads names the model.
TEST(ExtractionKinds, ASubcommandConfigNameYieldsToTheLoadedModel) {
  Repo r("subcommand_vs_hub_id");
  r.File("train.py",
         "import dataclasses\nimport tyro\nfrom transformers import AutoModelForCausalLM\n"
         "@dataclasses.dataclass\nclass TrainConfig:\n    name: str\n    batch_size: int = 8\n"
         "    num_train_steps: int = 1000\n    lr: float = 2e-5\n"
         "_CONFIGS = [\n    TrainConfig(name='llama_sft_alpaca', batch_size=16, num_train_steps=3000),\n"
         "    TrainConfig(name='llama_sft_dolly', batch_size=32, num_train_steps=2000),\n]\n"
         "def main(cfg: TrainConfig):\n    model = AutoModelForCausalLM.from_pretrained('meta-llama/Llama-2-7b-hf')\n"
         "if __name__ == '__main__':\n"
         "    main(tyro.extras.overridable_config_cli({c.name: (c.name, c) for c in _CONFIGS}))\n");
  WorkloadMetadata md = r.Extract("python train.py llama_sft_dolly");
  EXPECT_EQ(md.model_name, "meta-llama/Llama-2-7b-hf");
  EXPECT_EQ(md.batch_size, 32);
}

}  // namespace
}  // namespace schedmate
