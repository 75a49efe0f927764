#include "advisor/extraction_python.h"

#include <algorithm>
#include <limits>
#include <cctype>
#include <deque>
#include <map>
#include <set>
#include <tuple>

#include "advisor/field_keys.h"
#include "advisor/model_type.h"
#include "advisor/python_source.h"
#include "advisor/run_values.h"

namespace schedmate::extraction {

namespace {

// `nullcontext() if device_type == 'cpu' else autocast(...)`: on wherever there is a GPU.
bool ConditionOnTheDevice(const std::string& condition) {
  return condition.find("device") != std::string::npos || condition.find("cuda") != std::string::npos ||
         condition.find("cpu") != std::string::npos || condition.find("gpu") != std::string::npos;
}

// `args.use_amp`, `opt.O`: a setting's name (possibly dotted), not an expression.
bool IsSettingName(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.';
  });
}

// A call that turns on mixed precision near the entry. autocast(enabled=False)
// and autocast(dtype=float32) turn it off; enabled=<setting> and an object's
// own autocast() (an Accelerator's, a solver's) leave it to a setting.
void NoteMixedPrecision(State& st, const PyCall& c, const std::string& last) {
  bool scaler = last == "GradScaler" || last == "ShardedGradScaler";
  if (last != "autocast" && !scaler && last != "half") return;
  std::string owner =
      c.callee.size() > last.size() ? LastSegment(c.callee.substr(0, c.callee.size() - last.size() - 1)) : "";
  if (last == "half") {
    if (owner == "model" || owner == "net" || owner == "network") st.mixed_always = true;  // model.half()
    return;
  }
  if (const PyValue* d = c.Kwarg("dtype"); d && d->text.find("float32") != std::string::npos) return;
  bool module = owner.empty() || owner == "torch" || owner == "amp" || owner == "cuda" || owner == "cpu" ||
                owner == "npu" || owner == "xpu" || owner == "sharded_grad_scaler";
  if (module && !c.condition.empty() && !ConditionOnTheDevice(c.condition)) {
    // `autocast() if cfg.use_amp else nullcontext()`: the condition is the switch;
    // a condition that is not a plain setting leaves the precision open.
    bool plain = !c.condition_negated && IsSettingName(c.condition);
    if (st.mixed_switches.size() < 16) st.mixed_switches.insert(plain ? NormalKey(c.condition) : "(" + c.condition + ")");
    return;
  }
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
      if (c.callee.find('.') != std::string::npos || !defined.count(c.callee) || st.entry_functions.count(c.callee))
        continue;
      if (!c.scope.empty() && !st.entry_functions.count(c.scope)) continue;
      std::string name = Lower(c.callee);
      bool housekeeping = false;
      for (std::string_view w : {"eval", "test", "valid", "predict", "infer", "plot", "log", "save", "load", "download",
                                 "seed", "setup", "parse", "print", "visual", "export", "sample"})
        housekeeping = housekeeping || name.find(w) != std::string::npos;
      bool trains = name.find("train") != std::string::npos || name.find("fit") != std::string::npos ||
                    name.find("learn") != std::string::npos;  // train_eval trains
      if (!housekeeping || trains) st.entry_functions.insert(c.callee);
    }
}

// `if opt.O:` / `elif args.fast:` over a plain assignment: a setting that one
// flag (a name, possibly dotted) turns on.
bool UnderAFlag(const PyAssign& a) {
  return a.origin == PyAssign::Origin::kAssign && IsSettingName(a.condition);
}

