#include "advisor/metadata_extractor.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>

#include "advisor/config_files.h"
#include "advisor/entry_points.h"
#include "advisor/field_keys.h"
#include "advisor/launch_command.h"
#include "advisor/model_type.h"
#include "advisor/python_source.h"
#include "advisor/run_values.h"
#include "advisor/pasted_command.h"
#include "advisor/shell_script.h"
#include "repo/tools.h"

namespace schedmate {
namespace {

// Precedence of a value's origin: later stages override earlier ones.
enum Precedence { kLibrary = 0, kImported = 1, kEntryDefault = 2, kConfig = 3, kCommand = 5 };

std::string StripConfigArg(const std::string& v);

struct Candidate {
  std::string value, file, key;
  int line = 0;
  int precedence = -1;
  int specificity = 0;
  int order = 0;
};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string LastSegment(const std::string& k) {
  size_t dot = k.rfind('.');
  return dot == std::string::npos ? k : k.substr(dot + 1);
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A key as every source spells it: lower case, '-' → '_', no leading dashes,
// and without the namespace objects code stores arguments in.
std::string NormalKey(std::string key) {
  while (!key.empty() && (key[0] == '-' || key[0] == '+' || key[0] == '~')) key.erase(0, 1);
  key = Lower(key);
  for (char& c : key)
    if (c == '-') c = '_';
  for (const char* p : {"self.", "args.", "opt.", "opts.", "hparams.", "flags.", "cfg.", "config.", "_c.", "c."})
    if (key.rfind(p, 0) == 0 && key.size() > std::string(p).size()) {
      key = key.substr(std::string(p).size());
      break;
    }
  return key;
}




struct State {
  const RepoSnapshot& snap;
  const ExtractOptions& opt;
  std::set<std::string> files;      // what file_tree lists
  std::vector<std::string> read;    // files read, in order
  std::map<std::string, std::map<std::string, Candidate>> fields;  // field → key → value
  std::map<std::string, Candidate> values;                          // every key → value (interpolation)
  std::map<std::string, PyValue> constants;  // module-level NAME → literal
  std::set<std::string> imports;             // top-level package names seen
  std::vector<std::string> callees;          // call names seen (model type, framework)
  std::set<std::string> entry_callees;       // calls in the entry file and its closest imports
  std::set<std::string> entry_imports;       // packages the entry file and its closest imports use
  std::vector<std::string> wrappers;         // shell wrappers followed
  std::map<std::string, std::string> aliases;  // argparse short flag → its long name
  std::vector<std::string> positionals;        // argparse positional arguments, in order
  bool spawns_per_gpu = false;
  bool autocast_bf16 = false;
  bool multi_device = false;
  std::vector<std::string> config_classes;  // values of target/_target_/class_path/type in the run's configs  // pmap/pjit/Mesh, a TF distribution strategy: every visible device
  std::string autocast_dtype;  // "bf16"/"fp16" from a literal autocast dtype near the entry
  // Mixed precision in the code near the entry: always on (torch.autocast(),
  // GradScaler(), model.half()), or switched by a setting (enabled=cfg.AMP).
  bool mixed_always = false;
  std::set<std::string> mixed_switches;  // keys of the settings that switch it
  std::map<std::string, std::vector<std::string>> bases;  // class → its bases, over every file read
  struct DefaultConfig {
    std::string flag, path, from;
  };
  std::vector<DefaultConfig> default_configs;                       // a config flag's default file
  std::vector<std::pair<std::string, std::string>> code_configs;    // (path, from file): configs the code loads
  std::set<std::string> nargs_flags;  // options declared nargs='+'/'*'
  std::set<std::string> base_configs;  // Python configs with an mmengine-style _base_
               // mp.spawn / device_count(): one process per visible GPU
  std::vector<std::string> config_paths;     // config files read
  std::set<std::string> entry_functions;     // fire/typer/console-script functions (their parameters are arguments)
  std::string cwd;                           // where the command runs
  std::string hydra_root;                    // the Hydra config directory, when the run uses Hydra
  int order = 0;
  bool data_parallel = false;

  State(const RepoSnapshot& s, const ExtractOptions& o) : snap(s), opt(o) {}

  void SetField(const std::string& field, const std::string& key, const std::string& value, const std::string& file,
                int line, int prec, int specificity) {
    bool auto_flag = (field == "bf16" || field == "fp16") && Lower(value) == "auto";
    if (field.empty() || (IsUnset(value) && !auto_flag) || value.size() > 512) return;
    Candidate& c = fields[field][key];
    if (prec >= c.precedence) c = {value, file, key, line, prec, specificity, ++order};
  }

  // `--input_wavs_dir LJSpeech-1.1/wavs`, `root_path: /data/ade20k`: a path
  // under a key that is no dataset key, one of whose segments begins with
  // known data, hints at the dataset — used only when nothing names it.
  void SetDataPathHint(const std::string& key, const std::string& value, const std::string& file, int line,
                       int prec) {
    if (value.find('/') == std::string::npos || value.size() > 300) return;
    std::vector<std::string> w = KeyWords(LastSegment(key));
    static const std::set<std::string> kPathWords = {"path", "paths", "dir", "dirs", "root", "folder", "file",
                                                     "files", "filelist", "list", "manifest", "src", "location"};
    static const std::set<std::string> kNotTrainingData = {
        "model", "ckpt", "checkpoint", "pretrained", "pretrain", "resume", "output", "out", "save", "log", "logs",
        "cache", "vocab", "tokenizer", "weights", "weight", "init", "teacher", "eval", "val", "valid", "validation",
        "test", "dev", "result", "results", "exp", "work", "tensorboard", "wandb", "export", "lm", "dict", "bpe",
        "spm", "stats", "cmvn", "config", "cfg", "code", "repo", "load", "restore", "sample", "samples"};
    if (w.empty() || !kPathWords.count(w.back())) return;
    for (const auto& x : w)
      for (const auto& no : kNotTrainingData)
        if (x.rfind(no, 0) == 0) return;  // tokenizer2_path, ckpt_dir
    if (!LexiconWordExact("data", value).empty()) SetField("data_hint", key, value, file, line, prec, 1);
  }

  void Set(const std::string& raw_key, const std::string& value, const std::string& file, int line, int prec) {
    std::string key = NormalKey(raw_key);
    if (key.empty()) return;
    std::string last_seg = LastSegment(key);
    if ((last_seg == "target" || last_seg == "_target_" || last_seg == "class_path" || last_seg == "type") &&
        prec >= kConfig && !value.empty() && value.size() < 200 && config_classes.size() < 512)
      config_classes.push_back(value);  // classes a config builds: model-type evidence
    // OpenMMLab's AmpOptimWrapper trains under autocast (float16 unless its dtype says otherwise).
    if (last_seg == "type" && value == "AmpOptimWrapper" && prec >= kConfig) {
      SetField("amp", key, "true", file, line, prec, 2);
      return;
    }
    // `--hparams fp16_run=True,batch_size=32`: an HParams string is settings.
    if ((last_seg == "hparams" || last_seg == "hparams_overrides") && value.find('=') != std::string::npos &&
        value.size() < 4096) {
      size_t start = 0;
      while (start < value.size()) {
        size_t comma = value.find(',', start);
        std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (size_t eq = item.find('='); eq != std::string::npos && eq > 0)
          Set(item.substr(0, eq), item.substr(eq + 1), file, line, prec);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      return;
    }
    // Durations with units (max_duration: 4800ba / 1ep / 100000sp).
    if (LastSegment(key) == "max_duration" || LastSegment(key) == "duration") {
      std::string v = Lower(value);
      size_t d = 0;
      while (d < v.size() && std::isdigit(static_cast<unsigned char>(v[d]))) ++d;
      std::string unit = v.substr(d);
      if (d > 0 && (unit == "ba" || unit == "it" || unit == "step" || unit == "steps"))
        SetField("steps", key, v.substr(0, d), file, line, prec, 3);
      if (d > 0 && (unit == "ep" || unit == "epoch" || unit == "epochs"))
        SetField("epochs", key, v.substr(0, d), file, line, prec, 3);
      if (d > 0 && (unit == "sp" || unit == "samples"))  // samples: steps are that over the global batch
        SetField("steps", "max_duration_samples", v.substr(0, d), file, line, prec, 3);
      return;
    }
    Candidate& v = values[key];
    if (prec >= v.precedence) v = {value, file, key, line, prec, 0, ++order};
    // Classified before lower-casing, so CamelCase words split (TestReader → test, reader).
    std::string raw = raw_key;
    for (const char* p : {"self.", "args.", "opt.", "opts.", "hparams.", "flags.", "cfg.", "config.", "_C.", "C."})
      if (raw.rfind(p, 0) == 0 && raw.size() > std::string(p).size()) {
        raw = raw.substr(std::string(p).size());
        break;
      }
    KeyField kf = ClassifyKey(raw);
    if (kf.field.empty() && LooksLikeEnvId(value)) {
      std::string last = LastSegment(key);
      if (last == "task" || last == "game" || last == "env_name" || last == "gym_env") {
        SetField("dataset", key, value, file, line, prec, 2);  // --task PongNoFrameskip-v4
        return;
      }
    }
    if (kf.field.empty()) {
      SetDataPathHint(key, value, file, line, prec);
      // `--coco_path /x`, `imagenet_dir`: a key named after a known dataset;
      // `resnet_depth 18`: a model family and its size.
      std::vector<std::string> w = KeyWords(LastSegment(key));
      if (w.size() == 2 && (w[1] == "path" || w[1] == "dir" || w[1] == "root" || w[1] == "folder") &&
          LexiconWordIn("data", w[0]) == w[0])
        SetField("dataset", key, w[0], file, line, prec, 2);
      if (w.size() == 2 && (w[1] == "depth" || w[1] == "size" || w[1] == "variant") &&
          LexiconWordIn("name", w[0]) == w[0] && ToCountText(value))
        SetField("model_name", key, w[0] + value, file, line, prec, 2);
      return;
    }
    if (kf.field == "precision" && (Lower(value) == "true" || Lower(value) == "false")) kf.field = "amp";  // mixed_precision: true
    SetField(kf.field, key, value, file, line, prec, kf.specificity);
  }

  std::optional<std::string> Read(const std::string& path) {
    if (static_cast<int>(read.size()) >= opt.max_files) return std::nullopt;
    auto r = FileHeadTool(snap, path, opt.max_file_bytes);  // the listing's size cap hides no entry point
    if (!r.ok()) return std::nullopt;
    read.push_back(path);
    return r->text;
  }

  // A literal, or a module constant it names ("BATCH_SIZE").
  std::optional<std::string> Literal(const PyValue& v) const {
    switch (v.kind) {
      case PyValue::Kind::kString:
      case PyValue::Kind::kInt:
      case PyValue::Kind::kFloat:
      case PyValue::Kind::kBool:
        return v.text;
      case PyValue::Kind::kName: {
        auto it = constants.find(v.text);
        if (it != constants.end() && it->second.kind != PyValue::Kind::kName &&
            it->second.kind != PyValue::Kind::kList)
          return it->second.text;
        return std::nullopt;
      }
      case PyValue::Kind::kList: {
        // A list of scalars, joined as a config list is ("0,1,2,3").
        std::string out;
        for (const auto& x : v.items) {
          if (x.kind != PyValue::Kind::kInt && x.kind != PyValue::Kind::kString) return std::nullopt;
          out += (out.empty() ? "" : ",") + x.text;
        }
        return out.empty() ? std::nullopt : std::optional<std::string>("[" + out + "]");
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

std::string JoinPath(const std::string& dir, const std::string& rel_in) {
  // `<NEMO_ROOT>/examples/x.py`: a directory the user fills in is where the command runs.
  std::string rel = rel_in;
  if (size_t close = rel.find(">/"); !rel.empty() && rel[0] == '<' && close != std::string::npos &&
                                       rel.find('/') == close + 1)
    rel = rel.substr(close + 2);
  std::string p = dir.empty() || (!rel.empty() && rel[0] == '/') ? rel : dir + "/" + rel;
  // Normalise "a/./b" and "a/x/../b" within the snapshot (never above it).
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= p.size()) {
    size_t slash = p.find('/', start);
    std::string part = p.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != "." && part != "~") {
      parts.push_back(part);
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::string out;
  for (const auto& x : parts) out += (out.empty() ? "" : "/") + x;
  return out;
}

bool IsConfigLike(const std::string& p) {
  return EndsWith(p, ".yaml") || EndsWith(p, ".yml") || EndsWith(p, ".json") || EndsWith(p, ".toml") ||
         EndsWith(p, ".jsonnet") || EndsWith(p, ".gin") || EndsWith(p, ".py");
}

// A path the run names, found in the snapshot: relative to where the command
// runs, to the root, or to `near`; with a config extension added when it has
// none; or, for a registry name like "llama3/8B_lora", the one file whose
// path ends with it.
std::optional<std::string> ResolvePath(const State& st, const std::string& value, const std::string& near,
                                       bool configs_only) {
  if (value.empty() || value.size() > 400 || IsUnset(value)) return std::nullopt;
  std::string v = value;
  if (v.rfind("file://", 0) == 0) v = v.substr(7);
  // mmengine's scoped path `mmdet::_base_/models/x.py` is `configs/_base_/models/x.py`
  // of that package (installed from its configs/ directory).
  if (size_t scope = v.find("::"); scope != std::string::npos && scope > 0 && v.find('/') > scope) {
    if (auto p = ResolvePath(st, "configs/" + v.substr(scope + 2), near, configs_only)) return p;
    v = v.substr(scope + 2);
  }
  std::vector<std::string> bases = {st.cwd, "", near};
  std::vector<std::string> exts = {""};
  if (!IsConfigLike(v)) exts = {"", ".yaml", ".yml", ".json", ".gin", ".toml"};  // a bare word is never a .py module
  for (const auto& b : bases)
    for (const auto& e : exts) {
      std::string p = JoinPath(b, v + e);
      bool text_config = EndsWith(p, ".txt") || EndsWith(p, ".cfg") || EndsWith(p, ".ini");
      if (!p.empty() && st.files.count(p) && (!configs_only || IsConfigLike(p) || (text_config && e.empty()))) return p;
    }
  // Registry-style names: a unique file whose path ends with the value.
  std::string tail = JoinPath("", v);
  if (tail.empty() || tail.find('/') == std::string::npos) {
    if (!configs_only) return std::nullopt;
  }
  std::optional<std::string> found;
  for (const auto& e : exts) {
    std::string suffix = "/" + tail + e;
    for (const auto& f : st.files) {
      if (!EndsWith(f, suffix) || (configs_only && !IsConfigLike(f))) continue;
      if (found && *found != f) {
        if (f.size() < found->size()) found = f;  // the shortest of several
        continue;
      }
      found = f;
    }
    if (found) return found;
  }
  // A path that is not there but whose file name is unique in the repository (a README typo: eval/ for evals/).
  if (IsConfigLike(v) && v.find('/') != std::string::npos) {
    std::string base = "/" + v.substr(v.rfind('/') + 1);
    std::optional<std::string> only;
    for (const auto& f : st.files)
      if (EndsWith(f, base)) {
        if (only) return std::nullopt;
        only = f;
      }
    return only;
  }
  return std::nullopt;
}

// Candidate files for a module imported from `from_file`.
std::vector<std::string> ModuleFiles(const std::string& module, const std::string& from_file, const std::string& cwd) {
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
  for (const std::string& root : {base, DirOf(from_file), cwd, std::string(), std::string("src")}) {
    if (rel.empty()) {
      out.push_back(JoinPath(root, "__init__.py"));
      continue;
    }
    out.push_back(JoinPath(root, rel + ".py"));
    out.push_back(JoinPath(root, rel + "/__init__.py"));
  }
  return out;
}

// ---- configs ---------------------------------------------------------------

void ReadConfigFile(State& st, const std::string& path, int prec, const std::string& group, int depth);

// Files a config includes, read before it (lower in the merge order).
const std::set<std::string>& IncludeKeys() {
  static const std::set<std::string> k = {"_base_", "__base__", "base", "_BASE_", "includes", "include", "inherit",
                                          "inherits", "parent", "extends", "base_config", "_include_"};
  return k;
}

void ReadYaml(State& st, const std::string& path, const std::string& text, int prec, const std::string& group,
              int depth) {
  auto cfg = ParseConfig(text, path);
  if (!cfg.ok()) return;
  bool global = text.find("@package _global_") != std::string::npos;
  std::string prefix = group.empty() || global ? "" : group + ".";
  std::string dir = DirOf(path);
  for (const auto& e : cfg->entries) {
    std::string top = e.key.substr(0, e.key.find('.'));
    if (!IncludeKeys().count(top)) continue;
    std::string list = e.value;
    size_t start = 0;
    while (start <= list.size()) {
      size_t comma = list.find(',', start);
      std::string one = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (auto p = ResolvePath(st, one, dir, true); p && *p != path) ReadConfigFile(st, *p, prec, group, depth + 1);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  // Hydra: each default is a file in its group directory (from the config
  // root when absolute, else beside this file or under the root).
  for (const auto& [raw_g, option] : cfg->defaults) {
    if (option == "_self_" || IsUnset(option) || option == "null") continue;
    bool absolute = !raw_g.empty() && raw_g[0] == '/';
    std::string g = absolute ? raw_g.substr(1) : raw_g;
    std::string rel = g.empty() ? option + ".yaml" : g + "/" + option + ".yaml";
    for (const std::string& base : {absolute ? st.hydra_root : dir, st.hydra_root, DirOf(dir)}) {
      std::string p = JoinPath(base, rel);
      if (!st.files.count(p)) continue;
      ReadConfigFile(st, p, prec, g.empty() ? group : g, depth + 1);
      break;
    }
  }
  for (const auto& e : cfg->entries) {
    if (e.key.rfind("defaults.", 0) == 0 || e.key == "defaults") continue;
    if (IncludeKeys().count(e.key.substr(0, e.key.find('.')))) continue;
    std::string f = ClassifyKey(prefix + e.key).field;
    bool device_list = e.list && (f == "devices" || f == "device");
    st.Set(prefix + e.key, device_list ? "[" + e.value + "]" : e.value, path, e.line, prec);
  }
}

// Python files used as configs: mmengine-style `_base_` lists, YOLOX `Exp`
// classes (`self.max_epoch = 300`), ml_collections `config.x = …`.
void ReadPythonConfig(State& st, const std::string& path, const std::string& text, int prec, int depth) {
  PythonFacts py = ParsePython(text);
  std::string dir = DirOf(path);
  for (const auto& a : py.assigns) {
    if (a.target != "_base_" || !a.scope.empty()) continue;
    st.base_configs.insert(path);
    std::vector<PyValue> bases = a.value.kind == PyValue::Kind::kList ? a.value.items : std::vector<PyValue>{a.value};
    for (const auto& b : bases)
      if (b.kind == PyValue::Kind::kString)
        if (auto p = ResolvePath(st, b.text, dir, true)) ReadConfigFile(st, *p, prec, "", depth + 1);
  }
  // A config class's own base (YOLOX: `from yolox.exp import Exp as MyExp`) is read first,
  // and so is a base config imported as a submodule (ml_collections:
  // `from pkg.configs import base_config` … `config = base_config.get_config()`).
  if (depth < 4)
    for (const auto& imp : py.imports) {
      std::vector<std::string> modules = {imp.module};
      for (const auto& n : imp.names) modules.push_back(imp.module + (EndsWith(imp.module, ".") ? "" : ".") + n);
      for (const auto& m : modules)
        for (const auto& f : ModuleFiles(m, path, st.cwd))
          if (st.files.count(f) && f != path && std::find(st.read.begin(), st.read.end(), f) == st.read.end()) {
            if (auto t = st.Read(f)) ReadPythonConfig(st, f, *t, prec, depth + 1);
            break;
          }
    }
  for (const auto& a : py.assigns) {
    if (a.target == "_base_" || a.origin == PyAssign::Origin::kParam) continue;
    if (a.target.find('.') == std::string::npos && a.scope.empty() && a.value.kind != PyValue::Kind::kOther)
      st.constants[a.target] = a.value;
    if (auto v = st.Literal(a.value)) st.Set(a.target, *v, path, a.line, prec);
  }
  for (const auto& c : py.calls) st.callees.push_back(c.callee);
  for (const auto& imp : py.imports) st.imports.insert(imp.module.substr(0, imp.module.find('.')));
}

// gin: `train.num_steps = 1000`, `MACRO = "c4"`, `x = %MACRO`, `include 'a.gin'`.
void ReadGin(State& st, const std::string& path, const std::string& text, int prec, int depth) {
  std::map<std::string, std::string> macros;
  size_t pos = 0;
  int no = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    ++no;
    size_t hash = line.find('#');
    if (hash != std::string::npos) line = line.substr(0, hash);
    auto trim = [](std::string s) {
      size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
      return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
    };
    line = trim(line);
    auto unquote = [](std::string s) {
      if (s.size() >= 2 && (s[0] == '\'' || s[0] == '"') && s.back() == s[0]) return s.substr(1, s.size() - 2);
      return s;
    };
    if (line.rfind("include ", 0) == 0) {
      if (auto p = ResolvePath(st, unquote(trim(line.substr(8))), DirOf(path), true))
        ReadConfigFile(st, *p, prec, "", depth + 1);
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    std::string key = trim(line.substr(0, eq)), value = unquote(trim(line.substr(eq + 1)));
    if (size_t slash = key.rfind('/'); slash != std::string::npos) key = key.substr(slash + 1);
    if (!value.empty() && value[0] == '%') {
      auto it = macros.find(value.substr(1));
      if (it == macros.end()) continue;
      value = it->second;
    }
    if (key.find('.') == std::string::npos) macros[key] = value;
    st.Set(key, value, path, no, prec);
  }
}

void ReadConfigFile(State& st, const std::string& path, int prec, const std::string& group, int depth) {
  if (depth > 8 || std::find(st.config_paths.begin(), st.config_paths.end(), path) != st.config_paths.end()) return;
  auto text = st.Read(path);
  if (!text) return;
  st.config_paths.push_back(path);
  if (EndsWith(path, ".py")) ReadPythonConfig(st, path, *text, prec, depth);
  else if (EndsWith(path, ".gin") || EndsWith(path, ".txt") || EndsWith(path, ".cfg") || EndsWith(path, ".ini"))
    ReadGin(st, path, *text, prec, depth);  // key = value lines (gin, configargparse, ini)
  else ReadYaml(st, path, *text, prec, group, depth);
}

// ---- Python sources --------------------------------------------------------

// A call that turns on mixed precision near the entry. autocast(enabled=False)
// and autocast(dtype=float32) turn it off; enabled=<setting> and an object's
// own autocast() (an Accelerator's, a solver's) leave it to a setting.
void NoteMixedPrecision(State& st, const PyCall& c, const std::string& last) {
  bool scaler = last == "GradScaler" || last == "ShardedGradScaler";
  if (last != "autocast" && !scaler && last != "half") return;
  std::string owner = c.callee.size() > last.size() ? LastSegment(c.callee.substr(0, c.callee.size() - last.size() - 1)) : "";
  if (last == "half") {
    if (owner == "model" || owner == "net" || owner == "network") st.mixed_always = true;  // model.half()
    return;
  }
  if (const PyValue* d = c.Kwarg("dtype"); d && d->text.find("float32") != std::string::npos) return;
  bool module = owner.empty() || owner == "torch" || owner == "amp" || owner == "cuda" || owner == "cpu" ||
                owner == "npu" || owner == "xpu" || owner == "sharded_grad_scaler";
  const PyValue* on = c.Kwarg("enabled");
  if (on && on->kind == PyValue::Kind::kOther && module &&
      (on->text.find("device") != std::string::npos || on->text.find("cuda") != std::string::npos)) {
    st.mixed_always = true;  // enabled=device.type != 'cpu': on wherever there is a GPU
    return;
  }
  if (on && on->kind == PyValue::Kind::kBool) {
    if (IsTrue(on->text) && module) st.mixed_always = true;
    return;
  }
  if (on && on->kind == PyValue::Kind::kName) {
    std::string key = NormalKey(on->text);
    if (!key.empty() && st.mixed_switches.size() < 16) st.mixed_switches.insert(key);
    return;
  }
  if (!on && module) st.mixed_always = true;
}

// The value of the setting that switches mixed precision: its own key, else
// the one key whose last part matches (cfg.TRAIN.MIXED_PRECISION ← TRAIN.MIXED_PRECISION).
const Candidate* SwitchValue(const State& st, const std::string& key) {
  if (auto it = st.values.find(key); it != st.values.end()) return &it->second;
  const Candidate* found = nullptr;
  std::string last = LastSegment(key);
  for (const auto& [k, c] : st.values)
    if (k == last || EndsWith(k, "." + last)) {
      if (found) return nullptr;  // ambiguous
      found = &c;
    }
  return found;
}

// LightningCLI(Model, DataModule) configures the classes it is given: their
// constructor defaults are the run's settings. Found before the file's
// assignments are read, so classes defined beside the call count too.
void NoteCliClasses(State& st, const PythonFacts& py) {
  for (const auto& c : py.calls) {
    std::string last = LastSegment(c.callee);
    if (last == "LightningCLI" || last == "cli_main")
      for (const auto& a : c.args)
        if (a.kind == PyValue::Kind::kName) st.entry_functions.insert(LastSegment(a.text) + ".__init__");
    // fire.Fire(train) in the same file as `def train(batch_size=10)`.
    if ((c.callee == "fire.Fire" || c.callee == "Fire" || c.callee == "typer.run" || c.callee == "CLI" ||
         c.callee == "jsonargparse.CLI" || c.callee == "tyro.cli") &&
        !c.args.empty() && c.args[0].kind == PyValue::Kind::kName)
      st.entry_functions.insert(LastSegment(c.args[0].text));
  }
}

// A training function the entry script calls from its top level or from an
// entry function (`main` → `train_eval(FLAGS.root_dir)`): its parameter
// defaults are the run's settings where the call passes nothing else.
// Functions of evaluation and housekeeping are not.
void NoteCalledEntryFunctions(State& st, const PythonFacts& py) {
  std::set<std::string> defined;
  for (const auto& a : py.assigns)
    if (a.origin == PyAssign::Origin::kParam && a.scope.find('.') == std::string::npos) defined.insert(a.scope);
  for (int pass = 0; pass < 2; ++pass)  // main → train → its helper: two levels
    for (const auto& c : py.calls) {
      if (c.callee.find('.') != std::string::npos || !defined.count(c.callee) || st.entry_functions.count(c.callee)) continue;
      if (!c.scope.empty() && !st.entry_functions.count(c.scope)) continue;
      std::string name = Lower(c.callee);
      bool housekeeping = false;
      for (std::string_view w : {"eval", "test", "valid", "predict", "infer", "plot", "log", "save", "load",
                                 "download", "seed", "setup", "parse", "print", "visual", "export", "sample"})
        housekeeping = housekeeping || name.find(w) != std::string::npos;
      bool trains = name.find("train") != std::string::npos || name.find("fit") != std::string::npos ||
                    name.find("learn") != std::string::npos;  // train_eval trains
      if (!housekeeping || trains) st.entry_functions.insert(c.callee);
    }
}

void ScanPython(State& st, const std::string& path, const PythonFacts& py, int prec, bool near_entry) {
  std::set<std::string> first_in_file;
  NoteCliClasses(st, py);
  if (prec == kEntryDefault) NoteCalledEntryFunctions(st, py);
  std::map<std::string, std::string> from;  // `from torchvision.datasets import MNIST`: MNIST → torchvision.datasets
  for (const auto& imp : py.imports)
    if (!imp.module.empty() && imp.module[0] != '.')
      for (const auto& n : imp.names) from[n] = imp.module;
  for (const auto& imp : py.imports) {
    std::string top = imp.module.substr(0, imp.module.find('.'));
    if (top.empty()) continue;
    st.imports.insert(top);
    if (near_entry) st.entry_imports.insert(top);
  }
  for (const auto& a : py.assigns) {
    bool dotted = a.target.find('.') != std::string::npos;
    if (a.origin == PyAssign::Origin::kParam) {
      if (!st.entry_functions.count(a.scope)) continue;
    } else if (!dotted && a.scope.empty() && a.value.kind != PyValue::Kind::kOther) {
      st.constants[a.target] = a.value;
    } else if (a.origin == PyAssign::Origin::kAssign && a.in_function && (!dotted || prec <= kImported) &&
               !(a.target.rfind("self.", 0) == 0 && EndsWith(a.scope, "__init__"))) {
      // (A config class's constructor defaults, `self.lr = 1e-4` in __init__, are settings.)
      // A function's local variable is not a setting; nor is an attribute a
      // library function sets at run time (`args.bf16 = True` inside an if).
      if (near_entry && !dotted && (a.target == "model" || a.target == "net" || a.target == "network") &&
          a.value.kind == PyValue::Kind::kOther) {
        std::string v = a.value.text.substr(0, a.value.text.find('('));
        v = v.substr(v.rfind('.') == std::string::npos ? 0 : v.rfind('.') + 1);
        if (!v.empty() && std::isupper(static_cast<unsigned char>(v[0])) && a.value.text.find('(') != std::string::npos &&
            NameStrength(v) == 0 && !LexiconWordIn("name", v).empty())
          st.SetField("model_name", "<model = Class(...)>", v, path, a.line, prec, 1);
      }
      continue;
    }
    if (dotted) {  // MODEL_NAME_TO_CONFIG = {...}: entries of a lookup table are not settings
      std::string head = a.target.substr(0, a.target.find('.'));
      bool caps = head.size() > 1 && std::none_of(head.begin(), head.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
      if (caps && head != "C" && head != "_C" && head != "FLAGS") continue;
    }
    // Within one file the first binding is the default; later ones are usually
    // conditional (`if debug: self.train_batch_size = 8`).
    if (auto v = st.Literal(a.value); v && first_in_file.insert(NormalKey(a.target)).second)
      st.Set(a.target, *v, path, a.line, prec);
  }
  for (const auto& k : py.classes) st.bases[k.name] = k.bases;
  for (const auto& c0 : py.calls) {
    PyCall c = c0;
    if (auto f = from.find(c.callee.substr(0, c.callee.find('.'))); f != from.end()) c.callee = f->second + "." + c.callee;
    st.callees.push_back(c.callee);
    if (near_entry) st.entry_callees.insert(c.callee);
    std::string last = LastSegment(c.callee);
    if ((c.callee.rfind("tfds.", 0) == 0 || c.callee.rfind("tensorflow_datasets.", 0) == 0) &&
        (last == "load" || last == "builder") && !c.args.empty())
      if (auto v = st.Literal(c.args[0])) st.SetField("dataset", "tfds", *v, path, c.line, prec, 2);
    if (near_entry && !last.empty() && std::isupper(static_cast<unsigned char>(last[0])) &&
        c.callee.find("datasets.") == std::string::npos && LexiconPrefix("data", last).size() >= 4)
      st.SetField("dataset", "<called dataset class>", last, path, c.line, prec, 1);  // WikiText2()
    if (near_entry && (last == "DEFINE_config_file" || last == "DEFINE_config_dict" || last == "add_argument") &&
        !c.args.empty()) {
      // A config flag's default file: read when the command names none.
      std::string name = c.args[0].text;
      while (!name.empty() && name[0] == '-') name.erase(0, 1);
      const PyValue* d = c.Kwarg("default") ? c.Kwarg("default") : (last != "add_argument" && c.args.size() > 1 ? &c.args[1] : nullptr);
      std::string file;
      if (d && d->kind == PyValue::Kind::kString) file = d->text;
      if (d && d->kind == PyValue::Kind::kOther) {  // ROOT / 'data/hyps/hyp.scratch.yaml'
        size_t q = d->text.find_first_of("'\"");
        size_t e = q == std::string::npos ? q : d->text.find(d->text[q], q + 1);
        if (e != std::string::npos) file = d->text.substr(q + 1, e - q - 1);
      }
      if ((name == "config" || name == "cfg" || name == "config_file" || name == "config-file" || name == "config_path" ||
           name == "hyp" || name == "hparams") &&
          !file.empty() && IsConfigLike(StripConfigArg(file)))
        st.default_configs.push_back({name, file, path});
    }
    if ((last == "add_argument" || last == "option" || last == "add") && !c.args.empty()) {
      std::string name;
      for (const auto& a : c.args)
        if (a.kind == PyValue::Kind::kString && a.text.rfind("--", 0) == 0 && name.empty()) name = a.text.substr(2);
      if (name.empty())
        for (const auto& a : c.args)
          if (a.kind == PyValue::Kind::kString && a.text.size() > 1 && a.text[0] != '-') name = a.text;
      if (const PyValue* dest = c.Kwarg("dest"); dest && dest->kind == PyValue::Kind::kString) name = dest->text;
      if (const PyValue* na = c.Kwarg("nargs"); na && (na->text == "+" || na->text == "*"))
        for (const auto& a : c.args)
          if (a.kind == PyValue::Kind::kString && a.text.rfind("-", 0) == 0) {
            std::string f = a.text;
            while (!f.empty() && f[0] == '-') f.erase(0, 1);
            std::replace(f.begin(), f.end(), '-', '_');
            st.nargs_flags.insert(f);
          }
      for (const auto& a : c.args)  // -b → batch_size
        if (a.kind == PyValue::Kind::kString && a.text.size() == 2 && a.text[0] == '-' && !name.empty())
          st.aliases[a.text.substr(1)] = name;
      if (!c.args.empty() && c.args[0].kind == PyValue::Kind::kString && !c.args[0].text.empty() &&
          c.args[0].text[0] != '-' && near_entry)
        st.positionals.push_back(c.args[0].text);
      if (const PyValue* d = c.Kwarg("default")) {
        if (auto v = st.Literal(*d)) st.Set(name, *v, path, c.line, prec);
      } else if (const PyValue* act = c.Kwarg("action"); act && act->kind == PyValue::Kind::kString) {
        // A flag's implicit default: store_true is False until given.
        if (act->text == "store_true") st.Set(name, "False", path, c.line, prec);
        if (act->text == "store_false") st.Set(name, "True", path, c.line, prec);
      } else if (const PyValue* fl = c.Kwarg("is_flag"); fl && fl->text == "True") {
        st.Set(name, "False", path, c.line, prec);  // click flags
      }
      continue;
    }
    if ((last == "load" && c.callee.find("OmegaConf") != std::string::npos) && !c.args.empty() &&
        c.args[0].kind == PyValue::Kind::kString && (EndsWith(c.args[0].text, ".yaml") || EndsWith(c.args[0].text, ".yml")))
      st.code_configs.emplace_back(c.args[0].text, path);  // a base config the code loads itself
    if (last.rfind("DEFINE_", 0) == 0 && c.args.size() >= 2 && c.args[0].kind == PyValue::Kind::kString) {
      // absl: flags.DEFINE_integer("train_epochs", 90, "…")
      const PyValue* d = c.Kwarg("default") ? c.Kwarg("default") : &c.args[1];
      if (auto v = st.Literal(*d)) st.Set(c.args[0].text, *v, path, c.line, prec);
      continue;
    }
    if (last == "DataParallel" && near_entry) st.data_parallel = true;
    if (near_entry && (last == "pmap" || last == "pjit" || last == "shard_map" || last == "Mesh" || last == "MirroredStrategy" ||
        last == "MultiWorkerMirroredStrategy" || last == "TPUStrategy" || last == "make_mesh" || last == "create_device_mesh"))
      st.multi_device = true;
    if (near_entry) NoteMixedPrecision(st, c, last);
    if (last == "autocast")
      if (const PyValue* d = c.Kwarg("dtype")) {
        if (d->text.find("bfloat16") != std::string::npos) st.autocast_bf16 = true;
        if (near_entry && d->text.find("bfloat16") != std::string::npos) st.autocast_dtype = "bf16";
        else if (near_entry && d->text.find("float16") != std::string::npos) st.autocast_dtype = "fp16";
      }
    if (near_entry && (c.callee == "mp.spawn" || c.callee == "torch.multiprocessing.spawn" ||
                       c.callee == "multiprocessing.spawn"))
      st.spawns_per_gpu = true;
    if (last == "from_pretrained" && !c.args.empty()) {
      if (auto v = st.Literal(c.args[0])) {
        // Tokenizers and configs name a model too; a model class wins over them.
        bool model_class = c.callee.find("Model") != std::string::npos || c.callee.find("Pipeline") != std::string::npos ||
                           c.callee.find("For") != std::string::npos;
        st.SetField("model_name", "from_pretrained", *v, path, c.line, prec, model_class ? 2 : 0);
      }
      continue;
    }
    if (last == "create_model" && !c.args.empty()) {
      if (auto v = st.Literal(c.args[0])) st.SetField("model_name", "create_model", *v, path, c.line, prec, 1);
      continue;
    }
    if (c.callee.find("torchvision.models.") != std::string::npos &&
        std::islower(static_cast<unsigned char>(last[0])) && last.find("load") == std::string::npos &&
        last.find("get") == std::string::npos) {
      st.SetField("model_name", "torchvision.models", last, path, c.line, prec, 1);  // torchvision.models.resnet50()
      continue;
    }
    if (last == "load_dataset" && !c.args.empty()) {
      if (auto v = st.Literal(c.args[0])) {
        std::string name = *v;
        if (name != "json" && name != "csv" && name != "text" && name != "parquet" && name != "imagefolder") {
          if (c.args.size() > 1)
            if (auto sub = st.Literal(c.args[1])) name += "/" + *sub;
          st.SetField("dataset", "load_dataset", name, path, c.line, prec, 2);
        }
      }
      continue;
    }
    if ((c.callee.find("datasets.") != std::string::npos) &&
        std::isupper(static_cast<unsigned char>(last[0])) && last != "ImageFolder" && last != "DatasetFolder") {
      st.SetField("dataset", "torchvision.datasets", last, path, c.line, prec, 1);  // torchvision.datasets.CIFAR10(...)
    }
    if (c.callee == "hydra.main") continue;  // read by the caller
    bool loader = last.find("Loader") != std::string::npos || last.find("loader") != std::string::npos;
    if (near_entry && (EndsWith(last, "Dataset") || EndsWith(last, "DataModule")) && last.size() > 7)
      for (const char* kw : {"name", "dataset_name", "dataset"})  // PygNodePropPredDataset(name='ogbn-arxiv')
        if (const PyValue* v = c.Kwarg(kw))
          if (auto lit = st.Literal(*v)) st.SetField("dataset", "<dataset class argument>", *lit, path, c.line, prec, 1);
    // Keyword arguments of calls in the repository's library code are how it
    // uses its own functions (update_step=1000), not the run's settings.
    if (prec <= kImported && !near_entry) continue;
    // Evaluation and sampling calls (trainer.sample(batch_size=1), a val
    // DataLoader) run beside training; their sizes are not the run's.
    std::vector<std::string> call_words = KeyWords(last);
    bool beside = std::any_of(call_words.begin(), call_words.end(), [](const std::string& x) {
      return x == "sample" || x == "generate" || x == "evaluate" || x == "eval" || x == "predict" || x == "test" ||
             x == "infer" || x == "inference" || x == "validate" || x == "valid" || x == "val";
    });
    if (loader)
      for (const auto& a : c.args) {
        std::vector<std::string> aw = KeyWords(a.text);
        beside = beside || std::any_of(aw.begin(), aw.end(), [](const std::string& x) {
                   return x == "val" || x == "valid" || x == "validation" || x == "test" || x == "eval";
                 });
      }
    for (const auto& [k, v] : c.kwargs) {
      if (loader && k != "batch_size") continue;
      if (beside && k.find("batch") != std::string::npos) continue;
      if (k == "device" || k == "devices" || k == "device_map") continue;  // where a tensor goes, not the run's GPUs
      // A call's `epoch=` is the epoch it starts or resumes at (get_train_iterator(epoch=1),
      // load_checkpoint(epoch=0)), not how many the run trains for.
      if (k == "epoch") continue;
      if (auto lit = st.Literal(v)) st.Set(k, *lit, path, c.line, prec);
    }
  }
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
  std::vector<std::tuple<std::string, PythonFacts, int>> parsed;
  while (!queue.empty()) {
    auto [path, depth] = queue.front();
    queue.pop_front();
    // The import walk leaves a quarter of the budget to the config files the run names.
    if (path != entry && static_cast<int>(st.read.size()) >= options.max_files * 3 / 4) continue;
    auto text = st.Read(path);
    if (!text) continue;
    PythonFacts py = ParsePython(*text);
    // @hydra.main, and any decorator or call that names both a config path and
    // name (NeMo's hydra_runner, initialize + compose); the first one counts.
    for (const auto& c : py.calls) {
      const PyValue* p = c.Kwarg("config_path");
      const PyValue* n = c.Kwarg("config_name");
      if (c.callee != "hydra.main" && !(p && n)) continue;
      if (!hydra.name.empty() || (path != entry && depth > 1)) break;
      if (p && p->kind == PyValue::Kind::kString) hydra.path = JoinPath(DirOf(path), p->text);
      if (n && n->kind == PyValue::Kind::kString) hydra.name = n->text;
    }
    // Bounded: a file with thousands of imports (or names) cannot stall the walk.
    size_t imports_seen = 0;
    if (depth < options.max_import_depth)
      for (const auto& imp : py.imports) {
        if (++imports_seen > 256 || imp.module.empty() || imp.module.size() > 256) continue;
        std::vector<std::string> modules = {imp.module};
        for (size_t n = 0; n < imp.names.size() && n < 32; ++n)
          modules.push_back(imp.module + (imp.module.back() == '.' ? "" : ".") + imp.names[n]);
        bool found_any = false;
        for (const auto& m : modules)
          for (const auto& f : ModuleFiles(m, path, st.cwd))
            if (st.files.count(f)) {
              found_any = true;
              if (seen.insert(f).second) queue.push_back({f, depth + 1});
            }
        // `sys.path.insert(0, "lib")` then `from opts import opts`: the one file of that name below the entry.
        if (!found_any && imp.module[0] != '.' && imp.module.find('.') == std::string::npos && imp.module.size() >= 4) {
          std::string suffix = "/" + imp.module + ".py", base = DirOf(path), only;
          int n = 0;
          for (auto it = st.files.lower_bound(base); it != st.files.end() && it->rfind(base, 0) == 0 && n < 2; ++it)
            if (EndsWith(*it, suffix)) {
              only = *it;
              ++n;
            }
          if (n == 1 && seen.insert(only).second) queue.push_back({only, depth + 1});
        }
      }
    parsed.emplace_back(path, std::move(py), depth);
  }
  // Constants first (so defaults that name them resolve), imported files first.
  for (auto it = parsed.rbegin(); it != parsed.rend(); ++it)
    ScanPython(st, std::get<0>(*it), std::get<1>(*it), std::get<0>(*it) == entry ? kEntryDefault : kImported,
               std::get<2>(*it) <= 1);
  return hydra;
}

// HF TrainingArguments' documented defaults, when the run builds them.
void LibraryDefaults(State& st) {
  bool hf_args = false;
  for (const auto& c : st.callees) {
    std::string last = LastSegment(c);
    hf_args = hf_args || EndsWith(last, "TrainingArguments") || last == "HfArgumentParser" || last == "SFTConfig" ||
              last == "DPOConfig";
  }
  bool lightning_trainer = false;
  for (const auto& c : st.entry_callees) {
    std::string last = LastSegment(c);
    bool trainer = last == "Trainer" || c.find(".Trainer.") != std::string::npos || c.rfind("Trainer.", 0) == 0;
    lightning_trainer = lightning_trainer || last == "LightningCLI" ||
                        (trainer && (c.find("pl.") == 0 || c.find("L.") == 0 || c.find("lightning") != std::string::npos));
  }
  if (lightning_trainer && (st.entry_imports.count("lightning") || st.entry_imports.count("pytorch_lightning")))
    st.Set("max_epochs", "1000", "<library default: lightning Trainer max_epochs>", 0, kLibrary);
  if (!hf_args || !st.imports.count("transformers")) return;
  const char* lib = "<library default: transformers.TrainingArguments>";
  st.Set("per_device_train_batch_size", "8", lib, 0, kLibrary);
  st.Set("learning_rate", "5e-05", lib, 0, kLibrary);
  st.Set("num_train_epochs", "3", lib, 0, kLibrary);
  st.Set("max_steps", "-1", lib, 0, kLibrary);
}

// ---- the launch ------------------------------------------------------------

struct Launch {
  LaunchSpec spec;
  std::optional<int> sbatch_gpus_per_node, sbatch_nodes, sbatch_total_gpus;
};

std::map<std::string, EntryPoint> RepoConsoleScripts(State& st) {
  std::map<std::string, EntryPoint> out;
  for (const char* f : {"setup.py", "setup.cfg", "pyproject.toml"}) {
    for (const std::string& dir : {std::string(), st.cwd}) {
      std::string p = JoinPath(dir, f);
      if (!st.files.count(p)) continue;
      auto r = FileReadTool(st.snap, p, st.opt.max_file_bytes);  // not counted: packaging metadata
      if (!r.ok()) continue;
      for (auto& [k, v] : ParseConsoleScripts(r->text)) out.emplace(k, v);
      if (EndsWith(p, "setup.py"))
        for (auto& [k, v] : ParseSetupScripts(r->text))
          if (st.files.count(JoinPath(DirOf(p), v.file))) out.emplace(k, EntryPoint{"", "", JoinPath(DirOf(p), v.file)});
    }
  }
  return out;
}

std::vector<std::string> Names(const std::map<std::string, EntryPoint>& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k);
  return out;
}

// A script the command names: relative to where it runs or to the root; a
// path behind an unknown variable (`${REPO_ROOT}/train.py`) or an absolute
// path (`/workspace/proj/train.py`) is tried from its tail inwards.
std::string FindFile(const State& st, std::string name) {
  if (name.size() > 400) return "";
  if (!name.empty() && (name[0] == '$' || name[0] == '<')) {
    size_t slash = name.find('/');
    name = slash == std::string::npos ? "" : name.substr(slash + 1);
  }
  for (int strip = 0; strip < 6 && !name.empty(); ++strip) {
    for (const std::string& base : {st.cwd, std::string()})
      if (std::string p = JoinPath(base, name); !p.empty() && (st.files.count(p) || FileInSnapshot(st.snap, p)))
        return p;
    if (name[0] != '/' && strip == 0 && name.find('$') == std::string::npos) break;
    size_t slash = name.find('/', 1);
    if (slash == std::string::npos) break;
    name = name.substr(slash + 1);
  }
  return "";
}

// Through shell wrappers (their variables, positional arguments and #SBATCH
// lines) to the Python launch.
Status UnwrapShell(State& st, Launch* l, const std::vector<std::string>& console) {
  std::map<std::string, std::string> inherited;  // a wrapper's variables reach the scripts it runs (path.sh exports)
  for (int depth = 0; depth < 4 && l->spec.entry_kind == LaunchSpec::Entry::kShell; ++depth) {
    std::string path = FindFile(st, l->spec.entry);
    if (path.empty()) return InvalidArgument(l->spec.entry + ": wrapper script not in the repository");
    if (std::find(st.read.begin(), st.read.end(), path) != st.read.end())
      return InvalidArgument(path + ": the wrapper runs itself");
    auto script = st.Read(path);
    if (!script) return InvalidArgument(path + ": wrapper script unreadable");
    st.wrappers.push_back(path);
    ShellContext ctx;
    ctx.positional = l->spec.args;
    ctx.script_path = path;
    ctx.console_scripts = console;
    ctx.read_file = [&st, &path](const std::string& name) -> std::optional<std::string> {
      for (const std::string& base : {st.cwd, DirOf(path), std::string()}) {
        std::string p = JoinPath(base, name);
        if (!p.empty() && st.files.count(p)) return st.Read(p);
      }
      return std::nullopt;
    };
    ctx.env = inherited;
    for (const auto& [k, v] : l->spec.env) ctx.env[k] = v;
    auto found = FindShellLaunch(*script, ctx);
    if (found)
      for (const auto& [k, v] : found->vars)
        if (k.size() > 1 || !std::isdigit(static_cast<unsigned char>(k[0]))) inherited[k] = v;
    if (!found) return InvalidArgument(path + ": launches no Python");
    if (found->gpus_per_node) l->sbatch_gpus_per_node = found->gpus_per_node;
    if (found->nodes) l->sbatch_nodes = found->nodes;
    if (found->total_gpus) l->sbatch_total_gpus = found->total_gpus;
    ASSIGN_OR_RETURN(LaunchSpec inner, ParseLaunchCommand(found->line, console));
    st.cwd = JoinPath(st.cwd, found->chdir.empty() ? inner.chdir : JoinPath(found->chdir, inner.chdir));
    // Outer `--k v` options not consumed as positional arguments still reach the script.
    bool positional_used = found->line.find('$') == std::string::npos && !l->spec.args.empty();
    if (!positional_used)
      for (const auto& o : l->spec.overrides)
        if (!inner.Override(o.first)) inner.overrides.push_back(o);
    if (inner.env.empty()) inner.env = l->spec.env;
    l->spec = std::move(inner);
  }
  return Status::Ok();
}

// The entry file of a script, `python -m` module or console-script launch.
Result<std::string> FindEntry(State& st, Launch* l, const std::map<std::string, EntryPoint>& console) {
  const LaunchSpec& spec = l->spec;
  std::string module;
  if (spec.entry_kind == LaunchSpec::Entry::kModule) module = spec.entry;
  if (spec.entry_kind == LaunchSpec::Entry::kConsole) {
    auto it = console.find(spec.entry);
    if (it == console.end()) return InvalidArgument(spec.entry + ": not an entry point of the repository");
    if (!it->second.file.empty()) return it->second.file;  // a script installed as a command
    module = it->second.module;
    st.entry_functions.insert(it->second.function);
  }
  if (!module.empty()) {
    std::string rel = module;
    std::replace(rel.begin(), rel.end(), '.', '/');
    for (const std::string& root : {st.cwd, std::string(), std::string("src")})
      for (const std::string& cand : {rel + ".py", rel + "/__main__.py", rel + "/__init__.py"})
        if (st.files.count(JoinPath(root, cand)) || FileInSnapshot(st.snap, JoinPath(root, cand)))
          return JoinPath(root, cand);
    // A package kept in a subdirectory (pip install -e habitat-baselines): its one module file.
    for (const std::string& tail : {"/" + rel + ".py", "/" + rel + "/__main__.py"}) {
      std::string only;
      int n = 0;
      for (const auto& f : st.files)
        if (EndsWith(f, tail) && ++n == 1) only = f;
      if (n == 1) return only;
    }
    // `python -m albert.run_pretraining` run from above a checkout that is itself the package.
    if (size_t slash = rel.find('/'); slash != std::string::npos)
      for (const std::string& cand : {rel.substr(slash + 1) + ".py", rel.substr(slash + 1) + "/__main__.py"})
        if (st.files.count(cand)) return cand;
    return InvalidArgument(module + ": module not found in the repository");
  }
  if (std::string p = FindFile(st, spec.entry); !p.empty()) return p;
  if (auto it = console.find(spec.entry); it != console.end()) {  // torchrun $(which lerobot-train)
    l->spec.entry_kind = LaunchSpec::Entry::kConsole;
    return FindEntry(st, l, console);
  }
  return InvalidArgument(spec.entry + ": entry point not found in the repository");
}

// A directory the command names, found in the snapshot: relative to where the
// command runs or the root; an absolute or placeholder path by its longest
// tail that exists (/path/to/repo/examples/x/config → examples/x/config).
std::string ExistingDir(const State& st, std::string v) {
  for (int strip = 0; strip < 8 && !v.empty(); ++strip) {
    for (const std::string& base : {st.cwd, std::string()}) {
      std::string d = JoinPath(base, v);
      if (d.empty()) continue;
      auto it = st.files.lower_bound(d + "/");
      if (it != st.files.end() && it->rfind(d + "/", 0) == 0) return d;
    }
    size_t slash = v.find('/', 1);
    if (slash == std::string::npos) break;
    v = v.substr(slash + 1);
  }
  return JoinPath(st.cwd, v);
}

// Registry lookups: `--hparams_set=transformer_base_single_gpu` names a
// function the repository defines (`@register_hparams def …(): hparams.batch_size = 1024`).
// Its literal settings (and those of same-file functions it calls first) are the run's config.
void ReadRegistryEntries(State& st, const LaunchSpec& spec) {
  std::vector<std::string> names;
  for (const auto& [k, v] : spec.overrides) {
    std::vector<std::string> w = KeyWords(k);
    bool registry_key = std::any_of(w.begin(), w.end(), [](const std::string& x) {
      return x == "hparams" || x == "set" || x == "preset" || x == "recipe" || x == "config" || x == "cfg" || x == "exp";
    });
    bool ident = v.size() >= 4 && v.size() <= 80 && (std::isalpha(static_cast<unsigned char>(v[0])) || v[0] == '_') &&
                 std::all_of(v.begin(), v.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    // --config=qmix that names a config file was read as one; only other names are registry entries.
    if (registry_key && ident && !ResolvePath(st, v, st.cwd, true)) names.push_back(v);
  }
  int scanned = 0;
  for (auto f = st.files.begin(); f != st.files.end() && !names.empty() && scanned < 600; ++f) {
    if (!EndsWith(*f, ".py") || f->find("test") != std::string::npos) continue;
    ++scanned;
    auto r = FileReadTool(st.snap, *f, st.opt.max_file_bytes);  // a text search, not counted as reading a source
    if (!r.ok()) continue;
    for (auto name = names.begin(); name != names.end();) {
      if (r->text.find("def " + *name + "(") == std::string::npos) {
        ++name;
        continue;
      }
      PythonFacts py = ParsePython(r->text);
      for (const auto& a : py.assigns)
        if (a.scope == *name)
          if (auto v = st.Literal(a.value)) st.Set(a.target, *v, *f, a.line, kConfig);
      st.read.push_back(*f);
      name = names.erase(name);  // found: the first definition is the one
    }
  }
}

// Named experiment sections: `--expid DCN_test` with a config directory
// (`--config ./config/`, or config/ beside the entry) whose YAML file has a
// top-level `DCN_test:` section — that section's settings are the run's.
void ReadNamedSections(State& st, const LaunchSpec& spec, const std::string& entry) {
  std::vector<std::string> names;
  for (const auto& [k, v] : spec.overrides) {
    bool ident = v.size() >= 3 && v.size() <= 80 && std::isalpha(static_cast<unsigned char>(v[0])) &&
                 std::all_of(v.begin(), v.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
    if (ident) names.push_back(v);
  }
  if (names.empty()) return;
  std::vector<std::string> dirs;
  for (const char* key : {"config", "config_dir", "cfg", "config_path", "configs"})
    if (auto it = st.values.find(key); it != st.values.end() && !IsConfigLike(it->second.value))
      for (const std::string& base : {DirOf(entry), st.cwd}) dirs.push_back(JoinPath(base, it->second.value));
  for (const char* d : {"config", "configs"}) dirs.push_back(JoinPath(DirOf(entry), d));
  std::set<std::string> seen;
  for (const auto& d : dirs) {
    if (d.empty() || !seen.insert(d).second) continue;
    int files = 0;
    for (auto f = st.files.lower_bound(d + "/"); f != st.files.end() && f->rfind(d + "/", 0) == 0 && files < 12; ++f) {
      if (f->find('/', d.size() + 1) != std::string::npos || !(EndsWith(*f, ".yaml") || EndsWith(*f, ".yml"))) continue;
      ++files;
      auto r = FileReadTool(st.snap, *f, st.opt.max_file_bytes);  // a search for the section, not counted as reading
      if (!r.ok()) continue;
      for (const auto& name : names) {
        if (r->text.find(name + ":") == std::string::npos) continue;
        auto cfg = ParseConfig(r->text, *f);
        if (!cfg.ok()) continue;
        std::vector<const ConfigEntry*> section;
        for (const auto& e : cfg->entries)
          if (e.key.rfind(name + ".", 0) == 0) section.push_back(&e);
        if (section.size() < 2) continue;
        st.read.push_back(*f);
        st.config_paths.push_back(*f);
        for (const ConfigEntry* e : section) st.Set(e->key.substr(name.size() + 1), e->value, *f, e->line, kConfig);
      }
    }
  }
}

// ml_collections: `configs/x.py:gpu8` is the file configs/x.py called with "gpu8".
std::string StripConfigArg(const std::string& v) {
  size_t p = v.find(".py:");
  return p == std::string::npos ? v : v.substr(0, p + 3);
}

// A config file's stem up to its first resolution, GPU×batch, schedule or
// dataset-size token: segformer.b1.512x512.ade.160k → segformer.b1,
// retinanet_r50_fpn_1x_coco → retinanet_r50_fpn.
std::string StemName(const std::string& stem) {
  size_t start = 0;
  for (size_t i = 0; i <= stem.size(); ++i) {
    if (i < stem.size() && stem[i] != '.' && stem[i] != '_' && stem[i] != '-') continue;
    std::string tok = Lower(stem.substr(start, i - start));
    bool digit_x = !tok.empty() && std::isdigit(static_cast<unsigned char>(tok[0])) &&
                   (tok.find('x') != std::string::npos || EndsWith(tok, "k") || EndsWith(tok, "e") || EndsWith(tok, "ep") ||
                    EndsWith(tok, "epoch") || EndsWith(tok, "epochs"));
    if (digit_x && start > 0) return stem.substr(0, start - 1);
    start = i + 1;
  }
  return stem;
}

// Config files (the script's --config, positional config paths, DeepSpeed
// and accelerate configs, Hydra and its group choices), then the command
// line's overrides, which win.
void ReadConfigsAndOverrides(State& st, const Launch& l, const std::string& entry, const HydraMain& hydra) {
  const LaunchSpec& spec = l.spec;
  std::string near = DirOf(entry);
  if (!spec.launcher_config.empty())
    if (auto p = ResolvePath(st, spec.launcher_config, near, true)) ReadConfigFile(st, *p, kConfig, "", 0);
  // Base configs the code loads itself (OmegaConf.load("…/default.yaml")), under everything else.
  for (const auto& [c, from] : st.code_configs)
    if (auto p = ResolvePath(st, c, DirOf(from), true)) ReadConfigFile(st, *p, kEntryDefault, "", 0);
  std::vector<std::string> configs;
  if (!spec.config_file.empty()) configs.push_back(spec.config_file);
  for (const auto& p : spec.positional) configs.push_back(p);
  // Any option whose value is a config file in the repository (--fname x.yaml, config=a/b.yaml).
  for (const auto& [k, v] : spec.overrides) {
    std::vector<std::string> w = KeyWords(k);
    bool config_key = std::any_of(w.begin(), w.end(), [](const std::string& x) {
      return x == "conf" || x == "config" || x == "cfg" || x == "exp" || x == "configs" || x == "hparams";
    });
    if (IsConfigLike(StripConfigArg(v)) && (!EndsWith(StripConfigArg(v), ".py") || config_key)) configs.push_back(v);
    // --env-config=sc2, --config configs/lego.txt: a config flag's registry name or key=value text file.
    if (config_key && !IsConfigLike(v) && (v.find('/') == std::string::npos || EndsWith(v, ".txt") || EndsWith(v, ".cfg")))
      configs.push_back(v);
    // A config preset named after a model (--cfg=stylegan3-t), not a file.
    if (config_key && !IsConfigLike(v) && v.find('/') == std::string::npos && !LexiconWordIn("name", v).empty() &&
        !ResolvePath(st, v, near, true))
      st.SetField("model_name", "<config preset>", v, "<command>", 0, kCommand, 2);
  }
  for (const auto& [k, v] : spec.overrides) {
    std::string key = Lower(k);
    if (key == "deepspeed" || key == "hyp" || key == "hparams" || key == "gin_file" || key == "exp_file" ||
        key == "cfg_file" || key == "config_file" || key == "model_config" || key == "train_config" || key == "config")
      configs.push_back(v.substr(0, v.find(".py:") == std::string::npos ? std::string::npos : v.find(".py:") + 3));
  }
  // A config flag the command does not set reads its default file (--hyp's hyp.scratch.yaml).
  std::set<std::string> flags_done;
  for (const auto& d : st.default_configs) {
    std::string f = d.flag;
    std::replace(f.begin(), f.end(), '-', '_');
    bool set = spec.Override(d.flag) || spec.Override(f) || (f == "config" && !spec.config_file.empty());
    if (set || !flags_done.insert(f).second) continue;
    if (auto p = ResolvePath(st, StripConfigArg(d.path), DirOf(d.from), true)) ReadConfigFile(st, *p, kEntryDefault, "", 0);
  }
  for (const auto& c0 : configs) {
    std::string c = StripConfigArg(c0);
    auto p = ResolvePath(st, c, near, true);
    if (!p || *p == entry) continue;
    ReadConfigFile(st, *p, kConfig, "", 0);
    if (std::find(st.config_paths.begin(), st.config_paths.end(), *p) == st.config_paths.end()) continue;
    // The run's own config file often is the model's name (models/yolov9-c.yaml, mpt-125m.yaml).
    std::string stem = p->substr(p->rfind('/') == std::string::npos ? 0 : p->rfind('/') + 1);
    stem = StemName(stem.substr(0, stem.rfind('.')));
    bool model_dir = false;
    for (const auto& seg : KeyWords(DirOf(*p)))
      model_dir = model_dir || seg == "models" || seg == "model" || seg == "arch" || seg == "archs" || seg == "networks";
    if (EndsWith(*p, ".py") && st.base_configs.count(*p))
      st.SetField("model_name", "<config file>", stem, *p, 0, kConfig, 3);  // OpenMMLab-style: named after the model
    else if (EndsWith(*p, ".py")) st.SetField("model_name", "<config file>", stem, *p, 0, kConfig, 1);
    else if (model_dir) st.SetField("model_name", "<config file>", stem, *p, 0, kConfig, 2);
    else if (!LexiconWordIn("name", stem).empty()) st.SetField("model_name", "<config file>", stem, *p, 0, kConfig, 1);
  }
  std::set<std::string> group_choices;  // overrides that pick a Hydra config group file
  std::string hpath = hydra.path, hname = hydra.name;
  for (const auto& [k, v] : spec.overrides) {
    if (k == "config_name" || k == "config-name" || k == "cn") hname = v;
    if (k == "config_path" || k == "config-path" || k == "config_dir" || k == "config-dir" || k == "cp" || k == "cd")
      hpath = ExistingDir(st, v);
  }
  if (!hname.empty()) {
    st.hydra_root = hpath;
    std::string n = EndsWith(hname, ".yaml") ? hname : hname + ".yaml";
    std::string root = JoinPath(hpath, n);
    if (!st.files.count(root))
      if (auto p = ResolvePath(st, hname, hpath, true)) root = *p;
    if (st.files.count(root)) ReadConfigFile(st, root, kConfig, "", 0);
    // Group overrides on the command line select a file: experiment=pile/gpt.
    for (const auto& [k, v] : spec.overrides) {
      std::string p = JoinPath(hpath, k + "/" + v + ".yaml");
      if (st.files.count(p)) {
        ReadConfigFile(st, p, kConfig, k, 0);
        group_choices.insert(k);
      }
    }
  }
  ReadRegistryEntries(st, spec);
  if (!entry.empty()) ReadNamedSections(st, spec, entry);
  for (const auto& [k, v] : spec.overrides) {
    if (group_choices.count(k)) continue;
    if (v.size() > 2 && v.front() == '{' && v.back() == '}') {  // --hparams '{"learning_rate": 1e-4}'
      if (auto cfg = ParseConfig(v, "<command>.json"); cfg.ok()) {
        for (const auto& e : cfg->entries) st.Set(e.key, e.value, "<command>", 0, kCommand);
        continue;
      }
    }
    if (size_t eq = v.find(" = "); eq != std::string::npos && eq > 0) {  // --gin_param="train.steps = 1000"
      std::string val = v.substr(eq + 3);
      if (val.size() >= 2 && (val[0] == '"' || val[0] == '\'') && val.back() == val[0]) val = val.substr(1, val.size() - 2);
      st.Set(v.substr(0, eq), val, "<command>", 0, kCommand);
      continue;
    }
    auto alias = st.aliases.find(k);
    st.Set(alias != st.aliases.end() ? alias->second : k, v, "<command>", 0, kCommand);
  }
  // Bare words bind to the script's positional arguments in order (`main.py /path/to/imagenet`).
  // Words after an nargs='+' option belong to it (`--methods simclr byol`).
  std::set<std::string> owned;
  std::string last_opt;
  for (const auto& a : spec.args) {
    if (a.size() > 1 && a[0] == '-' && !std::isdigit(static_cast<unsigned char>(a[1]))) {
      size_t body = a.find_first_not_of('-');
      last_opt = body == std::string::npos ? "" : a.substr(body);
      last_opt = last_opt.substr(0, last_opt.find('='));
      std::replace(last_opt.begin(), last_opt.end(), '-', '_');
    } else if (st.nargs_flags.count(last_opt)) {
      owned.insert(a);
    }
  }
  size_t next = 0;
  for (const auto& p : spec.positional) {
    if (owned.count(p) || ResolvePath(st, p, near, true)) continue;  // an option's list item; a config file, read above
    if (next < st.positionals.size()) st.Set(st.positionals[next++], p, "<command>", 0, kCommand);
    bool artifact = p.find('[') != std::string::npos || p.find(']') != std::string::npos;
    for (const char* ext : {".pth", ".pt", ".tar", ".ckpt", ".bin", ".safetensors", ".h5", ".pkl", ".log", ".sh", ".py"})
      artifact = artifact || EndsWith(Lower(p), ext);
    if (p.find('/') != std::string::npos && !IsConfigLike(p) && !artifact)
      st.SetField("dataset", "<positional path>", p, "<command>", 0, kCommand, 1);  // fairseq-train data-bin/x
  }
}

// ---- assembling the schema -------------------------------------------------



// An OmegaConf/Hydra interpolation `${a.b}` resolved against the merged keys.
std::string Resolve(const State& st, std::string v, int depth = 0) {
  if (depth > 4 || v.size() < 4) return v;
  // Interpolations inside a string: "${env.domain}_${env.task}".
  if (size_t open = v.find("${"); open != std::string::npos && (open > 0 || v.find('}') != v.size() - 1)) {
    std::string out;
    size_t pos = 0;
    while (pos < v.size()) {
      size_t a = v.find("${", pos);
      size_t b = a == std::string::npos ? std::string::npos : v.find('}', a);
      if (a == std::string::npos || b == std::string::npos) {
        out += v.substr(pos);
        break;
      }
      out += v.substr(pos, a - pos);
      std::string piece = Resolve(st, v.substr(a, b - a + 1), depth + 1);
      if (piece.rfind("${", 0) == 0) return v;  // unresolved: leave the whole value unresolved
      out += piece;
      pos = b + 1;
    }
    return out;
  }
  if (v.rfind("${", 0) != 0 || v.back() != '}') return v;
  std::string ref = NormalKey(v.substr(2, v.size() - 3));
  if (ref.find(':') != std::string::npos) return v;  // ${oc.env:X}, resolvers
  auto it = st.values.find(ref);
  if (it == st.values.end()) {
    // Relative to any prefix: ${lr} inside model.* → the last key ending in ".lr"
    for (const auto& [k, c] : st.values)
      if (EndsWith(k, "." + ref)) return Resolve(st, c.value, depth + 1);
    return v;
  }
  return Resolve(st, it->second.value, depth + 1);
}


// The winning value of a field: a non-library value first, then the highest
// precedence (command > config > entry > imported code), then the most
// specific key, then the latest read. For names, *rejected (when given) says
// why the highest-precedence value that names nothing was set aside.
const Candidate* Best(State& st, const std::string& field, bool numeric, std::string* rejected = nullptr) {
  auto it = st.fields.find(field);
  if (it == st.fields.end()) return nullptr;
  const Candidate* best = nullptr;
  auto rank = [](const Candidate& c) {
    return std::make_tuple(c.precedence > kLibrary, c.precedence, c.specificity, c.order);
  };
  bool names = field == "model_name" || field == "dataset";
  std::map<std::string, bool> named;  // key → its value names something
  // A name the command or a config sets to a placeholder hides the code's defaults.
  int blocked_below = -1, rejected_at = -1;
  for (auto& [k, c] : it->second) {
    c.value = Resolve(st, c.value);
    if (!names) continue;
    std::string why;
    named[k] = NameOf(c.value, field == "dataset", &why).has_value();
    if (named[k] || IsUnset(c.value)) continue;
    if (c.precedence >= kConfig && c.specificity >= 1) blocked_below = std::max(blocked_below, c.precedence);
    if (rejected && c.precedence > rejected_at) {
      rejected_at = c.precedence;
      *rejected = why;
    }
  }
  for (auto& [k, c] : it->second) {
    // `bf16: auto` is a setting (on where the GPU supports it), not an unset value.
    bool auto_precision = (field == "bf16" || field == "fp16") && Lower(c.value) == "auto";
    if ((IsUnset(c.value) && !auto_precision) || c.precedence < blocked_below) continue;
    if (numeric && !ToNumber(c.value)) continue;
    if ((field == "steps" || field == "epochs" || field == "learning_rate" || field == "batch_size") &&
        ToNumber(c.value).value_or(0) <= 0)
      continue;  // 0 and -1 mean "unset" or "derived", never the run's value
    if ((field == "devices" || field == "device") && c.precedence < kEntryDefault) continue;
    if (field == "precision" && !PrecisionOf(c.value)) continue;
    if ((field == "fp16" || field == "bf16" || field == "amp" || field == "fp8" || field == "fp32" || field == "precision") &&
        c.precedence < kEntryDefault && c.precedence != kLibrary)
      continue;  // a precision setting in library code is not the run's
    if (names) {
      if (!named[k]) continue;
      if (field == "model_name" && c.precedence >= 0) {
        c.specificity = std::min(c.specificity, 3 + NameStrength(c.value));
        // A hub id (org/name) is the surest model name a run can give.
        size_t slash = c.value.find('/');
        if (slash != std::string::npos && slash > 0 && c.value.find('/', slash + 1) == std::string::npos &&
            c.value[0] != '.' && c.value.find(' ') == std::string::npos && !IsConfigLike(c.value) && c.specificity >= 1)
          c.specificity = std::max(c.specificity, 3);
      }
    }
    if (!best || rank(c) > rank(*best)) best = &c;
  }
  return best;
}

// When the rate chosen is one part's (model_lr, lr_encoder), another part's
// rate that differs (sac_lr, lr_decoder): "key value", else "".
std::string OtherPartsRate(const State& st, const Candidate& chosen) {
  if (chosen.specificity != 1) return "";
  std::vector<std::string> cw = KeyWords(LastSegment(chosen.key));
  if (cw.size() != 2) return "";
  static const std::set<std::string> kNotAPart = {
      "min", "max", "peak", "init", "initial", "final", "end", "mult", "multiplier", "factor", "scale", "ratio",
      "decay", "warmup", "gamma", "step", "steps", "bias", "biases", "base", "train", "policy", "scheduler",
      "sched", "schedule", "type", "drop", "noise", "patience", "milestones", "start", "stop", "target", "pow",
      "power", "exp", "exponent", "mode", "steps", "epochs", "interval", "freq", "cycle",
      // An actor-critic's value side and temperature train beside the policy, whose rate is the run's.
      "critic", "vf", "value", "alpha", "q", "qf", "entropy", "temperature"};
  auto chosen_value = ToNumber(chosen.value);
  for (const auto& [k, c] : st.values) {
    if (k == chosen.key || c.precedence < chosen.precedence) continue;
    std::vector<std::string> w = KeyWords(LastSegment(k));
    if (w.size() != 2 || !(w[0] == "lr" || w[1] == "lr" || w[0] == "lrate" || w[1] == "lrate")) continue;
    if (kNotAPart.count(w[0] == "lr" || w[0] == "lrate" ? w[1] : w[0])) continue;
    auto v = ToNumber(c.value);
    if (v && *v > 0 && chosen_value && std::fabs(*v - *chosen_value) > 1e-12 * std::fabs(*chosen_value))
      return k + " " + c.value;
  }
  return "";
}

// A bare family name and its size beside it: ResNet + depth 50 → ResNet50,
// vit + variant S/16 → vit-S/16.
std::string WithVariant(const State& st, const Candidate& c, const std::string& name) {
  bool bare = name.size() <= 12 && std::all_of(name.begin(), name.end(), [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); });
  if (!bare) return name;
  std::string parent = c.key.rfind('.') == std::string::npos ? "" : c.key.substr(0, c.key.rfind('.') + 1);
  if (parent.empty()) {
    if (c.key != "model_name" && c.key != "model" && c.key != "arch") return name;
    parent = "model.";  // config.model_name = "vit" beside config.model.variant = "S/16"
  }
  for (const char* k : {"depth", "variant", "size", "arch_size", "model_size", "num_layers"}) {
    auto it = st.values.find(parent + k);
    if (it == st.values.end() || IsUnset(it->second.value) || it->second.value.size() > 16) continue;
    const std::string& v = it->second.value;
    return name + (std::isdigit(static_cast<unsigned char>(v[0])) ? "" : "-") + v;
  }
  return name;
}








// A package the repository itself holds (ChatGLM's ptuning/trainer.py is not coqui's `trainer`).
bool LocalModule(const State& st, const std::string& module, const std::string& entry) {
  for (const auto& f : ModuleFiles(module, entry, st.cwd))
    if (st.files.count(f)) return true;
  return false;
}

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
  for (const char* lib : {"stable_baselines3", "sb3_contrib", "tianshou", "trainer", "ignite", "catalyst", "rl_games"})
    if (imported(lib) && !LocalModule(st, lib, entry)) return "other";
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
              if (LastSegment(b) == r && b.find("ABC") == std::string::npos && !st.bases.count(LastSegment(b))) return true;
            next.push_back(LastSegment(b));
          }
        }
        todo = next;
      }
    }
    return false;
  };
  if (derives({"Trainer", "Seq2SeqTrainer", "SFTTrainer", "DPOTrainer"}) && (st.imports.count("transformers") || st.imports.count("trl")))
    return "transformers";
  if (derives({"Accelerator"}) && st.imports.count("accelerate")) return "accelerate";
  if (called({"Trainer", "Seq2SeqTrainer", "SFTTrainer", "DPOTrainer", "ORPOTrainer", "KTOTrainer", "RewardTrainer",
              "GRPOTrainer", "PPOTrainer", "TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig"}) &&
      (imported("transformers") || imported("trl")))
    return "transformers";
  if ((imported("lightning") || imported("pytorch_lightning") || imported("lightning_fabric")) &&
      called({"Trainer", "LightningCLI", "Fabric", "cli_lightning_logo", "fit"}))
    return "lightning";
  bool mm_task = imported("mmcv") || imported("mmdet") || imported("mmseg") || imported("mmpretrain") ||
                 imported("mmaction") || imported("mmpose") || imported("mmrotate") || imported("mmdet3d") ||
                 imported("mmagic") || imported("mmocr");
  if (imported("mmengine") || mm_task)  // mmengine only for its Config is not its Runner
    if (called({"from_cfg", "Runner", "train_detector", "train_segmentor", "train_model"}) || (mm_config && mm_task))
      return "mmengine";
  if (imported("detectron2")) return "detectron2";
  if (called({"Accelerator"})) return "accelerate";
  if (launcher == "deepspeed" && !imported("lightning") && !imported("pytorch_lightning")) return "deepspeed";
  if (called({"initialize"}) && imported("deepspeed")) return "deepspeed";
  if (imported("jax") || imported("flax") || imported("optax")) return imported("torch") ? "pytorch" : "jax";
  if (imported("tensorflow") || imported("keras") || imported("tf_keras")) return imported("torch") ? "pytorch" : "tensorflow";
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
    if (l.size() < 2 || !std::isdigit(static_cast<unsigned char>(l[0])) || (l.back() != 'b' && l.back() != 'm')) return false;
    return std::all_of(l.begin(), l.end() - 1, [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == 'x' || c == '.'; });
  };
  for (size_t i = 0; i < toks.size(); ++i) {
    std::string l = Lower(toks[i]);
    if (l.size() < 3 || LexiconWordExact("name", l) != l) continue;
    if (i + 1 < toks.size() && size_token(toks[i + 1])) return toks[i] + "_" + toks[i + 1];
    return toks[i];
  }
  return std::nullopt;
}

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
  const Candidate* steps = Best(st, "steps", true);
  const Candidate* epochs = Best(st, "epochs", true);
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
        if (c.specificity == 1 && ToCount(c.value).value_or(0) > 0 && (!gbs || c.precedence > gbs->precedence)) gbs = &c;
    std::vector<std::string> w = KeyWords(LastSegment(steps->key));
    bool kimg = std::find(w.begin(), w.end(), "kimg") != w.end();
    bool samples = std::find(w.begin(), w.end(), "samples") != w.end();
    if ((kimg || samples) && md.training_iterations) {
      // StyleGAN's kimg and Megatron's train_samples count images/samples: steps are that over the global batch.
      const Candidate* b = gbs ? gbs : Best(st, "batch_size", true);
      int64_t batch = b ? ToCount(b->value).value_or(0) : 0;
      if (batch > 0) md.training_iterations = *md.training_iterations * (kimg ? 1000 : 1) / batch;
      else md.training_iterations.reset();
    }
    if (md.training_iterations) {
      md.iteration_type = "step";
      note("training_iterations", *steps);
    }
  } else if (positive(epochs)) {
    md.training_iterations = ToCount(epochs->value);
    if (md.training_iterations) {
      md.iteration_type = "epoch";
      note("training_iterations", *epochs);
    }
  }
  if (!md.training_iterations) unresolved("training_iterations", "no step or epoch budget found");
  if (const Candidate* c = Best(st, "batch_size", true)) {
    md.batch_size = ToCount(c->value);
    if (md.batch_size) note("batch_size", *c);
  }
  if (!md.batch_size)
    if (auto it = st.values.find("max_tokens"); it != st.values.end() && it->second.precedence >= kConfig)
      if (auto n = ToCount(it->second.value); n && *n > 0) {
        md.batch_size = n;  // token-budget batching (fairseq --max-tokens): the run's batch setting
        md.sources.push_back({"batch_size", it->second.file, it->second.line});
      }
  if (!md.batch_size) unresolved("batch_size", "no batch size found");
  if (const Candidate* c = Best(st, "learning_rate", true)) {
    if (std::string other = OtherPartsRate(st, *c); !other.empty()) {
      unresolved("learning_rate", "the parts train at different rates (" + c->key + " " + c->value + ", " + other + ")");
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
  if (const Candidate* f8 = Best(st, "fp8", false); f8 && (IsTrue(f8->value) || Lower(f8->value) == "hybrid" ||
                                                          Lower(f8->value) == "e4m3" || Lower(f8->value) == "delayed")) {
    precision = "fp8";
    note("precision", *f8);
  }
  if (!precision)
    if (const Candidate* c = Best(st, "precision", false)) {
      precision = PrecisionOf(c->value);
      if (precision) note("precision", *c);
    }
  if (!precision && !spec.launcher_precision.empty()) precision = PrecisionOf(spec.launcher_precision);
  if (!precision) {
    const Candidate* bf = Best(st, "bf16", false);
    const Candidate* fp = Best(st, "fp16", false);
    const Candidate* amp = Best(st, "amp", false);
    const Candidate* full = Best(st, "fp32", false);
    if (bf && IsTrue(bf->value)) precision = "bf16";
    else if (fp && IsTrue(fp->value)) precision = "fp16";
    else if (bf && Lower(bf->value) == "auto") precision = "bf16";
    else if (full && !IsTrue(full->value) && !fp && !amp) precision = "fp16";  // --fp32 False: mixed precision on
    else if (amp && IsTrue(amp->value)) precision = "fp16";
    else if (amp && PrecisionOf(amp->value)) precision = PrecisionOf(amp->value);
    else if (bf || fp || amp || full) precision = "fp32";
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
  }
  if (precision && (*precision == "bf16" || *precision == "fp16") && !st.autocast_dtype.empty() &&
      !Best(st, "precision", false))
    precision = st.autocast_dtype;  // the flag turns autocast on; its literal dtype says which
  md.precision = precision;

  // GPUs: the launcher's processes × nodes, the batch system's resources, a
  // devices/gpus setting, CUDA_VISIBLE_DEVICES; one for a plain launch.
  int nodes = spec.nnodes.value_or(l.sbatch_nodes.value_or(1));
  if (const Candidate* c = Best(st, "num_nodes", true))
    if (auto n = ToCount(c->value); n && *n > 0 && !spec.nnodes) nodes = static_cast<int>(*n);
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
  if (accel && Lower(accel->value) == "cpu") {
    md.hardware.num_gpus = 0;
    note("hardware.num_gpus", *accel);
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
    bool list = (v.size() >= 2 && v.front() == '[') || v.find(',') != std::string::npos;
    if (auto n = ToCount(v); n && *n > 0 && !list) {
      md.hardware.num_gpus = static_cast<int32_t>(*n) * nodes;
    } else if (list) {
      if (auto k = DeviceCount(v)) md.hardware.num_gpus = *k * nodes;
    }
    if (md.hardware.num_gpus) note("hardware.num_gpus", *c);
    else unresolved("hardware.num_gpus", "devices = " + c->value + ": every visible GPU");
  } else if (spec.visible_devices) {
    md.hardware.num_gpus = *spec.visible_devices * nodes;
  } else if (const Candidate* d = Best(st, "device", false); d && DeviceCount(d->value) && !launcher_default_all) {
    md.hardware.num_gpus = *DeviceCount(d->value) * nodes;
    note("hardware.num_gpus", *d);
  } else if (spec.launcher == "python" || spec.launcher == "console" || spec.launcher == "torchrun") {
    if (st.data_parallel && spec.launcher != "torchrun") unresolved("hardware.num_gpus", "DataParallel over every visible GPU");
    else if (st.spawns_per_gpu && spec.launcher != "torchrun") unresolved("hardware.num_gpus", "one process per visible GPU");
    else if (fw == "transformers" && spec.launcher == "python")
      unresolved("hardware.num_gpus", "the HF Trainer in one process uses every visible GPU (DataParallel)");
    else if (fw == "jax" && st.multi_device && spec.launcher != "torchrun")
      unresolved("hardware.num_gpus", "jax pmap/pjit over every visible device");
    else if (fw == "tensorflow" && st.multi_device && spec.launcher != "torchrun")
      unresolved("hardware.num_gpus", "a TensorFlow distribution strategy over every visible device");
    else md.hardware.num_gpus = nodes;
  } else {
    unresolved("hardware.num_gpus", spec.launcher + " without a process count uses every visible GPU");
  }
  md.launcher = spec.launcher;
  if (!fw.empty()) md.framework = fw;

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
      if (c.specificity >= 2 && c.value != ev.model_name) ev.other_names.push_back(c.value);
      else ev.paths.push_back(c.value);
    }
  }
  // The run's own option names are evidence too (--vision_tower, --mm_projector_type).
  for (const auto& [k, v] : spec.overrides) ev.paths.push_back(k);
  for (const auto& t : st.config_classes) ev.callees.push_back(t);
  ModelTypeGuess g = GuessModelType(ev);
  md.model_type_evidence = g.why;
  if (!g.type.empty()) md.model_type = g.type;
  else unresolved("model_type", "no evidence of the task in the lexicon");
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
      md.sources.erase(std::remove_if(md.sources.begin(), md.sources.end(),
                                      [](const auto& x) { return x.field == "model_name"; }),
                       md.sources.end());
      md.model_name.reset();
    }
  }

