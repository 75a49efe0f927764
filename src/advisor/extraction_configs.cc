#include "advisor/extraction_configs.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "advisor/config_files.h"
#include "advisor/field_keys.h"
#include "advisor/model_type.h"
#include "advisor/python_source.h"
#include "advisor/run_values.h"
#include "repo/tools.h"

namespace schedmate::extraction {

namespace {

// Files a config includes, read before it (lower in the merge order).
const std::set<std::string>& IncludeKeys() {
  static const std::set<std::string> k = {"_base_",  "__base__", "base",   "_BASE_",  "includes",    "include",
                                          "inherit", "inherits", "parent", "extends", "base_config", "_include_"};
  return k;
}

// A Hydra choice in the model's config group (`model=s4`, `- /model: s4`)
// names the model, weakly: a name the chosen file gives wins.
void NoteModelGroupChoice(State& st, const std::string& group, const std::string& option, const std::string& from,
                          int prec) {
  std::string last = group.substr(group.rfind('/') == std::string::npos ? 0 : group.rfind('/') + 1);
  if (last != "model" && last != "arch" && last != "network" && last != "net") return;
  st.SetField("model_name", "<" + last + " config group>", option, from, 0, prec, 1);
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
      NoteModelGroupChoice(st, g, option, path, prec);
      break;
    }
  }
  bool named_dataset = false;
  for (const auto& e : cfg->entries) {
    if (e.key.rfind("defaults.", 0) == 0 || e.key == "defaults") continue;
    if (IncludeKeys().count(e.key.substr(0, e.key.find('.')))) continue;
    // `datasets: {coco_caption: {...}}`: a datasets section keyed by the data's
    // names (the first one names the run's data).
    if (!named_dataset && prefix.empty() && e.key.rfind("datasets.", 0) == 0) {
      std::string rest = e.key.substr(9);
      size_t dot = rest.find('.');
      if (dot != std::string::npos && dot > 0) {
        st.SetField("dataset", "<datasets section>", rest.substr(0, dot), path, e.line, prec, 1);
        named_dataset = true;
      }
    }
    // A data mixture keyed by the data's names with their weights
    // (`data: {sources: {dclm_baseline_1.0: 1.0}}`, `dataset_mixer: {org/x: 0.5}`):
    // the first one names the run's data.
    if (!named_dataset && prefix.empty() && ToNumber(e.value))
      for (const char* mix : {"sources.", "dataset_mixer.", "dataset_mixture.", "data_mixture.", "mixture."}) {
        size_t at = e.key.find(mix);
        std::string parent = at == std::string::npos || at == 0 ? "" : e.key.substr(0, at - 1);
        if (at == std::string::npos || (at > 0 && e.key[at - 1] != '.')) continue;
        if (!parent.empty() && parent != "data" && parent != "dataset" && parent != "train_data") continue;
        std::string name = e.key.substr(at + std::string(mix).size());
        if (name.empty()) continue;
        // The generic `sources`/`mixture` sections (a mixture of experts'
        // mixture: {num_experts: 8, top_k: 2}) count only when keyed by data
        // names (a lexicon data word or an org/name id) with every value a weight.
        if (std::string(mix) == "sources." || std::string(mix) == "mixture.") {
          if (name.find('/') == std::string::npos && LexiconPrefix("data", name).empty()) continue;
          std::string section = e.key.substr(0, at + std::string(mix).size());
          bool weights = std::all_of(cfg->entries.begin(), cfg->entries.end(), [&](const auto& o) {
            return o.key.rfind(section, 0) != 0 || ToNumber(o.value).has_value();
          });
          if (!weights) continue;
        }
        st.SetField("dataset", "<data mixture>", name, path, e.line, prec, 1);
        named_dataset = true;
        break;
      }
    std::string f = ClassifyKey(prefix + e.key).field;
    bool device_list = e.list && (f == "devices" || f == "device");
    st.Set(prefix + e.key, device_list ? "[" + e.value + "]" : e.value, path, e.line, prec);
  }
}

// Python files used as configs: mmengine-style `_base_` lists, YOLOX `Exp`
// classes (`self.max_epoch = 300`), ml_collections `config.x = …`.
void ReadPythonConfig(State& st, const std::string& path, const std::string& text, int prec, int depth) {
  std::shared_ptr<const PythonFacts> shared = ParsePythonShared(text);
  const PythonFacts& py = *shared;
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

}  // namespace

