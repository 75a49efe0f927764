#include "advisor/metadata_extractor.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>

#include "advisor/config_files.h"
#include "advisor/launch_command.h"
#include "advisor/python_source.h"
#include "repo/tools.h"

namespace schedmate {
namespace {

// Precedence of a value's origin: later stages override earlier ones.
enum Precedence { kImported = 0, kEntryDefault = 1, kConfig = 2, kCommand = 3 };

struct Candidate {
  std::string value;
  std::string file;
  int line = 0;
  int precedence = -1;
};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string LastSegment(const std::string& k) {
  size_t dot = k.rfind('.');
  return dot == std::string::npos ? k : k.substr(dot + 1);
}

// The schema field a config/argument key feeds, or "".
std::string FieldForKey(std::string key) {
  key = Lower(key);
  for (char& c : key)
    if (c == '-') c = '_';
  std::string last = LastSegment(key);
  std::string parent;
  if (size_t dot = key.rfind('.'); dot != std::string::npos) parent = LastSegment(key.substr(0, dot));
  if (last == "name" || last == "path" || last == "id" || last == "name_or_path" || last == "type") {
    if (parent == "model" || parent == "network" || parent == "arch" || parent == "backbone") return "model_name";
    if (parent == "data" || parent == "dataset" || parent == "datasets") return "dataset";
  }
  static const std::map<std::string, std::string> kFields = {
      {"batch_size", "batch_size"}, {"per_device_train_batch_size", "batch_size"}, {"train_batch_size", "batch_size"},
      {"micro_batch_size", "batch_size"}, {"train_micro_batch_size_per_gpu", "batch_size"},
      {"global_batch_size", "batch_size"}, {"bs", "batch_size"}, {"batch", "batch_size"},
      {"max_steps", "steps"}, {"train_iters", "steps"}, {"num_train_steps", "steps"}, {"total_steps", "steps"},
      {"max_iters", "steps"}, {"iterations", "steps"}, {"num_steps", "steps"}, {"training_steps", "steps"},
      {"max_iter", "steps"}, {"steps", "steps"},
      {"num_train_epochs", "epochs"}, {"epochs", "epochs"}, {"max_epochs", "epochs"}, {"n_epochs", "epochs"},
      {"num_epochs", "epochs"}, {"epoch", "epochs"},
      {"lr", "learning_rate"}, {"learning_rate", "learning_rate"}, {"base_lr", "learning_rate"},
      {"max_lr", "learning_rate"},
      {"model", "model_name"}, {"model_name", "model_name"}, {"model_name_or_path", "model_name"},
      {"pretrained_model_name_or_path", "model_name"}, {"arch", "model_name"}, {"architecture", "model_name"},
      {"backbone", "model_name"}, {"network", "model_name"}, {"model_type", "model_name"},
      {"dataset", "dataset"}, {"dataset_name", "dataset"}, {"data", "dataset"}, {"data_path", "dataset"},
      {"train_data", "dataset"}, {"dataset_path", "dataset"}, {"data_dir", "dataset"}, {"train_file", "dataset"},
      {"d_model", "d_model"}, {"hidden_size", "d_model"}, {"n_embd", "d_model"}, {"embed_dim", "d_model"},
      {"hidden_dim", "d_model"}, {"dim", "d_model"},
      {"n_layer", "num_layers"}, {"num_layers", "num_layers"}, {"num_hidden_layers", "num_layers"},
      {"n_layers", "num_layers"}, {"depth", "num_layers"},
      {"seq_len", "seq_len"}, {"seq_length", "seq_len"}, {"max_seq_length", "seq_len"}, {"block_size", "seq_len"},
      {"max_length", "seq_len"}, {"context_length", "seq_len"}, {"max_seq_len", "seq_len"},
      {"num_workers", "num_workers"}, {"workers", "num_workers"}, {"dataloader_num_workers", "num_workers"},
      {"precision", "precision"}, {"mixed_precision", "precision"}, {"dtype", "precision"},
      {"fp16", "fp16"}, {"bf16", "bf16"},
      {"devices", "devices"}, {"gpus", "devices"}, {"num_gpus", "devices"}, {"n_gpu", "devices"},
      {"num_nodes", "num_nodes"}, {"nnodes", "num_nodes"}};
  auto it = kFields.find(last);
  return it == kFields.end() ? "" : it->second;
}

bool IsTrue(const std::string& v) {
  std::string l = Lower(v);
  return l == "true" || l == "1" || l == "yes";
}

struct State {
  const RepoSnapshot& snap;
  const ExtractOptions& opt;
  std::set<std::string> files;     // what file_tree lists
  std::vector<std::string> read;   // files read, in order
  std::map<std::string, Candidate> fields;
  std::map<std::string, PyValue> constants;  // module-level NAME → literal
  std::set<std::string> imports;             // top-level package names seen
  std::vector<std::string> callees;          // call names seen (for model type)