// The model the entry builds: `model = GraphSAGE(...)`, `model_bert4rec =
// BERT4Rec(...).to(device)`, `net = resnet.ResNet18()`, in a function or at
// the top of the script. The class names the model when it is a known family
// (the lexicon); wrappers (DDP, *Model, *Module, *Parallel), task-head classes
// (*ForSequenceClassification) and generic names do not. (A network class the
// repository defines, whatever its name, was tried: development +7 / -2 wrong,
// validation -2 / +2 wrong.)
void NoteModelInstance(State& st, const PyAssign& a, const std::string& path, int prec) {
  if (a.value.kind != PyValue::Kind::kOther || a.target.find('.') != std::string::npos) return;
  size_t open = a.value.text.find('(');
  if (open == std::string::npos) return;
  std::string v = a.value.text.substr(0, open);
  v = v.substr(v.rfind('.') == std::string::npos ? 0 : v.rfind('.') + 1);
  if (v.empty() || !std::isupper(static_cast<unsigned char>(v[0])) || NameStrength(v) != 0 || GenericName(Lower(v)))
    return;
  // Parallelism and loading wrappers (DistributedModelParallel, DetectMultiBackend) and a
  // family's task-head classes (GLMForSequenceClassification: the checkpoint names the model).
  if (size_t f = v.find("For");
      f != std::string::npos && f > 0 && f + 3 < v.size() && std::isupper(static_cast<unsigned char>(v[f + 3])))
    return;
  // In an RL library's run the network is the policy's function approximator; the algorithm names the model.
  for (const char* rl : {"tianshou", "stable_baselines3", "sb3_contrib", "rl_games", "rllib", "ray"})
    if (st.entry_imports.count(rl)) return;
  for (const auto& x : KeyWords(v))
    if (x == "parallel" || x == "distributed" || x == "backend" || x == "bucket" || x == "wrapper" || x == "sharded" ||
        x == "for")
      return;
  std::vector<std::string> w = KeyWords(a.target);
  bool model_var = a.target == "model" || a.target == "net" || a.target == "network" ||
                   (w.size() == 2 && (w[0] == "model" || w[0] == "net") && w[1] == Lower(v));  // model_bert4rec
  if (!model_var) return;
  if (!LexiconWordIn("name", v).empty()) st.SetField("model_name", "<model = Class(...)>", v, path, a.line, prec, 1);
}

// `sys.argv[1] if len(sys.argv) > 1 else "distilbert-base-uncased"`: a
// script's own command-line default is the literal after `else`.
std::optional<std::string> ArgvDefault(const State& st, const PyValue& v) {
  if (v.kind != PyValue::Kind::kOther || v.text.find("sys.argv") == std::string::npos) return std::nullopt;
  size_t e = v.text.rfind(" else ");
  if (e == std::string::npos || v.text.find("sys.argv") > e) return std::nullopt;
  PythonFacts tail = ParsePython("_default = " + v.text.substr(e + 6) + "\n");
  for (const auto& a : tail.assigns)
    if (a.target == "_default") return st.Literal(a.value);
  return std::nullopt;
}

// A call whose dtype keyword is the precision the model computes in:
// FSDP's MixedPrecision(param_dtype=…), autocast(dtype=…),
// from_pretrained(…, torch_dtype=…), a model's .to(dtype=…), and a Flax
// module's dtype= / param_dtype= on the model's constructor (a class the code
// calls, not a flax.linen layer). A tensor's dtype (torch.zeros(…,
// dtype=torch.float16)) is no precision of the run.
bool PrecisionApiKeyword(const PyCall& c, const std::string& key, bool flax_file) {
  std::string last = LastSegment(c.callee);
  if (last == "MixedPrecision") return key.find("dtype") != std::string::npos;
  if (last == "autocast") return key == "dtype";
  if (last == "from_pretrained" || last == "from_config") return key == "torch_dtype" || key == "dtype";
  if (last == "to" && c.callee.size() > 3) {
    std::string object = Lower(LastSegment(c.callee.substr(0, c.callee.size() - 3)));
    return key == "dtype" && object.find("model") != std::string::npos;
  }
  if (flax_file && (key == "dtype" || key == "param_dtype") && !last.empty() &&
      std::isupper(static_cast<unsigned char>(last[0])) && c.callee.rfind("nn.", 0) != 0 &&
      c.callee.find("linen.") == std::string::npos)
    return true;
  return false;
}

// A precision API's dtype keyword given as the library's name for a half
// precision (MixedPrecision(param_dtype=torch.bfloat16), dtype=jnp.float16 on
// a Flax model): that precision, as a setting of the key. (float32 names were
// tried: they are mostly casts beside an autocast, dev +1 / -2; so were local
// assignments `param_dtype = torch.bfloat16`: +2 / -1.)
std::optional<std::string> HalfDtypeName(const std::string& key, const PyValue& v) {
  if (v.kind != PyValue::Kind::kName || key.find("dtype") == std::string::npos) return std::nullopt;
  std::string dtype = LastSegment(v.text);
  if (dtype == "bfloat16" || dtype == "float16" || dtype == "half") return dtype;
  return std::nullopt;
}

