#include "advisor/extraction_state.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "advisor/field_keys.h"
#include "advisor/model_type.h"
#include "advisor/run_values.h"
#include "repo/tools.h"

namespace schedmate::extraction {

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

void State::SetField(const std::string& field, const std::string& key, const std::string& value,
                     const std::string& file, int line, int prec, int specificity) {
  // bf16="auto" turns bf16 on where supported; devices="auto" is every visible GPU.
  bool auto_flag = (field == "bf16" || field == "fp16" || field == "devices") && Lower(value) == "auto";
  if (field.empty() || (IsUnset(value) && !auto_flag) || value.size() > 512) return;
  Candidate& c = fields[field][key];
  if (prec >= c.precedence) c = {value, file, key, line, prec, specificity, ++order};
}

// `--input_wavs_dir LJSpeech-1.1/wavs`, `root_path: /data/ade20k`: a path
// under a key that is no dataset key, one of whose segments begins with
// known data, hints at the dataset — used only when nothing names it.
void State::SetDataPathHint(const std::string& key, const std::string& value, const std::string& file, int line,
                            int prec) {
  if (value.find('/') == std::string::npos || value.size() > 300) return;
  std::vector<std::string> w = KeyWords(LastSegment(key));
  static const std::set<std::string> kPathWords = {"path",  "paths",    "dir",  "dirs",     "root", "folder",  "file",
                                                   "files", "filelist", "list", "manifest", "src",  "location"};
  static const std::set<std::string> kNotTrainingData = {
      "model", "ckpt",        "checkpoint", "pretrained", "pretrain",  "resume",  "output",  "out",     "save",
      "log",   "logs",        "cache",      "vocab",      "tokenizer", "weights", "weight",  "init",    "teacher",
      "eval",  "val",         "valid",      "validation", "test",      "dev",     "result",  "results", "exp",
      "work",  "tensorboard", "wandb",      "export",     "lm",        "dict",    "bpe",     "spm",     "stats",
      "cmvn",  "config",      "cfg",        "code",       "repo",      "load",    "restore", "sample",  "samples"};
  if (w.empty() || !kPathWords.count(w.back())) return;
  for (const auto& x : w)
    for (const auto& no : kNotTrainingData)
      if (x.rfind(no, 0) == 0) return;  // tokenizer2_path, ckpt_dir
  if (!LexiconWordExact("data", value).empty()) SetField("data_hint", key, value, file, line, prec, 1);
}

void State::Set(const std::string& raw_key, const std::string& value, const std::string& file, int line, int prec) {
  std::string key = NormalKey(raw_key);
  if (key.empty()) return;
  std::string last_seg = LastSegment(key);
  // `TASK_NAME = "task_name"`, `STEP = "step"` in Python: a constant that
  // spells its own name is a key or an enum member, not a setting. (On a
  // command line, `--gpus GPUS` is a placeholder: it stays, and blocks the default.)
  if (!value.empty() && Lower(value) == last_seg && EndsWith(file, ".py")) return;
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
    // A plain number is lhotse's batch budget in seconds of audio (--max-duration 200): kept as a value.
    if (d == 0 || !(unit.empty() || std::all_of(unit.begin(), unit.end(), [](char ch) {
                      return ch == '.' || ch == '0';
                    })) ||
        (!unit.empty() && unit[0] != '.'))
      return;
    Candidate& plain = values[key];
    if (prec >= plain.precedence) plain = {value, file, key, line, prec, 0, ++order};
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
  // StyleGAN-family `num_fp16_res: 4` (sr_num_fp16_res, d_num_fp16_res): the
  // highest resolutions compute in float16 when the count is positive.
  if (std::vector<std::string> w = KeyWords(LastSegment(key));
      kf.field.empty() && std::find(w.begin(), w.end(), "fp16") != w.end() &&
      std::find(w.begin(), w.end(), "res") != w.end() && std::find(w.begin(), w.end(), "num") != w.end())
    if (auto n = ToNumber(value)) {
      SetField("fp16", key, *n > 0 ? "true" : "false", file, line, prec, 1);
      return;
    }
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
  if (kf.field == "precision" && (Lower(value) == "true" || Lower(value) == "false"))
    kf.field = "amp";  // mixed_precision: true
  SetField(kf.field, key, value, file, line, prec, kf.specificity);
}

std::optional<std::string> State::Read(const std::string& path) {
  if (static_cast<int>(read.size()) >= opt.max_files) return std::nullopt;
  auto r = FileHeadTool(snap, path, opt.max_file_bytes);  // the listing's size cap hides no entry point
  if (!r.ok()) return std::nullopt;
  read.push_back(path);
  return r->text;
}

// A literal, or a module constant it names ("BATCH_SIZE").
std::optional<std::string> State::Literal(const PyValue& v) const {
  switch (v.kind) {
    case PyValue::Kind::kString:
    case PyValue::Kind::kInt:
    case PyValue::Kind::kFloat:
    case PyValue::Kind::kBool:
      return v.text;
    case PyValue::Kind::kName: {
      auto it = constants.find(v.text);
      if (it != constants.end() && it->second.kind != PyValue::Kind::kName && it->second.kind != PyValue::Kind::kList)
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

std::string DirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string JoinPath(const std::string& dir, const std::string& rel_in) {
  // `<NEMO_ROOT>/examples/x.py`: a directory the user fills in is where the command runs.
  std::string rel = rel_in;
  if (size_t close = rel.find(">/");
      !rel.empty() && rel[0] == '<' && close != std::string::npos && rel.find('/') == close + 1)
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

// ml_collections: `configs/x.py:gpu8` is the file configs/x.py called with "gpu8".
std::string StripConfigArg(const std::string& v) {
  size_t p = v.find(".py:");
  return p == std::string::npos ? v : v.substr(0, p + 3);
}

std::set<std::string> NargsOwnedWords(const State& st, const std::vector<std::string>& args) {
  std::set<std::string> owned;
  std::string last_opt;
  for (const auto& a : args) {
    if (a.size() > 1 && a[0] == '-' && !std::isdigit(static_cast<unsigned char>(a[1]))) {
      size_t body = a.find_first_not_of('-');
      last_opt = body == std::string::npos ? "" : a.substr(body);
      last_opt = last_opt.substr(0, last_opt.find('='));
      std::replace(last_opt.begin(), last_opt.end(), '-', '_');
    } else if (st.nargs_flags.count(last_opt)) {
      owned.insert(a);
    }
  }
  return owned;
}

}  // namespace schedmate::extraction