  void Set(const std::string& field, const std::string& value, const std::string& file, int line, int prec) {
    if (field.empty() || value.empty()) return;
    Candidate& c = fields[field];
    if (prec >= c.precedence) c = {value, file, line, prec};
  }

  std::optional<std::string> Read(const std::string& path) {
    if (static_cast<int>(read.size()) >= opt.max_files) return std::nullopt;
    auto r = FileReadTool(snap, path, opt.max_file_bytes);
    if (!r.ok()) return std::nullopt;
    read.push_back(path);
    return r->text;
  }

  // A literal, or a module constant it names ("BATCH_SIZE", "cfg.lr" → "lr").
  std::optional<std::string> Literal(const PyValue& v) const {
    switch (v.kind) {
      case PyValue::Kind::kString:
      case PyValue::Kind::kInt:
      case PyValue::Kind::kFloat:
      case PyValue::Kind::kBool:
        return v.text;
      case PyValue::Kind::kName: {
        auto it = constants.find(v.text);
        if (it != constants.end() && it->second.kind != PyValue::Kind::kName) return it->second.text;
        return std::nullopt;
      }
      default:
        return std::nullopt;
    }
  }
};

std::string DirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string JoinPath(const std::string& dir, const std::string& rel) {
  std::string p = dir.empty() ? rel : dir + "/" + rel;
  // Normalise "a/./b" and "a/x/../b" within the snapshot (never above it).
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= p.size()) {
    size_t slash = p.find('/', start);
    std::string part = p.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::string out;
  for (const auto& x : parts) out += (out.empty() ? "" : "/") + x;
  return out;
}

// Candidate files for a module imported from `from_file`.
std::vector<std::string> ModuleFiles(const std::string& module, const std::string& from_file) {
  std::string m = module;
  std::string base;
  if (!m.empty() && m[0] == '.') {
    size_t dots = m.find_first_not_of('.');
    base = DirOf(from_file);
    for (size_t i = 1; i < dots && !base.empty(); ++i) base = DirOf(base);
    m = dots == std::string::npos ? "" : m.substr(dots);
  }
  std::string rel = m;
  std::replace(rel.begin(), rel.end(), '.', '/');
  std::vector<std::string> out;
  for (const std::string& root : {base, DirOf(from_file), std::string(), std::string("src")}) {
    if (rel.empty()) {
      out.push_back(JoinPath(root, "__init__.py"));
      continue;
    }
    out.push_back(JoinPath(root, rel + ".py"));
    out.push_back(JoinPath(root, rel + "/__init__.py"));
  }
  return out;
}

// Reads a config; a Hydra group file's keys live under its group
// ("model/gpt2.yaml: name" is model.name) unless it is `@package _global_`.
void ReadConfig(State& st, const std::string& path, int prec, const std::string& group = "", int depth = 0) {
  if (depth > 3) return;
  auto text = st.Read(path);
  if (!text) return;
  auto cfg = ParseConfig(*text, path);
  if (!cfg.ok()) return;
  bool global = text->find("@package _global_") != std::string::npos;
  std::string prefix = group.empty() || global ? "" : group + ".";
  for (const auto& e : cfg->entries) {
    if (e.key.rfind("defaults.", 0) == 0) continue;  // the defaults list itself
    st.Set(FieldForKey(prefix + e.key), e.value, path, e.line, prec);
  }
  // Hydra: each default is a file in its group directory.
  std::string dir = DirOf(path);
  for (const auto& [g, option] : cfg->defaults) {
    std::string p = JoinPath(dir, g + "/" + option + ".yaml");
    if (st.files.count(p)) ReadConfig(st, p, prec, g, depth + 1);
  }
}

void ScanPython(State& st, const std::string& path, const PythonFacts& py, int prec) {
  for (const auto& imp : py.imports) {
    std::string top = imp.module.substr(0, imp.module.find('.'));
    if (!top.empty()) st.imports.insert(top);
  }
  for (const auto& a : py.assigns) {
    if (a.target.find('.') == std::string::npos && a.value.kind != PyValue::Kind::kOther)
      st.constants[a.target] = a.value;
    if (auto v = st.Literal(a.value)) st.Set(FieldForKey(a.target), *v, path, a.line, prec);
  }
  for (const auto& c : py.calls) {
    st.callees.push_back(c.callee);
    std::string last = LastSegment(c.callee);
    if ((last == "add_argument" || c.callee == "click.option" || last == "option") && !c.args.empty()) {
      std::string name;
      for (const auto& a : c.args)
        if (a.kind == PyValue::Kind::kString && a.text.rfind("--", 0) == 0) name = a.text.substr(2);
      if (const PyValue* dest = c.Kwarg("dest"); dest && dest->kind == PyValue::Kind::kString) name = dest->text;
      if (const PyValue* d = c.Kwarg("default"))
        if (auto v = st.Literal(*d)) st.Set(FieldForKey(name), *v, path, c.line, prec);
      continue;
    }
    if (last == "from_pretrained" && !c.args.empty()) {
      if (auto v = st.Literal(c.args[0])) {
        // Tokenizers and configs name a model too; a model class wins over them.
        bool model_class = c.callee.find("Model") != std::string::npos || c.callee.find("Pipeline") != std::string::npos;
        if (model_class || !st.fields.count("model_name")) st.Set("model_name", *v, path, c.line, prec);
      }
      continue;
    }
    if ((last == "create_model" || c.callee.rfind("models.", 0) == 0 || c.callee.find(".models.") != std::string::npos) ) {
      if (last == "create_model" && !c.args.empty()) {
        if (auto v = st.Literal(c.args[0])) st.Set("model_name", *v, path, c.line, prec);
      } else if (last != "create_model" && std::islower(static_cast<unsigned char>(last[0]))) {
        st.Set("model_name", last, path, c.line, prec);  // torchvision.models.resnet50()
      }
      continue;
    }
    if (last == "load_dataset" && !c.args.empty()) {
      if (auto v = st.Literal(c.args[0])) {
        std::string name = *v;
        if (c.args.size() > 1)
          if (auto sub = st.Literal(c.args[1])) name += "/" + *sub;
        st.Set("dataset", name, path, c.line, prec);
      }
      continue;
    }
    if (c.callee.find("datasets.") != std::string::npos && std::isupper(static_cast<unsigned char>(last[0]))) {
      st.Set("dataset", last, path, c.line, prec);  // torchvision.datasets.CIFAR10(...)
    }
    if (c.callee == "hydra.main") continue;  // read by the caller
    for (const auto& [k, v] : c.kwargs)
      if (auto lit = st.Literal(v)) st.Set(FieldForKey(k), *lit, path, c.line, prec);
  }
}

std::string ModelType(const State& st, const std::string& model) {
  // Tokens of the name ("Meta-Llama-3-8B" → meta, llama, 3, 8b); a family
  // matches a token it begins ("resnet50" is resnet, not t5).
  std::vector<std::string> tokens;
  std::string cur;
  for (char c : Lower(model) + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur += c;
    } else if (!cur.empty()) {
      tokens.push_back(cur);
      cur.clear();
    }
  }
  auto has = [&](std::initializer_list<const char*> words) {
    for (const char* w : words)
      for (const auto& t : tokens)
        if (t.rfind(w, 0) == 0) return true;
    return false;
  };
  auto called = [&](const char* w) {
    for (const auto& c : st.callees)
      if (c.find(w) != std::string::npos) return true;
    return false;
  };
  bool sft = called("SFTTrainer") || called("SFTConfig") || called("get_peft_model") || called("LoraConfig") ||
             has({"instruct", "chat"});
  if (has({"diffusion", "sd", "sdxl"}) || called("UNet2DConditionModel") || st.imports.count("diffusers"))
    return "diffusion";
  if (has({"llama", "gpt", "qwen", "mistral", "mixtral", "falcon", "bloom", "opt", "phi", "gemma", "pythia", "olmo"}))
    return sft ? "llm-sft" : "llm-pretrain";
  if (has({"t5", "bart", "pegasus"})) return "seq2seq";
  if (has({"bert", "roberta", "deberta", "electra", "albert"}))
    return called("ForSequenceClassification") ? "text-classification" : "language-modeling";
  if (has({"clip", "siglip"})) return "contrastive-pretrain";
  if (has({"yolo", "detr", "rcnn", "retinanet", "fcos", "ssd"}) || st.imports.count("detectron2") || st.imports.count("mmdet"))
    return "detection";
  if (has({"unet", "deeplab", "segformer", "mask2former", "segment"})) return "segmentation";
  if (has({"dlrm", "deepfm", "dcn"}) || st.imports.count("torchrec")) return "recsys";
  if (has({"resnet", "vit", "efficientnet", "convnext", "mobilenet", "regnet", "densenet", "swin", "deit", "vgg",
           "inception"}))
    return "image-classification";
  return "";
}

// A shell wrapper's Python line is the real launch (the outer overrides are kept).
Status UnwrapShell(State& st, LaunchSpec* spec) {
  if (spec->entry_kind != LaunchSpec::Entry::kShell) return Status::Ok();
  auto script = st.Read(spec->entry);
  if (!script) return InvalidArgument(spec->entry + ": wrapper script not in the repository");
  auto line = FindLaunchInShellScript(*script);
  if (!line) return InvalidArgument(spec->entry + ": launches no Python");
  ASSIGN_OR_RETURN(LaunchSpec inner, ParseLaunchCommand(*line));
  for (const auto& o : spec->overrides) inner.overrides.push_back(o);
  *spec = std::move(inner);
  return Status::Ok();
}

// The entry file of a script or `python -m` module launch.
Result<std::string> FindEntry(const State& st, const LaunchSpec& spec) {
  if (spec.entry_kind == LaunchSpec::Entry::kModule) {
    std::string rel = spec.entry;
    std::replace(rel.begin(), rel.end(), '.', '/');
    for (const std::string& cand : {rel + ".py", rel + "/__main__.py", "src/" + rel + ".py", "src/" + rel + "/__main__.py"})
      if (st.files.count(cand)) return cand;
  } else if (st.files.count(JoinPath("", spec.entry))) {
    return JoinPath("", spec.entry);
  }
  return InvalidArgument(spec.entry + ": entry point not found in the repository");
}

struct HydraMain {
  std::string path, name;  // config_path (from the repository root), config_name
};

// The entry file, then its local imports breadth-first, scanned for values
// (imported files first, so the entry's own values win).
HydraMain ReadPythonSources(State& st, const std::string& entry, const ExtractOptions& options) {
  std::deque<std::pair<std::string, int>> queue = {{entry, 0}};
  std::set<std::string> seen = {entry};
  HydraMain hydra;
  std::vector<std::pair<std::string, PythonFacts>> parsed;
  while (!queue.empty()) {
    auto [path, depth] = queue.front();
    queue.pop_front();
    auto text = st.Read(path);
    if (!text) continue;
    PythonFacts py = ParsePython(*text);
    for (const auto& c : py.calls)
      if (c.callee == "hydra.main") {
        if (const PyValue* p = c.Kwarg("config_path"); p && p->kind == PyValue::Kind::kString)
          hydra.path = JoinPath(DirOf(path), p->text);
        if (const PyValue* n = c.Kwarg("config_name"); n && n->kind == PyValue::Kind::kString) hydra.name = n->text;
      }
    // Bounded: a file with thousands of imports (or names) cannot stall the walk.
    size_t imports_seen = 0;
    if (depth < options.max_import_depth)
      for (const auto& imp : py.imports) {
        if (++imports_seen > 256 || imp.module.empty() || imp.module.size() > 256) continue;
        std::vector<std::string> modules = {imp.module};
        for (size_t n = 0; n < imp.names.size() && n < 32; ++n)
          modules.push_back(imp.module + (imp.module.back() == '.' ? "" : ".") + imp.names[n]);
        for (const auto& m : modules)
          for (const auto& f : ModuleFiles(m, path))
            if (st.files.count(f) && seen.insert(f).second) queue.push_back({f, depth + 1});
      }
    parsed.emplace_back(path, std::move(py));
  }
  // Constants first (so defaults that name them resolve), imported files first.
  for (auto it = parsed.rbegin(); it != parsed.rend(); ++it)
    ScanPython(st, it->first, it->second, it->first == entry ? kEntryDefault : kImported);
  return hydra;
}

// Config files (--config, DeepSpeed JSON, Hydra and its group choices), then
// the command line's overrides, which win.
void ReadConfigsAndOverrides(State& st, const LaunchSpec& spec, const std::string& entry, const HydraMain& hydra) {
  for (const std::string& cfg : {spec.config_file, spec.Override("deepspeed") ? *spec.Override("deepspeed") : ""}) {
    if (cfg.empty()) continue;
    for (const std::string& cand : {JoinPath("", cfg), JoinPath(DirOf(entry), cfg)})
      if (st.files.count(cand)) {
        ReadConfig(st, cand, kConfig);
        break;
      }
  }
  std::set<std::string> group_choices;  // overrides that pick a Hydra config group file
  if (!hydra.name.empty()) {
    std::string root = JoinPath(hydra.path, hydra.name + ".yaml");
    if (st.files.count(root)) ReadConfig(st, root, kConfig);
    // Group overrides on the command line select a file: experiment=pile/gpt.
    for (const auto& [k, v] : spec.overrides) {
      std::string p = JoinPath(hydra.path, k + "/" + v + ".yaml");
      if (st.files.count(p)) {
        ReadConfig(st, p, kConfig, k);
        group_choices.insert(k);
      }
    }
  }
  for (const auto& [k, v] : spec.overrides)
    if (!group_choices.count(k)) st.Set(FieldForKey(k), v, "<command>", 0, kCommand);
}

// The schema from the resolved values.
WorkloadMetadata Assemble(State& st, const LaunchSpec& spec) {
  WorkloadMetadata md;
  md.extractor = "embedded";
  md.files_read = st.read;
  auto take = [&](const char* field, const char* as) -> std::optional<std::string> {
    auto it = st.fields.find(field);
    if (it == st.fields.end()) return std::nullopt;
    md.sources.push_back({as, it->second.file, it->second.line});
    return it->second.value;
  };
  auto to_int = [](const std::string& s) -> std::optional<int64_t> {
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0' || d < 0 || d > 9e15) return std::nullopt;
    return static_cast<int64_t>(d);
  };
  if (auto v = take("model_name", "model_name")) md.model_name = *v;
  if (auto v = take("dataset", "dataset")) md.dataset = *v;
  auto steps = st.fields.find("steps");
  auto epochs = st.fields.find("epochs");
  // A positive step count is the budget (HF: max_steps > 0 overrides epochs).
  bool use_steps = steps != st.fields.end() && to_int(steps->second.value).value_or(0) > 0;
  if (use_steps) {
    md.training_iterations = to_int(*take("steps", "training_iterations"));
    md.iteration_type = "step";
  } else if (epochs != st.fields.end()) {
    md.training_iterations = to_int(*take("epochs", "training_iterations"));
    md.iteration_type = "epoch";
  }
  if (auto v = take("batch_size", "batch_size")) md.batch_size = to_int(*v);
  if (auto v = take("learning_rate", "learning_rate")) {
    char* end = nullptr;
    double lr = std::strtod(v->c_str(), &end);
    if (end != v->c_str()) md.learning_rate = lr;
  }
  if (auto v = take("d_model", "d_model")) md.d_model = to_int(*v);
  if (auto v = take("num_layers", "num_layers")) md.num_layers = to_int(*v);
  if (auto v = take("seq_len", "seq_len")) md.seq_len = to_int(*v);
  if (auto v = take("num_workers", "num_workers"))
    if (auto n = to_int(*v)) md.num_workers = static_cast<int32_t>(*n);
  if (auto v = take("precision", "precision")) {
    md.precision = *v;
  } else {
    for (const char* flag : {"bf16", "fp16"}) {
      auto it = st.fields.find(flag);
      if (it != st.fields.end() && IsTrue(it->second.value)) {
        take(flag, "precision");
        md.precision = flag;
        break;
      }
    }
  }
  int nodes = spec.nnodes.value_or(1);
  if (auto v = take("num_nodes", "hardware.num_nodes"))
    if (auto n = to_int(*v)) nodes = static_cast<int>(*n);
  md.hardware.num_nodes = nodes;
  if (spec.nproc_per_node) {
    md.hardware.num_gpus = *spec.nproc_per_node * nodes;
    md.sources.push_back({"hardware.num_gpus", "<command>", 0});
  } else if (auto v = take("devices", "hardware.num_gpus")) {
    if (auto n = to_int(*v)) md.hardware.num_gpus = static_cast<int32_t>(*n) * nodes;
  }
  md.launcher = spec.launcher;
  if (st.imports.count("lightning") || st.imports.count("pytorch_lightning")) md.framework = "lightning";
  else if (st.imports.count("megatron")) md.framework = "megatron";
  else if (st.imports.count("deepspeed")) md.framework = "deepspeed";
  else if (st.imports.count("transformers")) md.framework = "transformers";
  else if (st.imports.count("tensorflow") || st.imports.count("keras")) md.framework = "tensorflow";
  else if (st.imports.count("jax") || st.imports.count("flax")) md.framework = "jax";
  else if (st.imports.count("torch")) md.framework = "pytorch";
  if (md.model_name) {
    std::string type = ModelType(st, *md.model_name);
    if (!type.empty()) md.model_type = type;
  }
  int found = (md.model_name ? 1 : 0) + (md.model_type ? 1 : 0) + (md.dataset ? 1 : 0) +
              (md.training_iterations ? 1 : 0) + (md.batch_size ? 1 : 0) + (md.hardware.num_gpus ? 1 : 0);
  md.confidence = found / 6.0;
  return md;
}

}  // namespace

Result<WorkloadMetadata> ExtractMetadata(const RepoSnapshot& snapshot, const std::string& command,
                                         const ExtractOptions& options) {
  ASSIGN_OR_RETURN(LaunchSpec spec, ParseLaunchCommand(command));
  State st{snapshot, options, {}, {}, {}, {}, {}, {}};
  ASSIGN_OR_RETURN(FileTree tree, FileTreeTool(snapshot));
  for (const auto& f : tree.files) st.files.insert(f.path);
  RETURN_IF_ERROR(UnwrapShell(st, &spec));
  ASSIGN_OR_RETURN(std::string entry, FindEntry(st, spec));
  HydraMain hydra = ReadPythonSources(st, entry, options);
  ReadConfigsAndOverrides(st, spec, entry, hydra);
  return Assemble(st, spec);
}

}  // namespace schedmate