// The directory of the Python file itself, as code spells it:
// os.path.dirname(__file__) (also of its abspath / realpath) or
// Path(__file__).parent (also resolved / absolute). Its parent directory, a
// variable or any other expression is not.
bool IsOwnDirectory(const PyValue& v) {
  if (v.kind != PyValue::Kind::kOther) return false;
  std::string t;
  for (char ch : v.text)
    if (!std::isspace(static_cast<unsigned char>(ch))) t += ch;
  std::string file = "__file__";
  for (const char* wrap : {"os.path.abspath(", "os.path.realpath(", "path.abspath(", "path.realpath("})
    if (t.find(std::string(wrap) + "__file__)") != std::string::npos) file = std::string(wrap) + "__file__)";
  for (const char* dirname : {"os.path.dirname(", "path.dirname(", "dirname("})
    if (t == std::string(dirname) + file + ")") return true;
  for (const char* path : {"Path(", "pathlib.Path("})
    for (const char* via : {"", ".resolve()", ".absolute()"})
      if (t == std::string(path) + "__file__)" + via + ".parent") return true;
  return false;
}

// The package's default config the code opens beside itself:
// `os.path.join(os.path.dirname(__file__), "config", "default.yaml")` →
// config/default.yaml, relative to the file's own directory (the first
// argument must be that directory, spelled with __file__). Only a file named
// as defaults: a join to any other YAML is usually one of several choices.
std::optional<std::string> DefaultConfigJoined(const PyCall& c) {
  if (LastSegment(c.callee) != "join" || c.args.size() < 2 || c.args.size() > 6) return std::nullopt;
  if (!IsOwnDirectory(c.args[0])) return std::nullopt;
  const PyValue& tail = c.args.back();
  if (tail.kind != PyValue::Kind::kString || !(EndsWith(tail.text, ".yaml") || EndsWith(tail.text, ".yml")))
    return std::nullopt;
  std::string stem = tail.text.substr(tail.text.rfind('/') == std::string::npos ? 0 : tail.text.rfind('/') + 1);
  stem = Lower(stem.substr(0, stem.find('.')));
  if (stem != "default" && stem != "defaults" && stem != "base" && stem != "common") return std::nullopt;
  std::string rel;
  for (size_t i = 1; i < c.args.size(); ++i) {  // the first is the directory (`dirname(__file__)`)
    if (c.args[i].kind != PyValue::Kind::kString) return std::nullopt;
    rel += (rel.empty() ? "" : "/") + c.args[i].text;
  }
  return rel;
}

// `os.path.join(config_dir, "default" + ext)` / `join(d, "default.yaml")`
// with a directory that is not the file's own: the code merges a default
// config from the directories of the config it is given. The directory must
// come from the config's path (config_path, cfg_dir, dirname(args.config)):
// a join under another directory (args.out) is not one of the config's.
bool JoinsDefaultToAConfigDirectory(const PyCall& c) {
  if (LastSegment(c.callee) != "join" || c.args.size() != 2 || IsOwnDirectory(c.args[0]) ||
      c.args[0].kind == PyValue::Kind::kString)
    return false;
  std::string dir = Lower(c.args[0].text);
  if (dir.find("config") == std::string::npos && dir.find("cfg") == std::string::npos &&
      dir.find("conf") == std::string::npos)
    return false;
  const PyValue& tail = c.args[1];
  if (tail.kind == PyValue::Kind::kString)
    return tail.text == "default.yaml" || tail.text == "default.yml" || tail.text == "default.json";
  return tail.kind == PyValue::Kind::kOther &&
         (tail.text.rfind("\"default\" +", 0) == 0 || tail.text.rfind("'default' +", 0) == 0);
}

// The (first line, source text) of each file a call opens for writing
// (`open(os.path.join(args.out, "common.yaml"), "w")`): a path joined there is
// an output, not a config the code reads.
std::vector<std::pair<int, std::string>> OpenedForWriting(const PythonFacts& py) {
  std::vector<std::pair<int, std::string>> out;
  for (const auto& c : py.calls) {
    if (LastSegment(c.callee) != "open" || c.args.empty()) continue;
    const PyValue* mode = c.args.size() >= 2 ? &c.args[1] : c.Kwarg("mode");
    if (!mode || mode->kind != PyValue::Kind::kString) continue;
    if (mode->text.find_first_of("wax") == std::string::npos) continue;
    out.emplace_back(c.line, c.args[0].text);
  }
  return out;
}

bool InsideWriteOpen(const PyCall& join, const std::vector<std::pair<int, std::string>>& written) {
  const std::string& tail = join.args.back().text;
  for (const auto& [line, text] : written) {
    int last = line + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    if (join.line >= line && join.line <= last && text.find("join") != std::string::npos &&
        text.find(tail) != std::string::npos)
      return true;
  }
  return false;
}