void ReadConfigFile(State& st, const std::string& path, int prec, const std::string& group, int depth) {
  if (depth > 8 || std::find(st.config_paths.begin(), st.config_paths.end(), path) != st.config_paths.end()) return;
  auto text = st.Read(path);
  if (!text) return;
  st.config_paths.push_back(path);
  if (EndsWith(path, ".py"))
    ReadPythonConfig(st, path, *text, prec, depth);
  else if (EndsWith(path, ".gin") || EndsWith(path, ".txt") || EndsWith(path, ".cfg") || EndsWith(path, ".ini"))
    ReadGin(st, path, *text, prec, depth);  // key = value lines (gin, configargparse, ini)
  else
    ReadYaml(st, path, *text, prec, group, depth);
}

namespace {

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
      return x == "hparams" || x == "set" || x == "preset" || x == "recipe" || x == "config" || x == "cfg" ||
             x == "exp";
    });
    bool ident =
        v.size() >= 4 && v.size() <= 80 && (std::isalpha(static_cast<unsigned char>(v[0])) || v[0] == '_') &&
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
      std::shared_ptr<const PythonFacts> py = ParsePythonShared(r->text);
      for (const auto& a : py->assigns)
        if (a.scope == *name)
          if (auto v = st.Literal(a.value)) st.Set(a.target, *v, *f, a.line, kConfig);
      // A registry function that returns a config object (`return
      // Trainer.Config(training=TrainingConfig(steps=1000), optimizer=adamw(lr=3e-4))`):
      // the literal keywords of its calls, the first binding of a key winning
      // (the trainer's own before a validator's or a scheduler's).
      std::set<std::string> seen;
      // A call that builds an evaluation, test or warm-up part, by its own
      // name (TestCfg, LinearWarmup) or the keyword it is bound to (test=…,
      // val_data=…, warmup=…): its sizes and steps are not the run's.
      auto beside = [](const std::vector<std::string>& w) {
        return std::any_of(w.begin(), w.end(), [](const std::string& x) {
          return x == "scheduler" || x == "schedule" || x == "sched" || x == "eval" || x == "evaluation" ||
                 x == "validator" || x == "validation" || x == "val" || x == "valid" || x == "test" ||
                 x == "testing" || x == "warmup" || x == "predict" || x == "inference" || x == "infer" ||
                 x == "profiler" || x == "checkpoint" || x == "logger" || x == "metrics";
        });
      };
      std::vector<std::pair<size_t, size_t>> beside_ranges;  // source bytes of values bound to such keywords
      for (const auto& c : py->calls) {
        if (c.scope != *name) continue;
        for (const auto& [k, v] : c.kwargs)
          if (v.kind == PyValue::Kind::kOther && !v.text.empty() && beside(KeyWords(k)))
            if (size_t at = r->text.find(v.text, std::max(c.begin, 0)); at != std::string::npos)
              beside_ranges.emplace_back(at, at + v.text.size());
      }
      for (const auto& c : py->calls) {
        if (c.scope != *name) continue;
        if (beside(KeyWords(LastSegment(c.callee)))) continue;
        if (std::any_of(beside_ranges.begin(), beside_ranges.end(), [&](const auto& range) {
              return static_cast<size_t>(c.begin) >= range.first && static_cast<size_t>(c.begin) < range.second;
            }))
          continue;
        for (const auto& [k, v] : c.kwargs)
          if (auto lit = st.Literal(v); lit && seen.insert(NormalKey(k)).second) st.Set(k, *lit, *f, c.line, kConfig);
      }
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
                 std::all_of(v.begin(), v.end(), [](char c) {
                   return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
                 });
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

