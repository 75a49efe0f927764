#include "advisor/field_keys.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <set>

namespace schedmate {
namespace {

using Words = std::vector<std::string>;

bool Has(const Words& w, std::string_view x) { return std::find(w.begin(), w.end(), x) != w.end(); }

bool HasAny(const Words& w, std::initializer_list<std::string_view> xs) {
  for (auto x : xs)
    if (Has(w, x)) return true;
  return false;
}

bool AllIn(const Words& w, std::initializer_list<std::string_view> xs) {
  if (w.empty()) return false;
  for (const auto& x : w)
    if (std::find(xs.begin(), xs.end(), x) == xs.end()) return false;
  return true;
}

bool Is(const Words& w, std::initializer_list<std::string_view> xs) {
  if (w.size() != xs.size()) return false;
  size_t i = 0;
  for (auto x : xs)
    if (w[i++] != x) return false;
  return true;
}

// Words that make a key about something other than the training run's own
// value: evaluation, warm-up, schedules, logging and checkpoint cadence.
bool NotTheRunsValue(const Words& w) {
  return HasAny(w, {"eval", "evaluation", "val", "valid", "validation", "test", "testing", "dev", "warmup", "warm",
                    "decay", "min", "minimum", "final", "end", "start", "log", "logging", "save", "saving", "ckpt",
                    "checkpoint", "print", "sample", "sampling", "gen", "generation", "infer", "inference", "predict",
                    "prediction", "every", "interval", "freq", "frequency", "patience", "accumulation", "accumulate",
                    "accum", "cooldown", "resume", "drop", "mult", "multiplier", "scale", "factor", "ratio", "ema",
                    "teacher", "critic", "disc", "discriminator", "reward", "ref", "rollout", "lrf", "offset", "delay",
                    "display", "vis", "visual", "viz", "plot", "report", "debug", "stop", "restart", "cycle"});
}

bool ParentsExcluded(const Words& parents) {
  return HasAny(parents, {"eval", "evaluation", "val", "valid", "validation", "test", "testing", "dev", "predict",
                          "inference", "infer", "teacher", "ema", "reward", "critic", "ref",
                          "warmup", "visualization", "visualizer", "logger", "callbacks", "hooks", "sampler", "sampling",
                          "generation", "generate", "evaluate"});
}

KeyField Batch(const Words& w) {
  if (HasAny(w, {"norm", "bn", "encoder", "first", "sampler", "batches", "shuffle", "drop", "mode", "base", "ref", "reference", "duration",
                 "image", "roi", "anchor", "proposal", "proposals",
                 "sec", "seconds", "frames", "multiple", "required", "bins", "bucket", "buckets", "epoch", "epochs"}))
    return {};
  bool batch = (Has(w, "batch") && (Has(w, "size") || Has(w, "per") || w.size() == 1 || Is(w, {"train", "batch"}))) ||
               Has(w, "batchsize") || Is(w, {"bs"}) || Is(w, {"batchsize"}) || Is(w, {"imgs", "per", "gpu"}) ||
               Is(w, {"samples", "per", "gpu"}) || Is(w, {"mbs"}) || Is(w, {"gbs"});
  if (!batch) return {};
  if (HasAny(w, {"micro", "device", "gpu", "local", "mbs", "replica"}) || (Has(w, "per") && !Has(w, "ims"))) return {"batch_size", 3};
  if (HasAny(w, {"global", "total", "effective", "gbs"})) return {"batch_size", 1};
  return {"batch_size", 2};
}

KeyField Steps(const Words& w) {
  // Megatron's --train-samples: a budget in samples (steps are that over the global batch).
  if (Is(w, {"train", "samples"})) return {"steps", 2};
  // An RL budget in environment steps or frames: num_env_steps, train_for_env_steps, num_train_frames.
  bool env = Has(w, "env") || Has(w, "environment");
  bool part = HasAny(w, {"per", "eval", "log", "save", "warmup", "step", "collect", "collection", "rollout", "batch"});
  if ((env && HasAny(w, {"steps", "timesteps", "frames"}) && !part) ||
      (Has(w, "frames") && HasAny(w, {"train", "total", "training"}) && !HasAny(w, {"per", "eval", "warmup"})))
    return {"steps", 3};
  static const std::set<std::string> kUnits = {"steps", "step", "iters", "iter", "iterations", "iteration",
                                               "updates", "update", "timesteps", "kimg", "itrs", "its"};
  std::string unit;
  int units = 0;
  for (const auto& x : w)
    if (kUnits.count(x)) {
      unit = x;
      ++units;
    }
  if (units > 1 && !Is(w, {"steps", "iters"})) return {};  // update_step: not a budget
  if (unit.empty() || HasAny(w, {"per", "size", "lr", "gamma", "schedule", "milestones"})) return {};
  if (unit == "timesteps" && (!HasAny(w, {"total", "max", "num", "n"}) || Has(w, "train")))
    return {};  // num_train_timesteps: a diffusion's noise steps; num/total_timesteps: an RL budget
  if (unit == "step" && w.size() == 1) return {};                       // --step: ambiguous
  static const std::set<std::string> kPrefix = {"max", "num", "total", "train", "training", "n", "nb", "number", "k",
                                                "steps", "iters", "iterations", "updates", "kimg", "opt", "optim", "itrs", "its"};
  for (const auto& x : w)
    if (!kPrefix.count(x) && !kUnits.count(x)) return {};
  bool strong = HasAny(w, {"max", "total", "train", "training"}) || unit == "kimg";
  return {"steps", strong ? 3 : 2};
}

KeyField Epochs(const Words& w) {
  if (!HasAny(w, {"epochs", "epoch", "nepoch", "nepochs", "epoches"})) return {};
  if (HasAny(w, {"per", "size", "lr", "milestones", "length", "len"})) return {};
  static const std::set<std::string> kOk = {"max", "num", "total", "train", "training", "n", "nb", "number",
                                            "epochs", "epoch", "nepoch", "nepochs", "epoches"};
  for (const auto& x : w)
    if (!kOk.count(x)) return {};
  if (Is(w, {"epoch"})) return {"epochs", 1};  // --epoch 100 (tianshou); library counters are not read
  return {"epochs", HasAny(w, {"max", "num", "train", "total"}) ? 3 : 2};
}

KeyField LearningRate(const Words& w) {
  if (HasAny(w, {"scheduler", "sched", "policy", "type", "lrs", "backbone", "head", "embed", "embedding"})) return {};
  if (Is(w, {"lr"}) || Is(w, {"learning", "rate"}) || Is(w, {"lr0"}) || Is(w, {"lr", "rate"}) || Is(w, {"lrate"}))
    return {"learning_rate", 2};
  // One part's rate (lr_encoder, learning_rate_weights, g_lr): the run's when nothing plainer is set.
  bool rate = (w.size() == 2 && HasAny(w, {"lr", "lrate"})) || (w.size() == 3 && Has(w, "learning") && Has(w, "rate"));
  // An actor-critic agent's policy rate (actor_lr, pi_lr, actor_learning_rate) is the one reported.
  if (rate && HasAny(w, {"encoder", "decoder", "weights", "generator", "g", "model", "net", "network", "actor", "pi"}))
    return {"learning_rate", 1};
  if (Is(w, {"base", "lr"}) || Is(w, {"base", "learning", "rate"})) return {"learning_rate", 3};
  if (w.size() == 2 && HasAny(w, {"max", "peak", "train", "optimizer", "opt", "adam", "sgd"}) && HasAny(w, {"lr"}))
    return {"learning_rate", 2};
  if (w.size() == 3 && HasAny(w, {"max", "peak", "train"}) && Has(w, "learning") && Has(w, "rate"))
    return {"learning_rate", 2};
  // An initial rate (init_lr, initial_learning_rate) is where a warm-up starts
  // in many schedules (init_lr 1e-10 beside peak_lr 1e-4) and the base rate in
  // others (Keras decay schedules): the run's rate only when nothing plainer is set.
  if (w.size() == 2 && HasAny(w, {"init", "initial"}) && HasAny(w, {"lr"})) return {"learning_rate", 1};
  if (w.size() == 3 && HasAny(w, {"init", "initial"}) && Has(w, "learning") && Has(w, "rate"))
    return {"learning_rate", 1};
  return {};
}

KeyField ModelName(const Words& w, const Words& parent_last) {
  if (Is(w, {"model", "name", "or", "path"}) || Is(w, {"pretrained", "model", "name", "or", "path"}) ||
      Is(w, {"base", "model"}) || Is(w, {"base", "model", "name"}))
    return {"model_name", 3};
  if (Is(w, {"model", "id"})) return {"model_name", 2};  // a hub id, or a run's id (ETTh1_96_96)
  if (Is(w, {"model"}) || Is(w, {"model", "name"}) || Is(w, {"arch"}) || Is(w, {"architecture"}) ||
      Is(w, {"model", "arch"}) || Is(w, {"model", "architecture"}) || Is(w, {"model", "type"}) ||
      Is(w, {"model", "config"}) || Is(w, {"model", "cfg"}))
    return {"model_name", 2};
  if (Is(w, {"backbone"}) || Is(w, {"network"}) || Is(w, {"net"}) || Is(w, {"model", "path"}) ||
      Is(w, {"pretrained", "model"}) || Is(w, {"model", "size"}) || Is(w, {"hf", "model"}) || Is(w, {"model", "card"}))
    return {"model_name", 1};
  bool model_parent = AllIn(parent_last, {"model", "network", "arch", "net", "generator", "backbone", "pretrained", "cfg", "config", "args", "g", "trunk", "encoder"}) &&
                      HasAny(parent_last, {"model", "network", "arch", "net", "generator", "backbone", "trunk", "encoder"});
  if (model_parent && (Is(w, {"name"}) || Is(w, {"type"}) || Is(w, {"arch"}) || Is(w, {"name", "or", "path"}) ||
                       Is(w, {"pretrained", "model", "name", "or", "path"}) || Is(w, {"id"}) ||
                       Is(w, {"path"}) || Is(w, {"target"}) || Is(w, {"class", "path"})))
    return {"model_name", Has(parent_last, "backbone") ? 1 : 2};
  // The policy an agent trains (policy.type=act, agent.name=sac): the run's model.
  if (parent_last.size() == 1 && HasAny(parent_last, {"policy", "agent"}) && (Is(w, {"type"}) || Is(w, {"name"})))
    return {"model_name", 2};
  return {};
}

KeyField Dataset(const Words& w, const Words& parent_last, bool data_root) {
  if (Is(w, {"dataset"}) || Is(w, {"dataset", "name"}) || Is(w, {"data", "name"}) || Is(w, {"dataset", "type"}) ||
      Is(w, {"train", "dataset"}) || Is(w, {"train", "dataset", "name"}) || Is(w, {"datasets"}) ||
      Is(w, {"dataset", "id"}) || Is(w, {"data", "set"}) || Is(w, {"dataset", "names"}) ||
      Is(w, {"mixture", "or", "task", "name"}) || Is(w, {"training", "dataset"}) ||
      Is(w, {"training", "dataset", "name"}) || Is(w, {"train", "dataset", "id"}))
    return {"dataset", 3};
  if (Is(w, {"data"}) || Is(w, {"data", "path"}) || Is(w, {"data", "dir"}) || Is(w, {"train", "file"}) ||
      Is(w, {"train", "data"}) || Is(w, {"dataset", "path"}) || Is(w, {"train", "data", "path"}) ||
      Is(w, {"data", "file"}) || Is(w, {"dataset", "dir"}) || Is(w, {"train", "dir"}) || Is(w, {"data", "config"}) ||
      Is(w, {"train", "path"}) || Is(w, {"data", "files"}) || Is(w, {"train", "files"}) || Is(w, {"dataset", "root"}) ||
      Is(w, {"training", "files"}) || Is(w, {"train", "filelist"}) || Is(w, {"training", "file"}) ||
      Is(w, {"train", "manifest"}) || Is(w, {"train", "jsonl"}) || Is(w, {"train", "dataset", "path"}) ||
      Is(w, {"training", "dataset", "path"}) || Is(w, {"data", "local"}))  // streaming data_local
    return {"dataset", 2};
  // Reinforcement learning trains on an environment.
  if (Is(w, {"env", "id"}) || Is(w, {"env"}) || Is(w, {"env", "name"}) || Is(w, {"environment"}) ||
      Is(w, {"gym", "id"}) || Is(w, {"env", "type"}) || ((Is(w, {"id"}) || Is(w, {"name"})) && Is(parent_last, {"env"})) ||
      Is(w, {"game"}))  // Atari: --game Pong
    return {"dataset", 2};
  if (w.size() == 3 && HasAny(w, {"instance", "source", "input", "train", "training"}) && Has(w, "data") &&
      HasAny(w, {"dir", "root", "path", "folder"}))
    return {"dataset", 1};
  if (Is(w, {"data", "root"}) || Is(w, {"root"}) || Is(w, {"dataroot"}) || Is(w, {"data", "prefix"}))
    return {"dataset", Is(w, {"root"}) && !HasAny(parent_last, {"data", "dataset", "train"}) ? 0 : 1};
  bool data_parent = (AllIn(parent_last, {"data", "dataset", "datasets", "train", "dataloader", "training", "loader", "cfg", "config", "args"}) &&
                      HasAny(parent_last, {"data", "dataset", "datasets"})) ||
                     (AllIn(parent_last, {"train", "training", "params"}) && data_root);
  if (data_parent && Is(w, {"name"})) return {"dataset", 3};  // a data section's name over its loader type
  // A data section's path or hub id names the data over its type (a loader
  // class or a prompt format: `datasets: [{path: org/data, type: alpaca}]`).
  if (data_parent && (Is(w, {"path"}) || Is(w, {"id"}) || Is(w, {"local"}) || Is(w, {"hf", "name"}) || Is(w, {"repo", "id"})))
    return {"dataset", 3};
  if (data_parent && (Is(w, {"type"}) || Is(w, {"target"}) || Is(w, {"class", "path"})))
    return {"dataset", 2};
  return {};
}

// A precision switch spelled with a verb: fp16_run, use_fp16, enable_bf16,
// amp_training, train_with_amp — one precision word, the rest switch words.
bool PrecisionSwitch(const Words& w, std::initializer_list<std::string_view> precision_words) {
  if (w.size() < 2 || w.size() > 3) return false;
  int named = 0;
  for (const auto& x : w) {
    if (std::find(precision_words.begin(), precision_words.end(), x) != precision_words.end()) {
      ++named;
      continue;
    }
    if (x != "use" && x != "enable" && x != "enabled" && x != "run" && x != "train" && x != "training" &&
        x != "with" && x != "do")
      return false;
  }
  return named == 1;
}

KeyField Precision(const Words& w, const Words& parent_last) {
  if (Is(w, {"precision"}) || Is(w, {"mixed", "precision"}) || Is(w, {"amp", "dtype"}) ||
      Is(w, {"compute", "dtype"}) || Is(w, {"train", "dtype"}) || Is(w, {"dtype"}) || Is(w, {"autocast", "dtype"}) ||
      Is(w, {"param", "dtype"}) || Is(w, {"compute", "precision"}) || Is(w, {"training", "precision"}) ||
      Is(w, {"torch", "dtype"}) || Is(w, {"model", "dtype"}))
    return {"precision", Is(w, {"dtype"}) || Is(w, {"param", "dtype"}) || Is(w, {"torch", "dtype"}) || Is(w, {"model", "dtype"}) ? 1 : 2};
  // A mixed-precision policy's parameter dtype (mixed_precision_param: bfloat16,
  // mixed_precision_dtype): the dtype the model computes in, as param_dtype is.
  if (Is(w, {"mixed", "precision", "param"}) || Is(w, {"mixed", "precision", "dtype"}) ||
      Is(w, {"mixed", "precision", "param", "dtype"}))
    return {"precision", 1};
  if (Is(w, {"fp8"}) || Is(w, {"use", "fp8"}) || Is(w, {"fp8", "format"}) || Is(w, {"fp8", "recipe"}))
    return {"fp8", 2};
  if (Is(w, {"fp32"}) || Is(w, {"full", "precision"}) || Is(w, {"no", "amp"}) || Is(w, {"disable", "amp"}))
    return {"fp32", 2};
  if (Is(w, {"fp16"}) || Is(w, {"use", "fp16"}) || Is(w, {"half"}) || Is(w, {"fp16", "enabled"}) ||
      (Is(w, {"enabled"}) && Has(parent_last, "fp16")) || Is(w, {"float16"}) || PrecisionSwitch(w, {"fp16", "half", "float16"}))
    return {"fp16", 2};
  if (Is(w, {"bf16"}) || Is(w, {"use", "bf16"}) || Is(w, {"use", "bfloat16"}) || Is(w, {"bf16", "enabled"}) || Is(w, {"bfloat16"}) ||
      (Is(w, {"enabled"}) && HasAny(parent_last, {"bf16", "bfloat16"})) || PrecisionSwitch(w, {"bf16", "bfloat16"}))
    return {"bf16", 2};
  if (Is(w, {"amp"}) || Is(w, {"use", "amp"}) || Is(w, {"enable", "amp"}) || Is(w, {"mixed"}) ||
      Is(w, {"autocast"}) || Is(w, {"use", "mixed", "precision"}) || (Is(w, {"enabled"}) && Has(parent_last, "amp")) ||
      PrecisionSwitch(w, {"amp", "autocast"}))
    return {"amp", 2};
  return {};
}

}  // namespace

std::vector<std::string> KeyWords(std::string_view key) {
  std::vector<std::string> out;
  std::string cur;
  char prev = 0;
  for (char c : key) {
    bool alnum = std::isalnum(static_cast<unsigned char>(c));
    if (!alnum) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      // camelCase boundary: "perDevice" → per, device
      if (std::isupper(static_cast<unsigned char>(c)) && std::islower(static_cast<unsigned char>(prev)) && !cur.empty()) {
        out.push_back(cur);
        cur.clear();
      }
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    prev = c;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

KeyField ClassifyKey(std::string_view key) {
  while (!key.empty() && (key[0] == '-' || key[0] == '+' || key[0] == '~')) key.remove_prefix(1);
  size_t dot = key.rfind('.');
  std::string_view last = dot == std::string_view::npos ? key : key.substr(dot + 1);
  std::string_view parents = dot == std::string_view::npos ? std::string_view() : key.substr(0, dot);
  Words w = KeyWords(last);
  Words parent_words = KeyWords(parents);
  // The nearest parent that is not a list index ("datasets.0.path" → datasets).
  Words parent_last;
  std::string_view rest = parents;
  while (!rest.empty() && parent_last.empty()) {
    size_t pdot = rest.rfind('.');
    std::string_view seg = pdot == std::string_view::npos ? rest : rest.substr(pdot + 1);
    bool numeric = !seg.empty() && std::all_of(seg.begin(), seg.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!numeric) parent_last = KeyWords(seg);
    rest = pdot == std::string_view::npos ? std::string_view() : rest.substr(0, pdot);
  }
  if (w.empty() || w.size() > 6) return {};
  if (ParentsExcluded(parent_words)) return {};
  if (HasAny(parent_words, {"rpn", "roi", "heads", "anchor", "preprocessor", "transform", "transforms", "pipeline", "collate", "collator", "processor",
                            "augmentation", "aug", "tokenizer", "loss", "criterion", "metric", "metrics"}))
    return {};
  // The key's first segment is a data section ("data.params.train.target").
  Words first_words = KeyWords(parents.substr(0, parents.find('.')));
  bool data_root = AllIn(first_words, {"data", "dataset", "datasets", "train", "dataloader"}) &&
                   HasAny(first_words, {"data", "dataset", "datasets"});
  if (KeyField k = Precision(w, parent_last); !k.field.empty()) return k;
  if (Is(w, {"mock", "data"}) || Is(w, {"synthetic", "data"}) || Is(w, {"fake", "data"}) || Is(w, {"dummy", "data"}) ||
      Is(w, {"use", "synthetic", "data"}))
    return {"mock_data", 2};
  if (Is(w, {"accelerator"})) return {"accelerator", 2};
  if (Is(w, {"world", "size"}) || Is(w, {"distributed", "world", "size"})) return {"world_size", 2};
  if ((Is(w, {"name"}) || Is(w, {"type"})) && (Is(parent_last, {"algo"}) || Is(parent_last, {"algorithm"})))
    return {"model_name", 2};
  if (Is(w, {"alg"}) || Is(w, {"algo"}) || Is(w, {"algorithm"}) || Is(w, {"algo", "name"}) ||
      Is(w, {"algorithm", "name"}) || Is(w, {"agent", "name"}))
    return {"model_name", 2};  // RL: --alg=ppo2, algo_name: bc, --agent_name=dqn
  if ((Is(w, {"task", "name"}) || Is(w, {"task", "names"})) &&
      !HasAny(parent_words, {"trainer", "engine", "runner", "logging", "wandb"}))
    return {"dataset", 1};  // GLUE-style task names
  if (Is(w, {"problem"}) || Is(w, {"problems"})) return {"dataset", 2};  // tensor2tensor: --problem
  // yacs/HRNet-style TRAIN.END_EPOCH (beside BEGIN_EPOCH 0) is the run's budget, under a
  // train section only: another section's end_epoch (mixup.end_epoch: when an
  // augmentation stops) is not, nor are other `end` keys.
  if (Is(w, {"end", "epoch"}) && (Is(parent_last, {"train"}) || Is(parent_last, {"training"})))
    return {"epochs", 2};
  if (NotTheRunsValue(w)) return {};
  for (KeyField k : {Batch(w), Steps(w), Epochs(w), LearningRate(w), ModelName(w, parent_last), Dataset(w, parent_last, data_root)})
    if (!k.field.empty()) {
      // A learning-rate schedule's own length (LearningRate.schedulers.0.max_epochs,
      // lr_scheduler.max_steps) yields to the run's budget where both are set.
      if ((k.field == "steps" || k.field == "epochs") && k.specificity > 0 &&
          HasAny(parent_words, {"scheduler", "schedulers", "sched", "learningrate", "lr", "optimizer", "optim"}))
        k.specificity = 0;
      // A part's class (model.encoder._target_: ConvASREncoder) is not the model's name.
      if (k.field == "model_name" && HasAny(parent_last, {"encoder", "decoder", "backbone", "neck", "head", "heads"}))
        return {};
      // One part's rate (backbone_training.lr_configs.base_learning_rate, head.lr)
      // yields to the run's own rate where both are set.
      if (k.field == "learning_rate" && k.specificity > 0 &&
          HasAny(parent_words, {"backbone", "head", "heads", "neck", "embed", "embedding", "embeddings"}))
        k.specificity = 0;
      return k;
    }
  static const std::vector<std::pair<std::vector<std::string>, std::string>> kSimple = {
      {{"device"}, "device"},          {{"gpu", "ids"}, "device"},     {{"gpu"}, "device"},
      {{"gpu", "id"}, "device"},       {{"device", "ids"}, "device"},
      {{"devices"}, "devices"},        {{"gpus"}, "devices"},          {{"num", "gpus"}, "devices"},
      {{"n", "gpu"}, "devices"},       {{"ngpus"}, "devices"},         {{"n", "gpus"}, "devices"},
      {{"gpus", "per", "node"}, "devices"}, {{"nproc", "per", "node"}, "devices"},
      {{"num", "nodes"}, "num_nodes"}, {{"nnodes"}, "num_nodes"},      {{"nodes"}, "num_nodes"},
      {{"n", "nodes"}, "num_nodes"},   {{"num", "devices"}, "devices"},   {{"tasks", "per", "node"}, "devices"}, {{"num", "proc", "per", "node"}, "devices"},      {{"num", "machines"}, "num_nodes"},
      {{"d", "model"}, "d_model"},     {{"hidden", "size"}, "d_model"}, {{"n", "embd"}, "d_model"},
      {{"embed", "dim"}, "d_model"},   {{"hidden", "dim"}, "d_model"},  {{"n", "layer"}, "num_layers"},
      {{"num", "layers"}, "num_layers"}, {{"num", "hidden", "layers"}, "num_layers"}, {{"n", "layers"}, "num_layers"},
      {{"depth"}, "num_layers"},       {{"seq", "len"}, "seq_len"},    {{"seq", "length"}, "seq_len"},
      {{"max", "seq", "length"}, "seq_len"}, {{"block", "size"}, "seq_len"}, {{"max", "length"}, "seq_len"},
      {{"context", "length"}, "seq_len"}, {{"max", "seq", "len"}, "seq_len"}, {{"num", "workers"}, "num_workers"},
      {{"workers"}, "num_workers"},    {{"dataloader", "num", "workers"}, "num_workers"},
      {{"num", "processes"}, "devices"}};
  for (const auto& [words, field] : kSimple) {
    if (w.size() != words.size()) continue;
    size_t i = 0;
    bool eq = true;
    for (auto x : words) eq = eq && w[i++] == x;
    if (eq) return {field, 2};
  }
  return {};
}

}  // namespace schedmate