// tyro's subcommand CLIs over a table of named config objects
// (`method_configs["nerfacto"] = TrainerConfig(...)`, `configs = {"default":
// Config(...), "mcmc": ...}`): the command's first bare word picks one entry.
// Only in a file that builds such a CLI, and only when an entry has that name.
void NoteSubcommandEntry(State& st, const std::string& path, const PythonFacts& py) {
  if (st.subcommand.empty()) return;
  // A value of an nargs='+' option (`--baselines ppo sac`) picks no entry.
  if (NargsOwnedWords(st, st.command_args).count(st.subcommand)) return;
  // The tables the tyro calls are given (`overridable_config_cli(configs)`);
  // empty when a call's argument is no plain name (then any table with the entry).
  std::set<std::string> given;
  bool cli = false, any_table = false;
  for (const auto& c : py.calls) {
    std::string last = LastSegment(c.callee);
    if (last != "subcommand_type_from_defaults" && last != "subcommand_cli_from_dict" && last != "overridable_config_cli")
      continue;
    cli = true;
    if (!c.args.empty() && c.args[0].kind == PyValue::Kind::kName)
      given.insert(c.args[0].text);
    else
      any_table = true;
  }
  if (!cli) return;
  std::set<std::string> tables;
  for (const auto& e : py.entries)
    if (e.key == st.subcommand && (any_table || given.count(e.container))) tables.insert(e.container);
  for (const auto& e : py.entries) {
    if (!tables.count(e.container)) continue;
    (e.key == st.subcommand ? st.chosen_entry : st.other_entries)[path].emplace_back(e.begin, e.end);
  }
  // A table built from a list of config objects that carry their own names
  // (`_CONFIGS = [TrainConfig(name="pi0_aloha", …), TrainConfig(name="debug", …)]`,
  // then `{c.name: c for c in _CONFIGS}`): each object runs from its call to
  // the next one's, and only the one the command names is the run's.
  if (tables.empty() && any_table) {
    std::map<std::string, std::vector<std::pair<int, bool>>> named;  // callee → (begin, is the chosen)
    for (const auto& c : py.calls)
      if (const PyValue* n = c.Kwarg("name"); n && n->kind == PyValue::Kind::kString && c.scope.empty())
        named[c.callee].emplace_back(c.begin, n->text == st.subcommand);
    for (auto& [callee, list] : named) {
      if (list.size() < 2 || std::none_of(list.begin(), list.end(), [](const auto& x) { return x.second; })) continue;
      std::sort(list.begin(), list.end());
      for (size_t i = 0; i < list.size(); ++i) {
        int end = i + 1 < list.size() ? list[i + 1].first : std::numeric_limits<int>::max();
        (list[i].second ? st.chosen_entry : st.other_entries)[path].emplace_back(list[i].first, end);
      }
      tables.insert(callee);
      // The config's own name labels the run: a model name only when the
      // code names none (a model id it loads literally outranks it).
      st.SetField("model_name", "<subcommand>", st.subcommand, path, 0, kLibrary, 1);
      return;
    }
  }
  // The subcommand is the name the repository gives that configuration, when
  // the entry's value is one (a call or a bound config); an entry that is a
  // function (subcommand_cli_from_dict({"fit": fit, "distill": distill}))
  // names a command, not the model.
  bool names_config = false;
  for (const auto& table : tables) {
    const PyAssign* value = nullptr;
    for (const auto& a : py.assigns)
      if (a.target == table + "." + st.subcommand) value = &a;
    if (!value || value->value.kind != PyValue::Kind::kName) {
      names_config = true;
      continue;
    }
    for (const auto& a : py.assigns)  // a name bound to a config object at module level
      if (a.target == value->value.text && a.scope.empty() && a.origin == PyAssign::Origin::kAssign)
        names_config = true;
  }
  if (names_config) st.SetField("model_name", "<subcommand>", st.subcommand, path, 0, kConfig, 1);
}

// Whether the source byte `at` of `path` lies in one of the entries' values.
bool InRanges(const std::map<std::string, std::vector<std::pair<int, int>>>& ranges, const std::string& path,
              int at) {
  auto it = ranges.find(path);
  if (it == ranges.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](const std::pair<int, int>& r) { return at >= r.first && at < r.second; });
}