// A config file's stem up to its first resolution, GPU×batch, schedule or
// dataset-size token: segformer.b1.512x512.ade.160k → segformer.b1,
// retinanet_r50_fpn_1x_coco → retinanet_r50_fpn.
std::string StemName(const std::string& stem) {
  size_t start = 0;
  for (size_t i = 0; i <= stem.size(); ++i) {
    if (i < stem.size() && stem[i] != '.' && stem[i] != '_' && stem[i] != '-') continue;
    std::string tok = Lower(stem.substr(start, i - start));
    bool digit_x = !tok.empty() && std::isdigit(static_cast<unsigned char>(tok[0])) &&
                   (tok.find('x') != std::string::npos || EndsWith(tok, "k") || EndsWith(tok, "e") ||
                    EndsWith(tok, "ep") || EndsWith(tok, "epoch") || EndsWith(tok, "epochs"));
    if (digit_x && start > 0) return stem.substr(0, start - 1);
    start = i + 1;
  }
  return stem;
}

// The default.<ext> files in a named config's directory and every directory
// above it, farthest first, under the named config (State::config_dir_defaults).
void ReadDirectoryDefaults(State& st, const std::string& config) {
  size_t dot = config.rfind('.');
  if (dot == std::string::npos || dot < config.rfind('/') + 1) return;
  std::string ext = config.substr(dot);
  std::vector<std::string> found;
  for (std::string dir = DirOf(config);; dir = DirOf(dir)) {
    std::string d = JoinPath(dir, "default" + ext);
    if (d != config && st.files.count(d)) found.push_back(d);
    if (dir.empty() || found.size() >= 8) break;
  }
  for (auto it = found.rbegin(); it != found.rend(); ++it) ReadConfigFile(st, *it, kEntryDefault, "", 0);
}

}  // namespace

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
  for (const auto& [rel, from] : st.own_dir_configs)
    if (std::string p = JoinPath(DirOf(from), rel); !p.empty() && st.files.count(p))
      ReadConfigFile(st, p, kEntryDefault, "", 0);
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
    if (config_key && !IsConfigLike(v) &&
        (v.find('/') == std::string::npos || EndsWith(v, ".txt") || EndsWith(v, ".cfg")))
      configs.push_back(v);
    // A config preset named after a model (--cfg=stylegan3-t), not a file. A
    // run's label or place (exp_name=anthropic_dpo_pythia28, exp_dir, run_id)
    // only mentions the model: no preset.
    // A name is a label only when it names the run (exp_name, run_name,
    // wandb_name): config_name/model_name/tokenizer_name name the model.
    auto names_the_run = [&] {
      return std::any_of(w.begin(), w.end(), [](const std::string& x) {
        return x == "exp" || x == "experiment" || x == "run" || x == "job" || x == "project" || x == "wandb" ||
               x == "output" || x == "out" || x == "save" || x == "log" || x == "logging" || x == "ckpt" ||
               x == "checkpoint" || x == "trial" || x == "group" || x == "task" || x == "version";
      });
    };
    bool run_label = !w.empty() && ((w.back() == "name" && names_the_run()) || w.back() == "dir" ||
                                    w.back() == "id" || w.back() == "tag" || w.back() == "folder" ||
                                    w.back() == "path");
    if (config_key && !run_label && !IsConfigLike(v) && v.find('/') == std::string::npos &&
        !LexiconWordIn("name", v).empty() && !ResolvePath(st, v, near, true))
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
    if (auto p = ResolvePath(st, StripConfigArg(d.path), DirOf(d.from), true))
      ReadConfigFile(st, *p, kEntryDefault, "", 0);
  }
  for (const auto& c0 : configs) {
    std::string c = StripConfigArg(c0);
    auto p = ResolvePath(st, c, near, true);
    if (!p || *p == entry) continue;
    if (st.config_dir_defaults) ReadDirectoryDefaults(st, *p);
    ReadConfigFile(st, *p, kConfig, "", 0);
    if (std::find(st.config_paths.begin(), st.config_paths.end(), *p) == st.config_paths.end()) continue;
    // The run's own config file often is the model's name (models/yolov9-c.yaml, mpt-125m.yaml).
    std::string stem = p->substr(p->rfind('/') == std::string::npos ? 0 : p->rfind('/') + 1);
    stem = StemName(stem.substr(0, stem.rfind('.')));
    bool model_dir = false;
    for (const auto& seg : KeyWords(DirOf(*p)))
      model_dir =
          model_dir || seg == "models" || seg == "model" || seg == "arch" || seg == "archs" || seg == "networks";
    // A Python config that names its model plainly (`model = 'PixArt_XL_2'`, not a dict of
    // parts) says more than its file name.
    auto plain = st.values.find("model");
    bool plain_model =
        plain != st.values.end() && plain->second.precedence >= kConfig && !plain->second.value.empty() &&
        std::all_of(plain->second.value.begin(), plain->second.value.end(),
                    [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
    if (EndsWith(*p, ".py") && st.base_configs.count(*p))
      st.SetField("model_name", "<config file>", stem, *p, 0, kConfig, plain_model ? 1 : 3);  // OpenMMLab-style
    else if (EndsWith(*p, ".py"))
      st.SetField("model_name", "<config file>", stem, *p, 0, kConfig, 1);
    else if (model_dir)
      st.SetField("model_name", "<config file>", stem, *p, 0, kConfig, 2);
    else if (!LexiconWordIn("name", stem).empty())
      st.SetField("model_name", "<config file>", stem, *p, 0, kConfig, 1);
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
        NoteModelGroupChoice(st, k, v, "<command>", kConfig);
      }
    }
  }
  ReadRegistryEntries(st, spec);
  if (!entry.empty()) ReadNamedSections(st, spec, entry);
  // An nargs='+' option's values on the command line (`--devices cuda:0 cuda:1
  // cuda:2`): the launch parser keeps the first; the rest follow it as bare words.
  std::map<std::string, std::string> nargs_values;
  {
    std::string opt;
    for (const auto& a : spec.args) {
      if (a.size() > 1 && a[0] == '-' && !std::isdigit(static_cast<unsigned char>(a[1]))) {
        size_t body = a.find_first_not_of('-');
        opt = body == std::string::npos || a.find('=') != std::string::npos ? "" : a.substr(body);
        std::replace(opt.begin(), opt.end(), '-', '_');
        if (!st.nargs_flags.count(opt)) opt.clear();
      } else if (!opt.empty() && a.find('=') == std::string::npos) {
        nargs_values[opt] += (nargs_values[opt].empty() ? "" : ",") + a;
      }
    }
  }
  for (const auto& [k0, v0] : spec.overrides) {
    const std::string& k = k0;
    auto many = nargs_values.find(k);
    const std::string& v = many != nargs_values.end() && many->second.find(',') != std::string::npos ? many->second : v0;
    if (group_choices.count(k)) continue;
    if (v.size() > 2 && v.front() == '{' && v.back() == '}') {  // --hparams '{"learning_rate": 1e-4}'
      if (auto cfg = ParseConfig(v, "<command>.json"); cfg.ok()) {
        for (const auto& e : cfg->entries) st.Set(e.key, e.value, "<command>", 0, kCommand);
        continue;
      }
    }
    if (size_t eq = v.find(" = "); eq != std::string::npos && eq > 0) {  // --gin_param="train.steps = 1000"
      std::string val = v.substr(eq + 3);
      if (val.size() >= 2 && (val[0] == '"' || val[0] == '\'') && val.back() == val[0])
        val = val.substr(1, val.size() - 2);
      st.Set(v.substr(0, eq), val, "<command>", 0, kCommand);
      continue;
    }
    auto alias = st.aliases.find(k);
    st.Set(alias != st.aliases.end() ? alias->second : k, v, "<command>", 0, kCommand);
  }
  // Bare words bind to the script's positional arguments in order (`main.py /path/to/imagenet`).
  // Words after an nargs='+' option belong to it (`--methods simclr byol`).
  std::set<std::string> owned = NargsOwnedWords(st, spec.args);
  size_t next = 0;
  for (const auto& p : spec.positional) {
    if (owned.count(p) || ResolvePath(st, p, near, true)) continue;  // an option's list item; a config file, read above
    if (next < st.positionals.size()) st.Set(st.positionals[next++], p, "<command>", 0, kCommand);
    bool artifact = p.find('[') != std::string::npos || p.find(']') != std::string::npos;
    for (const char* ext :
         {".pth", ".pt", ".tar", ".ckpt", ".bin", ".safetensors", ".h5", ".pkl", ".log", ".sh", ".py"})
      artifact = artifact || EndsWith(Lower(p), ext);
    if (p.find('/') != std::string::npos && !IsConfigLike(p) && !artifact)
      st.SetField("dataset", "<positional path>", p, "<command>", 0, kCommand, 1);  // fairseq-train data-bin/x
  }
}

}  // namespace schedmate::extraction
