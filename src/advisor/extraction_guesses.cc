#include "advisor/extraction_guesses.h"

#include <algorithm>
#include <cctype>

#include "advisor/extraction_values.h"
#include "advisor/model_type.h"
#include "advisor/run_values.h"

namespace schedmate::extraction {

namespace {

// A package the repository itself holds (ChatGLM's ptuning/trainer.py is not coqui's `trainer`).
bool LocalModule(const State& st, const std::string& module, const std::string& entry) {
  for (const auto& f : ModuleFiles(module, entry, st.cwd))
    if (st.files.count(f)) return true;
  return false;
}

}  // namespace

std::string Framework(const State& st, const std::string& entry, const std::string& launcher) {
  auto called = [&](std::initializer_list<const char*> names) {
    for (const auto& c : st.entry_callees) {
      std::string last = LastSegment(c);
      if (st.bases.count(last)) continue;  // the repository's own class of that name: judged by its bases
      for (const char* n : names)
        if (last == n || c == n) return true;
    }
    return false;
  };
  auto imported = [&](const char* p) { return st.entry_imports.count(p) > 0; };
  bool mm_config = false;
  for (const auto& p : st.config_paths) mm_config = mm_config || EndsWith(p, ".py");
  if (imported("ultralytics") && (entry.find("ultralytics") != std::string::npos || called({"YOLO", "RTDETR"})))
    return "ultralytics";
  if (launcher == "composer" || (imported("composer") && called({"Trainer"}))) return "other";
  // ColossalAI's Booster wraps model, optimizer and step (ZeRO, tensor and
  // pipeline plugins): the loop runs on its engine, not on plain PyTorch.
  if (imported("colossalai") && called({"Booster"})) return "other";
  // `fabric run` / `lightning run model` start the processes a Fabric object
  // joins: the script they launch is a Fabric loop, wherever Fabric() is built.
  if (launcher == "fabric" || launcher == "lightning") return "lightning";
  // A third-party library runs the loop (RL libraries, coqui's trainer, ignite, catalyst).
  // (A module merely named `trainer` in the repository is its own loop; a
  // distinctive library's name is that library even in its own repository.)
  for (const char* lib : {"stable_baselines3", "sb3_contrib", "tianshou", "trainer", "ignite", "catalyst", "rl_games"})
    if (imported(lib) && (std::string(lib) != "trainer" || !LocalModule(st, lib, entry))) return "other";
  if (imported("paddle")) return "paddle";
  if (imported("mxnet")) return "mxnet";
  if (entry.find("fairseq") != std::string::npos || (imported("fairseq") && called({"cli_main", "main"})))
    return "fairseq";
  if (imported("megatron") && called({"pretrain"})) return "megatron";
  // A class the repository defines counts as its bases (LLaVATrainer(Trainer)).
  auto derives = [&](std::initializer_list<const char*> roots) {
    for (const auto& c : st.entry_callees) {
      std::vector<std::string> todo = {LastSegment(c)};
      for (int hop = 0; hop < 6 && !todo.empty(); ++hop) {
        std::vector<std::string> next;
        for (const auto& t : todo) {
          auto it = st.bases.find(t);
          if (it == st.bases.end()) continue;
          for (const auto& b : it->second) {
            for (const char* r : roots)
              if (LastSegment(b) == r && b.find("ABC") == std::string::npos && !st.bases.count(LastSegment(b)))
                return true;
            next.push_back(LastSegment(b));
          }
        }
        todo = next;
      }
    }
    return false;
  };
  if (derives({"Trainer", "Seq2SeqTrainer", "SFTTrainer", "DPOTrainer"}) &&
      (st.imports.count("transformers") || st.imports.count("trl")))
    return "transformers";
  if (derives({"Accelerator"}) && st.imports.count("accelerate")) return "accelerate";
  if (called({"Trainer", "Seq2SeqTrainer", "SFTTrainer", "DPOTrainer", "ORPOTrainer", "KTOTrainer", "RewardTrainer",
              "GRPOTrainer", "PPOTrainer", "TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig",
              "DPOConfig"}) &&
      (imported("transformers") || imported("trl")))
    return "transformers";
  if ((imported("lightning") || imported("pytorch_lightning") || imported("lightning_fabric")) &&
      called({"Trainer", "LightningCLI", "Fabric", "cli_lightning_logo", "fit"}))
    return "lightning";
  bool mm_task = imported("mmcv") || imported("mmdet") || imported("mmseg") || imported("mmpretrain") ||
                 imported("mmaction") || imported("mmpose") || imported("mmrotate") || imported("mmdet3d") ||
                 imported("mmagic") || imported("mmocr");
  // mmengine only for its Config is not its Runner (nor is mmcv's Config
  // beside an Accelerator the entry builds).
  bool hf_accelerator = called({"Accelerator"}) && st.imports.count("accelerate");
  if (imported("mmengine") || mm_task)
    if (called({"from_cfg", "Runner", "train_detector", "train_segmentor", "train_model"}) ||
        (mm_config && mm_task && !hf_accelerator))
      return "mmengine";
  if (imported("detectron2")) return "detectron2";
  // (HF accelerate's Accelerator: audiotools and others have a class of that name.)
  if (called({"Accelerator"}) && st.imports.count("accelerate")) return "accelerate";
  if (launcher == "deepspeed" && !imported("lightning") && !imported("pytorch_lightning")) return "deepspeed";
  if (called({"initialize"}) && imported("deepspeed")) return "deepspeed";
  if (imported("jax") || imported("flax") || imported("optax")) return imported("torch") ? "pytorch" : "jax";
  if (imported("tensorflow") || imported("keras") || imported("tf_keras"))
    return imported("torch") ? "pytorch" : "tensorflow";
  if (imported("megatron")) return "megatron";
  // The loop the repository's own library runs (its trainer class builds an
  // Accelerator, or hands the model to the HF Trainer) is the run's loop too.
  auto called_anywhere = [&](std::initializer_list<const char*> names) {
    for (const auto& c : st.callees) {
      std::string last = LastSegment(c);
      if (st.bases.count(last)) continue;
      for (const char* n : names)
        if (last == n) return true;
    }
    return false;
  };
  if (imported("torch") || st.imports.count("torch")) {
    if (called_anywhere({"Trainer", "Seq2SeqTrainer", "SFTTrainer", "DPOTrainer", "RewardTrainer", "TrainingArguments",
                         "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig"}) &&
        (st.imports.count("transformers") || st.imports.count("trl")))
      return "transformers";
    if (called_anywhere({"Accelerator"}) && st.imports.count("accelerate")) return "accelerate";
  }
  if (imported("torch")) return "pytorch";
  if (imported("transformers")) return "transformers";
  return "";
}

// When nothing names the dataset: known data in a path the run reads
// (`--input_wavs_dir LJSpeech-1.1/wavs`), else the stem of a config file the
// run reads (`ade20k-resnet50-upernet.yaml`), else the directory the command
// runs in (`examples/aishell/asr1`). Only words that are known data exactly.
std::optional<std::pair<std::string, Candidate>> DataHint(State& st) {
  if (const Candidate* c = Best(st, "data_hint", false))
    if (auto n = KnownDataInPath(c->value)) return std::make_pair(*n, *c);
  for (const auto& path : st.config_paths) {
    std::string stem = path.substr(path.rfind('/') + 1);
    stem = stem.substr(0, stem.find('.'));
    std::string w = LexiconWordExact("data", stem);
    if (!w.empty() && Lower(stem).rfind(w, 0) == 0)
      return std::make_pair(w, Candidate{stem, path, "<config file name>", 0, kConfig, 0, 0});
  }
  // Recipe trees name the data after the recipe root: egs/librispeech/asr1, examples/aishell/s0.
  std::vector<std::string> segs = PathSegments(st.cwd);
  for (size_t i = 0; i + 1 < segs.size(); ++i) {
    std::string parent = Lower(segs[i]);
    if (parent != "egs" && parent != "examples" && parent != "recipes" && parent != "example") continue;
    if (std::string w = LexiconWordExact("data", segs[i + 1]); !w.empty())
      return std::make_pair(w, Candidate{st.cwd, "<working directory>", "<working directory>", 0, kCommand, 0, 0});
  }
  return std::nullopt;
}

// A script named after the model family it trains: train_gpt3_175b_distributed.sh
// → gpt3_175b, mujoco_sac.py → sac, dqn_train_eval_atari.py → dqn. Only a word
// that is a lexicon family exactly (with a version number), and its size beside it.
std::optional<std::string> ModelInScriptName(const std::string& path) {
  std::string stem = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  stem = stem.substr(0, stem.rfind('.'));
  if (stem == "__main__" || stem == "__init__") return std::nullopt;
  std::vector<std::string> toks;
  size_t start = 0;
  for (size_t i = 0; i <= stem.size(); ++i)
    if (i == stem.size() || stem[i] == '_' || stem[i] == '-' || stem[i] == '.') {
      if (i > start) toks.push_back(stem.substr(start, i - start));
      start = i + 1;
    }
  auto size_token = [](const std::string& t) {
    std::string l = Lower(t);
    if (l.size() < 2 || !std::isdigit(static_cast<unsigned char>(l[0])) || (l.back() != 'b' && l.back() != 'm'))
      return false;
    return std::all_of(l.begin(), l.end() - 1,
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == 'x' || c == '.'; });
  };
  for (size_t i = 0; i < toks.size(); ++i) {
    std::string l = Lower(toks[i]);
    if (l.size() < 3 || LexiconWordExact("name", l) != l) continue;
    if (i + 1 < toks.size() && size_token(toks[i + 1])) return toks[i] + "_" + toks[i + 1];
    return toks[i];
  }
  return std::nullopt;
}

}  // namespace schedmate::extraction