// The keyword arguments of the calls that build the chosen entry are the
// run's settings, as a config file the command names would be; the first
// binding of a key wins (the trainer's own before a nested scheduler's).
void SetChosenEntry(State& st, const std::string& path, const std::vector<const PyCall*>& calls) {
  std::set<std::string> seen;
  for (const PyCall* c : calls) {
    std::vector<std::string> w = KeyWords(LastSegment(c->callee));
    if (std::any_of(w.begin(), w.end(), [](const std::string& x) {
          return x == "scheduler" || x == "schedule" || x == "sched" || x == "eval" || x == "viewer";
        }))
      continue;
    for (const auto& [k, v] : c->kwargs)
      if (auto lit = st.Literal(v); lit && seen.insert(NormalKey(k)).second) st.Set(k, *lit, path, c->line, kConfig);
  }
}

// A call that builds a trainer's arguments (TrainingArguments, Trainer,
// SFTConfig, TrainerConfig) and sets the field by keyword.
bool TrainerArgumentSets(const PythonFacts& py, const std::string& field) {
  for (const auto& c : py.calls) {
    std::vector<std::string> w = KeyWords(LastSegment(c.callee));
    bool trainer = std::any_of(w.begin(), w.end(), [](const std::string& x) {
      return x == "trainer" || x == "training" || x == "train";
    });
    bool args = std::any_of(w.begin(), w.end(), [](const std::string& x) {
      return x == "arguments" || x == "args" || x == "config" || x == "cfg" || x == "trainer";
    });
    bool sft = std::any_of(w.begin(), w.end(), [](const std::string& x) {
      return x == "sft" || x == "dpo" || x == "grpo" || x == "ppo" || x == "orpo" || x == "kto" || x == "reward";
    }) && std::find(w.begin(), w.end(), "config") != w.end();
    if (!((trainer && args) || sft)) continue;
    for (const auto& [k, v] : c.kwargs)
      if (ClassifyKey(k).field == field) return true;
  }
  return false;
}