  int found = (md.model_name ? 1 : 0) + (md.model_type ? 1 : 0) + (md.dataset ? 1 : 0) +
              (md.training_iterations ? 1 : 0) + (md.batch_size ? 1 : 0) + (md.hardware.num_gpus ? 1 : 0);
  md.confidence = found / 6.0;
  return md;
}

}  // namespace

static Result<WorkloadMetadata> ExtractMetadataUnguarded(const RepoSnapshot& snapshot, const std::string& pasted,
                                                  const ExtractOptions& options) {
  const std::string command = PastedCommand(pasted);
  State st{snapshot, options};
  st.cwd = JoinPath("", options.workdir);
  FileTreeOptions tree_options;  // the extractor needs paths only: a large monorepo is listed whole
  tree_options.max_entries = 60000;
  tree_options.max_depth = 12;
  ASSIGN_OR_RETURN(FileTree tree, FileTreeTool(snapshot, tree_options));
  for (const auto& f : tree.files) st.files.insert(f.path);
  auto console = RepoConsoleScripts(st);
  std::vector<std::string> console_names = Names(console);
  // The command is read as a small shell script: `export X=…` lines, `cd`,
  // #SBATCH lines and chains before the launch.
  Launch l;
  ShellContext ctx;
  ctx.console_scripts = console_names;
  auto found = FindShellLaunch(command, ctx);
  bool external = false;
  if (!found) {
    // A training CLI installed from elsewhere (allennlp train x.jsonnet, torchx run
    // --script train.py, t5_mesh_transformer --gin_file=…): the command and the
    // files it names are all there is to read.
    for (const auto& h : CommandHeads(command)) ctx.console_scripts.push_back(h);
    found = FindShellLaunch(command, ctx);
    external = found.has_value();
  }
  if (!found) return ParseLaunchCommand(command, console_names).status().ok()
                         ? InvalidArgument("the command launches nothing this extractor can follow")
                         : ParseLaunchCommand(command, console_names).status();
  ASSIGN_OR_RETURN(l.spec, ParseLaunchCommand(found->line, ctx.console_scripts));
  if (!l.spec.visible_devices)
    if (auto v = found->vars.find("CUDA_VISIBLE_DEVICES"); v != found->vars.end() && !v->second.empty() &&
                                                          v->second.find('<') == std::string::npos)
      l.spec.visible_devices = 1 + static_cast<int>(std::count(v->second.begin(), v->second.end(), ','));
  l.sbatch_gpus_per_node = found->gpus_per_node;
  l.sbatch_nodes = found->nodes;
  l.sbatch_total_gpus = found->total_gpus;
  st.cwd = JoinPath(st.cwd, JoinPath(found->chdir, l.spec.chdir));
  RETURN_IF_ERROR(UnwrapShell(st, &l, console_names));
  std::string entry;
  if (external || (l.spec.entry_kind == LaunchSpec::Entry::kConsole && !console.count(l.spec.entry))) {
    l.spec.launcher = l.spec.entry;
    if (const std::string* script = l.spec.Override("script"); script && !FindFile(st, *script).empty()) {
      entry = FindFile(st, *script);  // torchx … --script train.py
      l.spec.entry_kind = LaunchSpec::Entry::kScript;
    }
    if (const std::string* j = l.spec.Override("j"); j && j->find('x') != std::string::npos) {  // torchx -j NxM
      auto nodes = ToCount(j->substr(0, j->find('x'))), procs = ToCount(j->substr(j->find('x') + 1));
      if (nodes && procs) {
        l.spec.nnodes = static_cast<int>(*nodes);
        l.spec.nproc_per_node = static_cast<int>(*procs);
      }
    }
    if (entry.empty()) {
      // Hydra-style overrides (solver=musicgen/x) name group files: find the config root that has them.
      HydraMain root;
      for (const auto& [k, v] : l.spec.overrides) {
        if (k.find('.') != std::string::npos || v.empty() || v.find('/') == 0) continue;
        std::string suffix = "/" + k + "/" + v + ".yaml";
        for (const auto& f : st.files)
          if (EndsWith(f, suffix) || f == suffix.substr(1)) {
            root.path = f.size() == suffix.size() - 1 ? "" : f.substr(0, f.size() - suffix.size());
            break;
          }
        if (!root.path.empty()) break;
      }
      if (!root.path.empty())
        for (const char* name : {"config", "default", "defaults"})
          if (st.files.count(JoinPath(root.path, std::string(name) + ".yaml"))) {
            root.name = name;
            break;
          }
      ReadConfigsAndOverrides(st, l, "", root);
      if (st.config_paths.empty() && st.fields.empty())
        return InvalidArgument("'" + l.spec.launcher + "' runs no Python in the repository and names no config or setting");
      return Assemble(st, l, "");
    }
  } else {
    ASSIGN_OR_RETURN(entry, FindEntry(st, &l, console));
  }
  if (l.spec.entry_kind == LaunchSpec::Entry::kScript || l.spec.entry_kind == LaunchSpec::Entry::kModule)
    for (const char* f : {"main", "train", "cli_main", "run", "entrypoint", "finetune", "fit"}) st.entry_functions.insert(f);
  HydraMain hydra = ReadPythonSources(st, entry, options);
  LibraryDefaults(st);
  ReadConfigsAndOverrides(st, l, entry, hydra);
  return Assemble(st, l, entry);
}

// A user's repository never takes the scheduler down: a library exception
// on hostile input becomes an error, and the caller falls back.
Result<WorkloadMetadata> ExtractMetadata(const RepoSnapshot& snapshot, const std::string& command,
                                         const ExtractOptions& options) {
  try {
    return ExtractMetadataUnguarded(snapshot, command, options);
  } catch (const std::exception& e) {
    return Internal(std::string("metadata extraction failed: ") + e.what());
  }
}

}  // namespace schedmate
