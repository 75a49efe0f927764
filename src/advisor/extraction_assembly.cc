#include "advisor/extraction_assembly.h"

#include <algorithm>
#include <cctype>

#include "advisor/extraction_guesses.h"
#include "advisor/extraction_values.h"
#include "advisor/field_keys.h"
#include "advisor/model_type.h"
#include "advisor/run_values.h"

namespace schedmate::extraction {
namespace {

// `autocast_dtype: bfloat16` beside `autocast: false`, `--amp-dtype float16`
// without `--amp`: the dtype of a mixed-precision switch that is off says
// nothing about the run's precision.
bool DtypeOfASwitchThatIsOff(State& st, const Candidate& c) {
  std::vector<std::string> w = KeyWords(LastSegment(c.key));
  const bool of_a_switch = std::find(w.begin(), w.end(), "dtype") != w.end() &&
                           (std::find(w.begin(), w.end(), "autocast") != w.end() ||
                            std::find(w.begin(), w.end(), "amp") != w.end());
  if (!of_a_switch) return false;
  const Candidate* on = Best(st, "amp", false);
  return on && IsFalse(on->value);
}

}  // namespace

WorkloadMetadata Assemble(State& st, const Launch& l, const std::string& entry) {
  const LaunchSpec& spec = l.spec;
  WorkloadMetadata md;
  md.extractor = "embedded";
  md.files_read = st.read;
  auto note = [&](const char* field, const Candidate& c) { md.sources.push_back({field, c.file, c.line, c.key}); };
  auto unresolved = [&](const char* field, std::string why) { md.unresolved.emplace_back(field, std::move(why)); };

  // A model or dataset name, or why there is none (a placeholder, or nothing read).
  std::string model_name_key;  // the key the model name came from
  auto name = [&](const char* field, const char* nothing) -> std::optional<std::string> {
    std::string rejected;
    if (const Candidate* c = Best(st, field, false, &rejected)) {
      std::string why;
      if (auto n = NameOf(c->value, std::string(field) == "dataset", &why)) {
        note(field, *c);
        if (std::string(field) == "model_name") model_name_key = c->key;
        return std::string(field) == "model_name" ? WithVariant(st, *c, *n) : *n;
      }
    }
    unresolved(field, rejected.empty() ? nothing : rejected);
    return std::nullopt;
  };
  md.model_name = name("model_name", "no model name in the command, configs or code read");
  if (!md.model_name) {
    // Scripts are named after the model they train (train_gpt3_175b.sh, atari_ppo.py).
    std::vector<std::string> scripts = st.wrappers;
    scripts.push_back(entry);
    for (const auto& s : scripts)
      if (auto n = ModelInScriptName(s)) {
        md.model_name = *n;
        md.sources.push_back({"model_name", s, 0, "<script name>"});
        md.unresolved.erase(std::remove_if(md.unresolved.begin(), md.unresolved.end(),
                                           [](const auto& u) { return u.first == "model_name"; }),
                            md.unresolved.end());
        break;
      }
  }
  // A CLI's first bare word that is a model family exactly (`python -m spinup.run ppo`,
  // `train.py sac --env X`): the algorithm or model the run trains.
  // Words owned by an nargs='+' option (`--baselines ppo sac`) are its values, not bare words.
  std::set<std::string> owned = NargsOwnedWords(st, spec.args);
  auto bare = std::find_if(spec.positional.begin(), spec.positional.end(),
                           [&](const std::string& p) { return !owned.count(p); });
  if (!md.model_name && bare != spec.positional.end()) {
    const std::string& w = *bare;
    if (w.size() >= 3 && w.find_first_of("/.=:") == std::string::npos && LexiconWordExact("name", w) == Lower(w)) {
      md.model_name = w;
      md.sources.push_back({"model_name", "<command>", 0, "<first bare word>"});
      md.unresolved.erase(std::remove_if(md.unresolved.begin(), md.unresolved.end(),
                                         [](const auto& u) { return u.first == "model_name"; }),
                          md.unresolved.end());
    }
  }
  const Candidate* mock = Best(st, "mock_data", false);
  if (mock && IsTrue(mock->value) && mock->precedence >= kConfig) {
    md.dataset = "mock";
    note("dataset", *mock);
  } else {
    md.dataset = name("dataset", "no dataset in the command, configs or code read");
  }
  if (!md.dataset)
    if (auto hint = DataHint(st)) {
      md.dataset = hint->first;
      note("dataset", hint->second);
      md.unresolved.erase(std::remove_if(md.unresolved.begin(), md.unresolved.end(),
                                         [](const auto& u) { return u.first == "dataset"; }),
                          md.unresolved.end());
    }
  // Megatron's --train-samples is the run's budget in samples only in a
  // Megatron-style argument set (a micro or global batch size beside it);
  // elsewhere a `train_samples` option subsets the dataset (use 10000 images)
  // and says nothing of how long the run trains.
  if (auto f = st.fields.find("steps"); f != st.fields.end()) {
    auto has = [&](const char* k) {
      auto v = st.values.find(k);
      return v != st.values.end() && !IsUnset(v->second.value);
    };
    bool megatron = has("micro_batch_size") || has("global_batch_size");
    if (!megatron)
      for (auto it = f->second.begin(); it != f->second.end();)
        if (KeyWords(LastSegment(it->first)) == std::vector<std::string>{"train", "samples"})
          it = f->second.erase(it);
        else
          ++it;
  }
  const Candidate* steps = Best(st, "steps", true);
  const Candidate* epochs = Best(st, "epochs", true);
  // Samples over a global batch Megatron derives (micro batch × data-parallel
  // size): divided once the GPU count is known.
  std::optional<int64_t> samples_over_dp_batch;
  auto positive = [](const Candidate* c) { return c && ToNumber(c->value).value_or(0) > 0; };
  // A positive step budget set at least as late as the epochs stops the run
  // (HF: max_steps > 0 overrides num_train_epochs).
  bool use_steps = positive(steps) &&
                   (!positive(epochs) || steps->precedence > epochs->precedence ||
                    (steps->precedence == epochs->precedence && steps->specificity >= 3 && epochs->specificity < 3) ||
                    epochs->precedence == kLibrary);
  if (use_steps) {
    md.training_iterations = ToCount(steps->value);
    const Candidate* gbs = nullptr;
    if (auto g = st.fields.find("batch_size"); g != st.fields.end())
      for (const auto& [k, c] : g->second)
        if (c.specificity == 1 && ToCount(c.value).value_or(0) > 0 && (!gbs || c.precedence > gbs->precedence))
          gbs = &c;
    std::vector<std::string> w = KeyWords(LastSegment(steps->key));
    bool kimg = std::find(w.begin(), w.end(), "kimg") != w.end();
    bool samples = std::find(w.begin(), w.end(), "samples") != w.end();
    if ((kimg || samples) && md.training_iterations) {
      // StyleGAN's kimg and Megatron's train_samples count images/samples: steps are that over the global batch.
      const Candidate* b = gbs ? gbs : Best(st, "batch_size", true);
      int64_t batch = b ? ToCount(b->value).value_or(0) : 0;
      // Without --global-batch-size, Megatron's global batch is the micro
      // batch times the data-parallel size: not the micro batch alone.
      if (samples && !gbs) {
        if (batch > 0) samples_over_dp_batch = *md.training_iterations / batch;
        batch = 0;
      }
      // Megatron's --rampup-batch-size grows the batch over the first samples:
      // the step count depends on the ramp, not samples over one batch.
      auto ramp = st.values.find("rampup_batch_size");
      if (samples && ramp != st.values.end() && !IsUnset(ramp->second.value)) batch = 0;
      if (samples && ramp != st.values.end() && !IsUnset(ramp->second.value)) samples_over_dp_batch.reset();
      if (batch > 0)
        md.training_iterations = *md.training_iterations * (kimg ? 1000 : 1) / batch;
      else
        md.training_iterations.reset();
    }
    if (md.training_iterations) {
      md.iteration_type = "step";
      note("training_iterations", *steps);
    }
  } else if (positive(epochs)) {
    md.training_iterations = ToCount(epochs->value);
    // max_epochs=10000000: a run-until-stopped sentinel, no budget.
    if (md.training_iterations && *md.training_iterations >= 1000000) {
      unresolved("training_iterations", "an epoch budget of " + epochs->value + " (" + epochs->key +
                                            ") only means the run goes on until stopped");
      md.training_iterations.reset();
    }
    if (md.training_iterations) {
      md.iteration_type = "epoch";
      note("training_iterations", *epochs);
    }
  }
  if (!md.training_iterations && !positive(epochs) && !positive(steps))
    unresolved("training_iterations", "no step or epoch budget found");
  else if (!md.training_iterations && use_steps)
    unresolved("training_iterations", "the step budget (" + steps->key + ") could not be turned into steps");
  if (const Candidate* c = Best(st, "batch_size", true)) {
    md.batch_size = ToCount(c->value);
    if (md.batch_size) note("batch_size", *c);
  }
  // Budget batching when no batch size is set: fairseq's --max-tokens (also
  // as its config's dataset.max_tokens) and lhotse's --max-duration (seconds
  // of audio per batch, in a run that uses lhotse's samplers).
  for (const char* budget : {"max_tokens", "dataset.max_tokens", "max_duration"}) {
    if (md.batch_size) break;
    bool duration = std::string(budget) == "max_duration";
    if (duration && !st.imports.count("lhotse")) continue;
    auto it = st.values.find(budget);
    if (it == st.values.end() || it->second.precedence < (duration ? kImported : kConfig)) continue;
    if (auto n = ToCount(it->second.value); n && *n > 0) {
      md.batch_size = n;
      md.sources.push_back({"batch_size", it->second.file, it->second.line, it->second.key});
    }
  }
  if (!md.batch_size) unresolved("batch_size", "no batch size found");
  if (const Candidate* c = Best(st, "learning_rate", true)) {
    if (std::string other = OtherPartsRate(st, *c); !other.empty()) {
      unresolved("learning_rate",
                 "the parts train at different rates (" + c->key + " " + c->value + ", " + other + ")");
    } else {
      md.learning_rate = ToNumber(c->value);
      note("learning_rate", *c);
    }
  } else {
    unresolved("learning_rate", "no learning rate found");
  }
  if (const Candidate* c = Best(st, "d_model", true)) md.d_model = ToCount(c->value);
  if (const Candidate* c = Best(st, "num_layers", true)) md.num_layers = ToCount(c->value);
  if (const Candidate* c = Best(st, "seq_len", true)) md.seq_len = ToCount(c->value);
  if (const Candidate* c = Best(st, "num_workers", true))
    if (auto n = ToCount(c->value)) md.num_workers = static_cast<int32_t>(*n);

  // Precision: a named precision, else the flags, else the launcher's, else
  // autocast in the code, else full precision.
  std::optional<std::string> precision;
  bool precision_by_absence = false;  // fp32 only because nothing turned mixed precision on
  if (const Candidate* f8 = Best(st, "fp8", false);
      f8 && (IsTrue(f8->value) || Lower(f8->value) == "hybrid" || Lower(f8->value) == "e4m3" ||
             Lower(f8->value) == "delayed")) {
    precision = "fp8";
    note("precision", *f8);
  }
  if (!precision)
    if (const Candidate* c = Best(st, "precision", false); c && !DtypeOfASwitchThatIsOff(st, *c)) {
      precision = PrecisionOf(c->value);
      if (precision) note("precision", *c);
    }
  if (!precision && !spec.launcher_precision.empty()) precision = PrecisionOf(spec.launcher_precision);
  if (!precision) {
    const Candidate* bf = Best(st, "bf16", false);
    const Candidate* fp = Best(st, "fp16", false);
    const Candidate* amp = Best(st, "amp", false);
    const Candidate* full = Best(st, "fp32", false);
    if (bf && IsTrue(bf->value))
      precision = "bf16";
    else if (fp && IsTrue(fp->value))
      precision = "fp16";
    else if (bf && Lower(bf->value) == "auto")
      precision = "bf16";
    else if (full && !IsTrue(full->value) && !fp && !amp)
      precision = "fp16";  // --fp32 False: mixed precision on
    else if (amp && IsTrue(amp->value))
      precision = "fp16";
    else if (amp && PrecisionOf(amp->value))
      precision = PrecisionOf(amp->value);
    else if (bf || fp || amp || full)
      precision = "fp32";
  }
  if (!precision) {
    bool autocast = false, bf = false;
    std::string switch_key;
    autocast = st.mixed_always;
    if (!autocast)
      for (const auto& k : st.mixed_switches) {
        const Candidate* v = SwitchValue(st, k);
        if (!v || !(IsTrue(v->value) || IsFalse(v->value))) {
          switch_key = k;
          continue;
        }
        autocast = autocast || IsTrue(v->value);
        switch_key.clear();
        if (autocast) break;
      }
    for (const auto& c : st.callees) bf = bf || c.find("bfloat16") != std::string::npos;
    bf = bf || st.autocast_bf16;
    if (!autocast && !switch_key.empty())
      unresolved("precision", "mixed precision is switched by '" + switch_key + "', whose value was not found");
    else
      precision = autocast ? (bf ? "bf16" : "fp16") : "fp32";
    precision_by_absence = !autocast;
  }
  if (precision && (*precision == "bf16" || *precision == "fp16") && !st.autocast_dtype.empty() &&
      !Best(st, "precision", false))
    precision = st.autocast_dtype;  // the flag turns autocast on; its literal dtype says which
  md.precision = precision;

  // GPUs: the launcher's processes × nodes, the batch system's resources, a
  // devices/gpus setting, CUDA_VISIBLE_DEVICES; one for a plain launch.
  int nodes = spec.nnodes.value_or(l.sbatch_nodes.value_or(1));
  bool nodes_on_command = false;  // the command itself sets the node count (--num_nodes 2)
  if (const Candidate* c = Best(st, "num_nodes", true))
    if (auto n = ToCount(c->value); n && *n > 0 && !spec.nnodes) {
      nodes = static_cast<int>(*n);
      nodes_on_command = c->precedence == kCommand;
    }
  md.hardware.num_nodes = nodes;
  std::string fw = Framework(st, entry, spec.launcher);
  bool launcher_default_all = spec.launcher == "deepspeed" || spec.launcher == "accelerate";
  const Candidate* dev_setting = Best(st, "devices", false);
  if (dev_setting && launcher_default_all && dev_setting->precedence < kConfig) dev_setting = nullptr;
  // CUDA_VISIBLE_DEVICES set for this run says more than a script's default device list;
  // a device list that is only a script's default (--devices 0,1,2,3) is not the run's.
  if (dev_setting && spec.visible_devices && dev_setting->precedence < kCommand) dev_setting = nullptr;
  if (dev_setting && dev_setting->precedence < kConfig && DeviceCount(dev_setting->value).value_or(1) > 1 &&
      dev_setting->value.find(',') != std::string::npos)
    dev_setting = nullptr;
  const Candidate* accel = Best(st, "accelerator", false);
  const Candidate* world = Best(st, "world_size", true);
  // `--use_tpu` (absl/TF estimators), `accelerator: tpu`: the run uses TPU cores, not GPUs.
  auto use_tpu = st.values.find("use_tpu");
  bool on_tpu = ((use_tpu != st.values.end() && IsTrue(use_tpu->second.value)) ||
                 (accel && Lower(accel->value) == "tpu")) &&
                !spec.nproc_per_node;
  if (accel && Lower(accel->value) == "cpu") {
    md.hardware.num_gpus = 0;
    note("hardware.num_gpus", *accel);
  } else if (on_tpu) {
    unresolved("hardware.num_gpus", "the run is on TPU cores, not GPUs");
  } else if (world && world->precedence >= kConfig && ToCount(world->value).value_or(0) > 0 && !spec.nproc_per_node &&
             !st.spawns_per_gpu && !spec.nproc_unknown) {
    // With mp.spawn, --world-size counts nodes. Under a launcher whose process
    // count is a placeholder (torchrun --nproc-per-node NUM_GPU), a config's
    // world_size is only the default the launcher's WORLD_SIZE replaces.
    md.hardware.num_gpus = static_cast<int32_t>(*ToCount(world->value));
    note("hardware.num_gpus", *world);
  } else if (spec.nproc_unknown) {
    unresolved("hardware.num_gpus", "the launcher's process count is not a number (" + spec.launcher + ")");
  } else if (spec.nproc_per_node) {
    md.hardware.num_gpus = *spec.nproc_per_node * (spec.nproc_is_total ? 1 : nodes);
    md.sources.push_back({"hardware.num_gpus", "<command>", 0});
  } else if (l.sbatch_total_gpus) {
    md.hardware.num_gpus = *l.sbatch_total_gpus;
  } else if (l.sbatch_gpus_per_node) {
    md.hardware.num_gpus = *l.sbatch_gpus_per_node * nodes;
  } else if (const Candidate* c = dev_setting) {
    std::string v = c->value;
    bool list = (v.size() >= 2 && v.front() == '[') || v.find(',') != std::string::npos ||
                (v.find('-') != std::string::npos && v[0] != '-');
    if (auto n = ToCount(v); n && *n > 0 && !list) {
      md.hardware.num_gpus = static_cast<int32_t>(*n) * nodes;
    } else if (list) {
      // Device ids listed on a plain python command are this machine's: a
      // config's node count (for another launcher) does not multiply them; a
      // node count on the same command (--gpus 0,1 --num_nodes 2) does: the
      // list is per node.
      bool local = c->precedence == kCommand && spec.launcher == "python" && !spec.nnodes && !l.sbatch_nodes &&
                   !nodes_on_command;
      if (auto k = DeviceCount(v)) md.hardware.num_gpus = *k * (local ? 1 : nodes);
      if (local) md.hardware.num_nodes = 1;
    }
    if (md.hardware.num_gpus)
      note("hardware.num_gpus", *c);
    else
      unresolved("hardware.num_gpus", "devices = " + c->value + ": every visible GPU");
  } else if (spec.visible_devices) {
    md.hardware.num_gpus = *spec.visible_devices * nodes;
  } else if (const Candidate* d = Best(st, "device", false); d && DeviceCount(d->value) && !launcher_default_all) {
    md.hardware.num_gpus = *DeviceCount(d->value) * nodes;
    note("hardware.num_gpus", *d);
  } else if (spec.launcher == "python" || spec.launcher == "console" || spec.launcher == "torchrun") {
    if (st.data_parallel && spec.launcher != "torchrun")
      unresolved("hardware.num_gpus", "DataParallel over every visible GPU");
    else if (st.spawns_per_gpu && spec.launcher != "torchrun")
      unresolved("hardware.num_gpus", "one process per visible GPU");
    else if (fw == "transformers" && spec.launcher == "python")
      unresolved("hardware.num_gpus", "the HF Trainer in one process uses every visible GPU (DataParallel)");
    else if (fw == "jax" && st.multi_device && spec.launcher != "torchrun")
      unresolved("hardware.num_gpus", "jax pmap/pjit over every visible device");
    else if (fw == "tensorflow" && st.multi_device && spec.launcher != "torchrun")
      unresolved("hardware.num_gpus", "a TensorFlow distribution strategy over every visible device");
    else
      md.hardware.num_gpus = nodes;
  } else {
    unresolved("hardware.num_gpus", spec.launcher + " without a process count uses every visible GPU");
  }
  md.launcher = spec.launcher;
  if (!fw.empty()) md.framework = fw;
  // Megatron's data-parallel size: the GPUs over tensor × pipeline (× context) parallelism.
  if (samples_over_dp_batch && md.hardware.num_gpus && *md.hardware.num_gpus > 0) {
    int64_t model_parallel = 1;
    bool known = true;
    for (const char* k : {"tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size"})
      if (auto v = st.values.find(k); v != st.values.end() && !IsUnset(v->second.value)) {
        auto n = ToCount(v->second.value);
        if (!n || *n <= 0) known = false;
        else model_parallel *= *n;
      }
    if (known && *md.hardware.num_gpus % model_parallel == 0) {
      md.training_iterations = *samples_over_dp_batch / (*md.hardware.num_gpus / model_parallel);
      md.iteration_type = "step";
      md.unresolved.erase(std::remove_if(md.unresolved.begin(), md.unresolved.end(),
                                         [](const auto& u) { return u.first == "training_iterations"; }),
                          md.unresolved.end());
      note("training_iterations", *steps);
    }
  }

  ModelTypeEvidence ev;
  ev.model_name = md.model_name.value_or("");
  ev.dataset = md.dataset.value_or("");
  ev.callees.assign(st.entry_callees.begin(), st.entry_callees.end());
  for (const auto& c : st.callees)
    if (!st.entry_callees.count(c)) ev.far_callees.push_back(c);
  ev.imports = st.entry_imports;
  ev.paths = st.config_paths;
  ev.paths.push_back(entry);
  for (const auto& w : st.wrappers) ev.paths.push_back(w);
  // Every model name the run's configs and command give (arch: blip2_opt beside a hub LLM id).
  if (auto it = st.fields.find("model_name"); it != st.fields.end()) {
    for (const auto& [k, c] : it->second) {
      if (c.precedence < kConfig || c.specificity < 1 || c.value.size() >= 120) continue;
      if (c.specificity >= 2 && c.value != ev.model_name)
        ev.other_names.push_back(c.value);
      else
        ev.paths.push_back(c.value);
    }
  }
  // The run's own option names are evidence too (--vision_tower, --mm_projector_type).
  // Clipping settings (--clip-grad 1.0, clip_param, grad_clip_norm) name no CLIP model.
  for (const auto& [k, v] : spec.overrides) {
    std::vector<std::string> w = KeyWords(k);
    bool clipping = std::find(w.begin(), w.end(), "clip") != w.end() &&
                    std::any_of(w.begin(), w.end(), [](const std::string& x) {
                      return x == "grad" || x == "grads" || x == "gradient" || x == "norm" || x == "value" ||
                             x == "param" || x == "range" || x == "ratio" || x == "eps" || x == "coef" ||
                             x == "threshold" || x == "max" || x == "min";
                    });
    if (!clipping) ev.paths.push_back(k);
  }
  for (const auto& t : st.config_classes) ev.callees.push_back(t);
  ModelTypeGuess g = GuessModelType(ev);
  md.model_type_evidence = g.why;
  if (!g.type.empty())
    md.model_type = g.type;
  else
    unresolved("model_type", "no evidence of the task in the lexicon");
  // A language model's training code sets its half precision where this
  // reader rarely looks (a library's config class, a DeepSpeed or FSDP
  // default, a trainer's `bf16="auto"`): full precision is not assumed for
  // one when nothing was read either way.
  if (precision_by_absence && md.precision == "fp32" && md.model_type &&
      (*md.model_type == "llm-pretrain" || *md.model_type == "llm-sft")) {
    md.precision.reset();
    unresolved("precision", "no precision setting read, and a language model is rarely trained in full precision");
  }
  // A backbone names the model only where the backbone is the model (a
  // classifier, self-supervised pre-training, a NeRF); a detector's or segmenter's
  // backbone (DETR's --backbone resnet50) is a part of it.
  if (md.model_name && md.model_type) {
    std::vector<std::string> w = KeyWords(LastSegment(model_name_key));
    bool backbone = std::find(w.begin(), w.end(), "backbone") != w.end();
    const std::string& t = *md.model_type;
    if (backbone && t != "image-classification" && t != "self-supervised-vision" && t != "contrastive-pretrain" &&
        t != "other") {
      unresolved("model_name", "only the backbone is named (" + *md.model_name + ")");
      md.sources.erase(
          std::remove_if(md.sources.begin(), md.sources.end(), [](const auto& x) { return x.field == "model_name"; }),
          md.sources.end());
      md.model_name.reset();
    }
  }

  int found = (md.model_name ? 1 : 0) + (md.model_type ? 1 : 0) + (md.dataset ? 1 : 0) +
              (md.training_iterations ? 1 : 0) + (md.batch_size ? 1 : 0) + (md.hardware.num_gpus ? 1 : 0);
  md.confidence = found / 6.0;
  return md;
}

}  // namespace schedmate::extraction