// A Lightning Trainer that only tests, validates, predicts or tunes
// (`L.Trainer(devices=1).test(...)`, `tuner = Trainer(devices=1)` for lr_find):
// its devices are not the run's. One given a budget (max_epochs, max_steps)
// or that fits is the run's.
bool OnlyEvaluates(State& st, const std::string& path, const PyCall& c) {
  for (const char* k : {"max_epochs", "max_steps", "min_epochs", "min_steps", "max_time"})
    if (c.Kwarg(k)) return false;
  auto text = st.Read(path);
  if (!text || c.begin < 0 || static_cast<size_t>(c.begin) >= text->size()) return false;
  const std::string& t = *text;
  auto evaluating = [](const std::string& method) {
    return method == "test" || method == "validate" || method == "predict" || method == "tune" ||
           method == "lr_find" || method == "scale_batch_size";
  };
  // The call's closing parenthesis, then a method called on its result.
  size_t open = t.find('(', c.begin);
  if (open == std::string::npos) return false;
  int depth = 0;
  size_t close = std::string::npos;
  for (size_t i = open; i < t.size(); ++i) {
    if (t[i] == '(') ++depth;
    if (t[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close != std::string::npos && close + 1 < t.size() && t[close + 1] == '.') {
    size_t e = close + 2;
    while (e < t.size() && (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_')) ++e;
    return evaluating(t.substr(close + 2, e - close - 2));
  }
  // `name = Trainer(...)`: what the name is used for in the file.
  size_t line_start = t.rfind('\n', c.begin);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  std::string before = t.substr(line_start, c.begin - line_start);
  size_t eq = before.find('=');
  if (eq == std::string::npos) return false;
  std::string name = before.substr(0, eq);
  name.erase(0, name.find_first_not_of(" \t"));
  name.erase(name.find_last_not_of(" \t:") + 1);
  if (name.empty() || !std::all_of(name.begin(), name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.';
      }))
    return false;
  if (t.find(name + ".fit(") != std::string::npos) return false;
  std::vector<std::string> w = KeyWords(name);
  if (std::any_of(w.begin(), w.end(), [](const std::string& x) {
        return x == "test" || x == "tester" || x == "tune" || x == "tuner" || x == "eval" || x == "val" ||
               x == "predict" || x == "predictor" || x == "evaluator";
      }))
    return true;
  for (size_t at = t.find(name + "."); at != std::string::npos; at = t.find(name + ".", at + 1)) {
    size_t b = at + name.size() + 1, e = b;
    while (e < t.size() && (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_')) ++e;
    if (evaluating(t.substr(b, e - b))) return true;
  }
  return false;
}

void ScanPython(State& st, const std::string& path, const PythonFacts& py, int prec, bool near_entry) {
  std::set<std::string> first_in_file;
  const std::vector<std::pair<int, std::string>> written = OpenedForWriting(py);
  const bool flax_file = std::any_of(py.imports.begin(), py.imports.end(),
                                     [](const PyImport& i) { return i.module.rfind("flax", 0) == 0; });
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
    if (prec == kEntryDefault && UnderAFlag(a)) {
      if (auto v = st.Literal(a.value); v && st.flag_settings.size() < 256)
        st.flag_settings.push_back({a.condition, a.target, *v, path, a.line});
      continue;
    }
    bool dotted = a.target.find('.') != std::string::npos;
    if (near_entry && !a.in_function && a.origin == PyAssign::Origin::kAssign) NoteModelInstance(st, a, path, prec);
    if (a.origin == PyAssign::Origin::kParam) {
      if (!st.entry_functions.count(a.scope)) continue;
    } else if (!dotted && a.scope.empty() && a.value.kind != PyValue::Kind::kOther) {
      st.constants[a.target] = a.value;
    } else if (a.origin == PyAssign::Origin::kAssign && a.in_function && (!dotted || prec <= kImported) &&
               !(a.target.rfind("self.", 0) == 0 && EndsWith(a.scope, "__init__"))) {
      // (A config class's constructor defaults, `self.lr = 1e-4` in __init__, are settings.)
      // A function's local variable is not a setting; nor is an attribute a
      // library function sets at run time (`args.bf16 = True` inside an if).
      if (near_entry) NoteModelInstance(st, a, path, prec);
      continue;
    }
    if (dotted) {  // MODEL_NAME_TO_CONFIG = {...}: entries of a lookup table are not settings
      std::string head = a.target.substr(0, a.target.find('.'));
      bool caps = head.size() > 1 && std::none_of(head.begin(), head.end(),
                                                  [](char c) { return std::islower(static_cast<unsigned char>(c)); });
      if (caps && head != "C" && head != "_C" && head != "FLAGS") continue;
    }
    // Within one file the first binding is the default; later ones are usually
    // conditional (`if debug: self.train_batch_size = 8`).
    std::optional<std::string> v = st.Literal(a.value);
    if (!v) v = ArgvDefault(st, a.value);
    if (!v && prec == kEntryDefault && a.value.kind == PyValue::Kind::kOther && a.value.text.find(" if ") != std::string::npos &&
        a.value.text.find(" else ") != std::string::npos && a.value.text.find("lambda") == std::string::npos &&
        st.conditional_settings.size() < 64 && ClassifyKey(a.target).field == "learning_rate")
      st.conditional_settings.push_back({a.value.text, a.target, "", path, a.line});
    if (v && first_in_file.insert(NormalKey(a.target)).second) st.Set(a.target, *v, path, a.line, prec);
  }
  for (const auto& k : py.classes) st.bases[k.name] = k.bases;
  std::vector<const PyCall*> chosen;
  for (const auto& c0 : py.calls) {
    if (InRanges(st.other_entries, path, c0.begin)) continue;  // a configuration the command did not pick
    if (InRanges(st.chosen_entry, path, c0.begin)) chosen.push_back(&c0);
    PyCall c = c0;
    if (auto f = from.find(c.callee.substr(0, c.callee.find('.'))); f != from.end())
      c.callee = f->second + "." + c.callee;
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
      const PyValue* d = c.Kwarg("default") ? c.Kwarg("default")
                                            : (last != "add_argument" && c.args.size() > 1 ? &c.args[1] : nullptr);
      std::string file;
      if (d && d->kind == PyValue::Kind::kString) file = d->text;
      if (d && d->kind == PyValue::Kind::kOther) {  // ROOT / 'data/hyps/hyp.scratch.yaml'
        size_t q = d->text.find_first_of("'\"");
        size_t e = q == std::string::npos ? q : d->text.find(d->text[q], q + 1);
        if (e != std::string::npos) file = d->text.substr(q + 1, e - q - 1);
      }
      if ((name == "config" || name == "cfg" || name == "config_file" || name == "config-file" ||
           name == "config_path" || name == "hyp" || name == "hparams") &&
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
        if (auto v = st.Literal(*d)) {
          st.Set(name, *v, path, c.line, prec);
          // A command-line option's default is the run's setting unless the
          // command changes it: it outranks a helper call's keyword of the
          // same file rank (DataLoader(batch_size=1024) in a few-shot index search).
          // Not a trainer's own arguments (TrainingArguments(per_device_train_batch_size=16),
          // SFTConfig(learning_rate=…)): those are the run's, an option may serve a helper.
          if (KeyField kf = ClassifyKey(name);
              (kf.field == "batch_size" || kf.field == "learning_rate") && !TrainerArgumentSets(py, kf.field))
            if (auto f = st.fields.find(kf.field); f != st.fields.end())
              if (auto cand = f->second.find(NormalKey(name)); cand != f->second.end() && cand->second.file == path &&
                                                              cand->second.specificity == 2)
                cand->second.specificity = 3;
        }
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
        c.args[0].kind == PyValue::Kind::kString &&
        (EndsWith(c.args[0].text, ".yaml") || EndsWith(c.args[0].text, ".yml")))
      st.code_configs.emplace_back(c.args[0].text, path);  // a base config the code loads itself
    // A join inside a write-mode open (open(join(d, "default.yaml"), "w")) is an output.
    if (JoinsDefaultToAConfigDirectory(c) && !InsideWriteOpen(c, written)) st.config_dir_defaults = true;
    if (auto rel = DefaultConfigJoined(c); rel && !InsideWriteOpen(c, written))
      st.own_dir_configs.emplace_back(*rel, path);
    if (last.rfind("DEFINE_", 0) == 0 && c.args.size() >= 2 && c.args[0].kind == PyValue::Kind::kString) {
      // absl: flags.DEFINE_integer("train_epochs", 90, "…")
      const PyValue* d = c.Kwarg("default") ? c.Kwarg("default") : &c.args[1];
      if (auto v = st.Literal(*d)) st.Set(c.args[0].text, *v, path, c.line, prec);
      continue;
    }
    if (last == "DataParallel" && near_entry) st.data_parallel = true;
    if (near_entry && (last == "pmap" || last == "pjit" || last == "shard_map" || last == "Mesh" ||
                       last == "MirroredStrategy" || last == "MultiWorkerMirroredStrategy" || last == "TPUStrategy" ||
                       last == "make_mesh" || last == "create_device_mesh"))
      st.multi_device = true;
    if (near_entry) NoteMixedPrecision(st, c, last);
    if (last == "autocast")
      if (const PyValue* d = c.Kwarg("dtype")) {
        if (d->text.find("bfloat16") != std::string::npos) st.autocast_bf16 = true;
        if (near_entry && d->text.find("bfloat16") != std::string::npos)
          st.autocast_dtype = "bf16";
        else if (near_entry && d->text.find("float16") != std::string::npos)
          st.autocast_dtype = "fp16";
      }
    // mp.spawn(run, nprocs=world_size): as many processes as the world size
    // setting says (k2/lhotse recipes), not one per visible GPU.
    if (near_entry &&
        (c.callee == "mp.spawn" || c.callee == "torch.multiprocessing.spawn" || c.callee == "multiprocessing.spawn")) {
      // A world size the file itself binds to device_count() (the PyTorch DDP
      // tutorial: world_size = torch.cuda.device_count()) is one per GPU too.
      const PyValue* n = c.Kwarg("nprocs");
      bool from_devices = false;
      if (n)
        for (const auto& a : py.assigns)
          if (a.origin == PyAssign::Origin::kAssign && a.target == n->text &&
              a.value.text.find("device_count") != std::string::npos)
            from_devices = true;
      if (!n || n->text.find("world_size") == std::string::npos || from_devices) st.spawns_per_gpu = true;
    }
    if (last == "from_pretrained" && !c.args.empty()) {
      if (auto v = st.Literal(c.args[0])) {
        // Tokenizers and configs name a model too; a model class wins over them.
        bool model_class = c.callee.find("Model") != std::string::npos ||
                           c.callee.find("Pipeline") != std::string::npos || c.callee.find("For") != std::string::npos;
        st.SetField("model_name", "from_pretrained", *v, path, c.line, prec, model_class ? 2 : 0);
      }
      for (const auto& [k, v] : c.kwargs)  // torch_dtype=torch.bfloat16: the precision the model is loaded in
        if (auto half = HalfDtypeName(k, v); half && PrecisionApiKeyword(c, k, flax_file))
          st.Set(k, *half, path, c.line, prec);
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
      // load_dataset(..., split="validation"): evaluation data, not the run's.
      const PyValue* split = c.Kwarg("split");
      std::string sp = split && split->kind == PyValue::Kind::kString ? Lower(split->text) : "";
      if (sp.find("train") == std::string::npos &&
          (sp.find("val") != std::string::npos || sp.find("test") != std::string::npos ||
           sp.find("dev") != std::string::npos || sp.find("eval") != std::string::npos))
        continue;
      if (auto v = st.Literal(c.args[0])) {
        std::string name = *v;
        if (name != "json" && name != "csv" && name != "text" && name != "parquet" && name != "imagefolder") {
          // A hub id's configuration (`"org/data", "triplet"`) is no part of its name.
          if (c.args.size() > 1 && name.find('/') == std::string::npos)
            if (auto sub = st.Literal(c.args[1])) name += "/" + *sub;
          st.SetField("dataset", "load_dataset", name, path, c.line, prec, 2);
        }
      }
      continue;
    }
    // datasets.mnist(), tf.keras.datasets.cifar10.load_data(): a known dataset named
    // in a datasets module's function path, near the entry.
    if (near_entry && !std::isupper(static_cast<unsigned char>(last[0])))
      if (size_t d = c.callee.find("datasets."); d != std::string::npos && (d == 0 || c.callee[d - 1] == '.')) {
        std::string rest = c.callee.substr(d + 9);
        std::string part = rest.substr(0, rest.find('.'));
        if (!part.empty() && LexiconWordExact("data", part) == Lower(part))
          st.SetField("dataset", "<datasets function>", part, path, c.line, prec, 1);
      }
    if ((c.callee.find("datasets.") != std::string::npos) && std::isupper(static_cast<unsigned char>(last[0])) &&
        last != "ImageFolder" && last != "DatasetFolder" && !IsPackagesOwnDataClass(c.callee)) {
      st.SetField("dataset", "torchvision.datasets", last, path, c.line, prec, 1);  // torchvision.datasets.CIFAR10(...)
    }
    if (c.callee == "hydra.main") continue;  // read by the caller
    bool loader = last.find("Loader") != std::string::npos || last.find("loader") != std::string::npos;
    if (near_entry && (EndsWith(last, "Dataset") || EndsWith(last, "DataModule")) && last.size() > 7)
      for (const char* kw : {"name", "dataset_name", "dataset"})  // PygNodePropPredDataset(name='ogbn-arxiv')
        if (const PyValue* v = c.Kwarg(kw))
          if (auto lit = st.Literal(*v))
            st.SetField("dataset", "<dataset class argument>", *lit, path, c.line, prec, 1);
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
      // Where a tensor goes, not the run's GPUs — except a Lightning Trainer's or
      // Fabric's devices (devices="auto": every visible GPU; devices=2).
      if ((k == "device" || k == "devices" || k == "device_map") &&
          !(k == "devices" && (last == "Trainer" || last == "Fabric") && !OnlyEvaluates(st, path, c)))
        continue;
      // A call's `epoch=` is the epoch it starts or resumes at (get_train_iterator(epoch=1),
      // load_checkpoint(epoch=0)), not how many the run trains for.
      if (k == "epoch") continue;
      if (auto lit = st.Literal(v))
        st.Set(k, *lit, path, c.line, prec);
      else if (auto half = HalfDtypeName(k, v); half && PrecisionApiKeyword(c, k, flax_file))
        st.Set(k, *half, path, c.line, prec);
    }
  }
  SetChosenEntry(st, path, chosen);
}

}  // namespace

// The entry file, then its local imports breadth-first, scanned for values
// (imported files first, so the entry's own values win).
HydraMain ReadPythonSources(State& st, const std::string& entry, const ExtractOptions& options) {
  std::deque<std::pair<std::string, int>> queue = {{entry, 0}};
  std::set<std::string> seen = {entry};
  HydraMain hydra;
  std::vector<std::tuple<std::string, std::shared_ptr<const PythonFacts>, int>> parsed;
  while (!queue.empty()) {
    auto [path, depth] = queue.front();
    queue.pop_front();
    // The import walk leaves a quarter of the budget to the config files the run names.
    if (path != entry && static_cast<int>(st.read.size()) >= options.max_files * 3 / 4) continue;
    auto text = st.Read(path);
    if (!text) continue;
    std::shared_ptr<const PythonFacts> shared = ParsePythonShared(*text);
    const PythonFacts& py = *shared;
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
    parsed.emplace_back(path, std::move(shared), depth);
  }
  for (const auto& [path, facts, depth] : parsed) NoteSubcommandEntry(st, path, *facts);
  // Constants first (so defaults that name them resolve), imported files first.
  for (auto it = parsed.rbegin(); it != parsed.rend(); ++it)
    ScanPython(st, std::get<0>(*it), *std::get<1>(*it), std::get<0>(*it) == entry ? kEntryDefault : kImported,
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
    lightning_trainer =
        lightning_trainer || last == "LightningCLI" ||
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

}  // namespace schedmate::extraction
