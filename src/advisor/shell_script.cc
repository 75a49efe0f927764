#include "advisor/shell_script.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <set>

#include "advisor/field_keys.h"
#include "advisor/launch_command.h"
#include "advisor/shell_text.h"

namespace schedmate {

using namespace shell;  // NOLINT: this file reads shell text through shell_text.h

namespace {

std::optional<int> ToInt(const std::string& s) {
  if (s.empty() || s.size() > 6) return std::nullopt;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  return std::atoi(s.c_str());
}

void ReadResourceDirective(const std::string& line, ShellLaunch* out) {
  // #SBATCH --nodes=2 / -N 2 / --gres=gpu:8 / --gpus-per-node=8 / --ntasks-per-node=8 / --gpus=16
  std::string body = Trim(line.substr(7));
  auto words = ShellSplit(body);
  if (!words.ok()) return;
  for (size_t i = 0; i < words->size(); ++i) {
    std::string w = (*words)[i], v;
    size_t eq = w.find('=');
    if (eq != std::string::npos) {
      v = w.substr(eq + 1);
      w = w.substr(0, eq);
    } else if (i + 1 < words->size()) {
      v = (*words)[i + 1];
    }
    if (w == "--nodes" || w == "-N") {
      if (auto n = ToInt(v)) out->nodes = *n;
    } else if (w == "--gpus-per-node" || w == "--gpus-per-task" || w == "--ntasks-per-node") {
      std::string n = v.substr(v.rfind(':') == std::string::npos ? 0 : v.rfind(':') + 1);
      if (auto k = ToInt(n); k && (w != "--ntasks-per-node" || !out->gpus_per_node)) out->gpus_per_node = *k;
    } else if (w == "--gres") {
      size_t g = v.find("gpu");
      size_t colon = v.rfind(':');
      if (g != std::string::npos && colon != std::string::npos && colon > g)
        if (auto k = ToInt(v.substr(colon + 1))) out->gpus_per_node = *k;
    } else if (w == "--gpus" || w == "-G") {
      std::string n = v.substr(v.rfind(':') == std::string::npos ? 0 : v.rfind(':') + 1);
      if (auto k = ToInt(n)) out->total_gpus = *k;
    }
  }
}

}  // namespace

// An entry named for training (train.py, run_pretrain.py, finetune_lora.py).
static bool TrainingEntry(const std::string& entry) {
  std::string e;
  for (char c : entry) e += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string base = e.substr(e.rfind('/') == std::string::npos ? 0 : e.rfind('/') + 1);
  return base.find("train") != std::string::npos || base.find("finetune") != std::string::npos ||
         base.find("fine_tune") != std::string::npos || base.find("pretrain") != std::string::npos;
}

// A launch line given a training budget, batch size or rate.
static bool GivesTrainingSetting(const LaunchSpec& spec) {
  for (const auto& [k, v] : spec.overrides) {
    const std::string f = ClassifyKey(k).field;
    if (f == "steps" || f == "epochs" || f == "batch_size" || f == "learning_rate") return true;
  }
  return false;
}

// A launch line given a checkpoint or weights file to read (--ckpt, --checkpoint, --weights).
static bool ReadsACheckpoint(const LaunchSpec& spec) {
  for (const auto& [k, v] : spec.overrides) {
    std::vector<std::string> w = KeyWords(k);
    if (std::any_of(w.begin(), w.end(), [](const std::string& x) {
          return x == "ckpt" || x == "checkpoint" || x == "weights";
        }) &&
        std::none_of(w.begin(), w.end(), [](const std::string& x) {
          return x == "dir" || x == "save" || x == "output" || x == "out" || x == "every" || x == "interval" ||
                 x == "freq" || x == "steps";
        }))
      return true;
  }
  return false;
}

// `srun … bash -c '$LAUNCHER --node_rank $SLURM_PROCID $CMD'`: the inner
// shell runs the string with the exported variables (single quotes only
// delay the expansion); the words before it (srun and its options) stay.
// The command with its `sh -c` string expanded, or nullopt without one.
static std::optional<std::string> ExpandShellString(const std::string& expanded,
                                                    const std::map<std::string, std::string>& vars,
                                                    const std::vector<std::string>& positional) {
  if (expanded.find(" -c ") == std::string::npos || expanded.find("sh -c ") == std::string::npos) return std::nullopt;
  auto words = ShellSplit(expanded);
  if (!words.ok()) return std::nullopt;
  for (size_t k = 0; k + 2 < words->size(); ++k) {
    const std::string& sh = (*words)[k];
    if ((sh != "bash" && sh != "sh") || (*words)[k + 1] != "-c") continue;
    std::string outer;
    for (size_t q = 0; q < k; ++q) outer += (*words)[q] + " ";
    // The rank variables srun sets in each task (--node_rank $SLURM_PROCID) hold a value there.
    std::map<std::string, std::string> inner_vars = vars;
    for (const char* rank : {"SLURM_PROCID", "SLURM_NODEID", "SLURM_LOCALID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"})
      inner_vars.emplace(rank, "0");
    std::string inner = TakeLeadingAssignments((*words)[k + 2], &inner_vars);
    return outer + ExpandShellVars(inner, inner_vars, positional);
  }
  return std::nullopt;
}

std::optional<ShellLaunch> FindShellLaunch(std::string_view script, const ShellContext& ctx) {
  ShellLaunch out;
  std::optional<ShellLaunch> first, helper;
  std::string chdir;
  std::map<std::string, std::string> vars = ctx.env;
  if (!ctx.script_path.empty()) vars["0"] = ctx.script_path;
  auto lines = SplitStatements(LogicalLines(script));
  int sourced = 0;
  std::map<size_t, size_t> skip_to;  // an else/elif of a taken if → its fi
  std::map<std::string, std::string> copies;  // a Python file's copy → the file copied
  for (size_t idx = 0; idx < lines.size(); ++idx) {
    if (auto sk = skip_to.find(idx); sk != skip_to.end()) {
      idx = sk->second;
      continue;
    }
    const auto& [raw, no] = lines[idx];
    std::string line = ReplaceDirname(Trim(raw), ctx.script_path);
    // Heredocs: `read -r -d '' VAR <<EOF … EOF` sets VAR; other bodies are skipped.
    if (std::string end = HeredocEnd(line); !end.empty() && line.rfind('#', 0) != 0) {
      std::string body;
      size_t j = idx + 1;
      for (; j < lines.size() && Trim(lines[j].first) != end; ++j) body += lines[j].first + " ";
      auto words = ShellSplit(line.substr(0, line.find("<<")));
      if (words.ok() && !words->empty() && (*words)[0] == "read") vars[words->back()] = Trim(body);
      idx = j;
      continue;
    }
    // Arrays: NAME=( … ) over several lines; the value is the words joined.
    if (size_t eq = line.find("=("); eq != std::string::npos && eq > 0 && line.find(' ') > eq) {
      bool append = line[eq - 1] == '+';
      std::string name = line.substr(0, append ? eq - 1 : eq);
      if (name.rfind("export ", 0) == 0 || name.rfind("declare ", 0) == 0) name = Trim(name.substr(name.find(' ')));
      std::string body = line.substr(eq + 2);
      size_t j = idx;
      while (body.find(')') == std::string::npos && j + 1 < lines.size()) {
        std::string next = Trim(lines[++j].first);
        if (size_t hash = next.find(" #"); hash != std::string::npos) next = next.substr(0, hash);
        if (!next.empty() && next[0] == '#') continue;
        body += " " + next;
      }
      body = body.substr(0, body.rfind(')'));
      bool ok = !name.empty();
      for (char c : name) ok = ok && IsNameChar(c);
      if (ok) {
        std::string value = Trim(ExpandShellVars(body, vars, ctx.positional));
        vars[name] = append && vars.count(name) ? vars[name] + " " + value : value;
        idx = j;
        continue;
      }
    }
    if (line.rfind("#SBATCH", 0) == 0 || line.rfind("#PBS", 0) == 0) {
      ReadResourceDirective(line.rfind("#PBS", 0) == 0 ? "#SBATCH" + line.substr(4) : line, &out);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    // `source path.sh` / `. $1`: the sourced file's lines run here (its variables are ours).
    if ((line.rfind("source ", 0) == 0 || line.rfind(". ", 0) == 0) && line.find("parse_options.sh") == std::string::npos &&
        ctx.read_file && sourced < 8) {
      auto words = ShellSplit(ExpandShellVars(line, vars, ctx.positional));
      if (words.ok() && words->size() >= 2)
        if (auto text = ctx.read_file((*words)[1])) {
          ++sourced;
          auto more = SplitStatements(LogicalLines(*text));
          if (more.size() < 5000) {
            lines.insert(lines.begin() + static_cast<long>(idx) + 1, more.begin(), more.end());
            std::map<size_t, size_t> shifted;  // the lines after this one moved down
            for (auto [from, to] : skip_to)
              shifted[from > idx ? from + more.size() : from] = to > idx ? to + more.size() : to;
            skip_to.swap(shifted);
          }
        }
      continue;
    }
    // Kaldi/ESPnet recipes: `. utils/parse_options.sh` turns the caller's --stage 4 into stage=4.
    if (line.find("parse_options.sh") != std::string::npos && (line[0] == '.' || line.rfind("source", 0) == 0)) {
      for (size_t k = 0; k + 1 < ctx.positional.size(); ++k)
        if (ctx.positional[k].rfind("--", 0) == 0) {
          std::string name = ctx.positional[k].substr(2);
          std::replace(name.begin(), name.end(), '-', '_');
          vars[name] = ctx.positional[k + 1];
        }
      continue;
    }
    // `if [ ${stage} -le 4 ] && [ ${stop_stage} -ge 4 ]; then` that is false: skip to its fi.
    if (line.rfind("if ", 0) == 0) {
      auto holds = NumericCondition(ExpandShellVars(line.substr(3), vars, ctx.positional));
      // The block's own else/elif and fi (depth 1).
      size_t branch = lines.size(), end = lines.size();
      int depth = 1;
      for (size_t j = idx + 1; j < lines.size() && holds; ++j) {
        std::string t = Trim(lines[j].first);
        if (t.rfind("if ", 0) == 0) ++depth;
        if (t == "fi" || t.rfind("fi ", 0) == 0 || t.rfind("fi;", 0) == 0) {
          if (--depth == 0) {
            end = j;
            break;
          }
        }
        if (depth == 1 && branch == lines.size() && (t == "else" || t.rfind("elif ", 0) == 0 || t.rfind("else ", 0) == 0))
          branch = j;
      }
      if (holds && *holds) {
        if (branch < end) skip_to[branch] = end;  // the then-branch runs; the others do not
      } else if (holds) {
        if (branch < end && Trim(lines[branch].first).rfind("elif ", 0) == 0) {
          lines[branch].first = Trim(lines[branch].first).substr(2);  // elif c → if c, read next
          idx = branch - 1;
        } else {
          idx = branch < end ? branch : end;  // the else-branch runs, or nothing
        }
        continue;
      }
    }
    // `: ${X:=1}` and `: "${X:=1}"` set X when unset.
    if (line.rfind(": ", 0) == 0) {
      size_t a = line.find("${");
      size_t eq = line.find(":=", a == std::string::npos ? 0 : a);
      size_t close = line.find('}', eq == std::string::npos ? 0 : eq);
      if (a != std::string::npos && eq != std::string::npos && close != std::string::npos) {
        std::string name = line.substr(a + 2, eq - a - 2);
        if (vars.find(name) == vars.end() || vars[name].empty())
          vars[name] = ExpandShellVars(line.substr(eq + 2, close - eq - 2), vars, ctx.positional);
      }
      continue;
    }
    // for X in a b c; do → X is its first value.
    if (line.rfind("for ", 0) == 0) {
      auto words = ShellSplit(ExpandShellVars(line, vars, ctx.positional));
      if (words.ok() && words->size() >= 4 && (*words)[2] == "in") {
        std::string first = (*words)[3];
        if (!first.empty() && first.back() == ';') first.pop_back();
        if (first != ";" && first != "do") vars[(*words)[1]] = first;
      }
      continue;
    }
    if (auto as = Assignment(line)) {
      if (as->second.rfind("$((", 0) == 0) {
        // Inside $(( )), bare names are variables too.
        std::string expr = ExpandShellVars(as->second.substr(3, as->second.size() - 5), vars, ctx.positional), bare;
        for (size_t k = 0; k < expr.size();) {
          if (std::isalpha(static_cast<unsigned char>(expr[k])) || expr[k] == '_') {
            size_t e = k;
            while (e < expr.size() && IsNameChar(expr[e])) ++e;
            auto it = vars.find(expr.substr(k, e - k));
            bare += it == vars.end() ? expr.substr(k, e - k) : it->second;
            k = e;
          } else {
            bare += expr[k++];
          }
        }
        if (auto n = Arithmetic(bare))
          vars[as->first] = std::to_string(*n);
      } else if (as->second != "$(...)") {
        vars[as->first] = ExpandShellVars(as->second, vars, ctx.positional);
      }
      continue;
    }
    std::string expanded = ExpandShellVars(line, vars, ctx.positional);
    if (expanded.rfind("cd ", 0) == 0 && expanded.find("&&") == std::string::npos &&
        expanded.find(';') == std::string::npos) {
      auto words = ShellSplit(expanded);
      if (words.ok() && words->size() >= 2 && (*words)[1] != "-" && (*words)[1][0] != '$') {
        std::string d = (*words)[1];
        chdir = d[0] == '/' || d[0] == '~' ? "" : (chdir.empty() ? d : chdir + "/" + d);
      }
      continue;
    }
    // `cp tool/train.py … ${exp_dir}` then `python ${exp_dir}/train.py`: the copy runs the repository's file.
    if (expanded.rfind("cp ", 0) == 0 && expanded.find("&&") == std::string::npos) {
      auto words = ShellSplit(expanded);
      if (words.ok() && words->size() >= 3) {
        std::vector<std::string> srcs;
        for (size_t w = 1; w + 1 < words->size(); ++w)
          if (!(*words)[w].empty() && (*words)[w][0] != '-') srcs.push_back((*words)[w]);
        std::string dest = words->back();
        while (dest.size() > 1 && dest.back() == '/') dest.pop_back();
        for (const auto& src : srcs)
          if (src.size() > 3 && src.compare(src.size() - 3, 3, ".py") == 0 && copies.size() < 64)
            copies[dest + "/" + src.substr(src.rfind('/') == std::string::npos ? 0 : src.rfind('/') + 1)] = src;
      }
      continue;
    }
    for (const auto& [copy, src] : copies)
      for (size_t at = expanded.find(copy); at != std::string::npos; at = expanded.find(copy, at + src.size())) {
        bool whole = (at == 0 || expanded[at - 1] == ' ' || expanded[at - 1] == '=') &&
                     (at + copy.size() == expanded.size() || expanded[at + copy.size()] == ' ');
        if (!whole) break;
        expanded.replace(at, copy.size(), src);
      }
    if (auto inner = ExpandShellString(expanded, vars, ctx.positional)) expanded = std::move(*inner);
    auto spec = ParseLaunchCommand(expanded, ctx.console_scripts);
    if (!spec.ok() && spec.status().message().find("unterminated quote") != std::string::npos) {
      // A stray quote pasted from a README (`--save_step 2000"`): read the line without it.
      size_t q = expanded.find_last_of("\"'");
      if (q != std::string::npos) {
        expanded.erase(q, 1);
        spec = ParseLaunchCommand(expanded, ctx.console_scripts);
      }
    }
    if (!spec.ok()) continue;
    ShellLaunch cand = out;
    cand.line = expanded;
    cand.line_no = no;
    cand.is_shell = spec->entry_kind == LaunchSpec::Entry::kShell;
    cand.vars = vars;
    cand.chdir = chdir;
    if (LooksLikeSideStep(spec->entry)) {
      if (!first) first = std::move(cand);
      continue;
    }
    // A plain `python helper.py` (no training word in its name) before a
    // distributed or training launch prepares the run (a data-ratio file, a
    // converted checkpoint): the later launch is the run, when there is one.
    // A python line given a training setting (--epochs 120, --batch_size 512)
    // trains: it is the run, whatever follows it (a checkpoint's calibration).
    const bool trains = TrainingEntry(spec->entry) || GivesTrainingSetting(*spec);
    if (!trains && spec->launcher == "python" && !cand.is_shell) {
      if (!helper) helper = std::move(cand);
      continue;  // the first such line is the run unless a launch follows
    }
    // A later wrapper script (`bash notify.sh`) replaces a parked python run
    // only when it is named for training or given a training setting; nor
    // does a later launch that only reads a checkpoint the run wrote
    // (`torchrun … calibrate.py --ckpt out/last.pth`): a post-processing step.
    if (helper && !trains && (cand.is_shell || ReadsACheckpoint(*spec))) continue;
    return cand;
  }
  if (helper) return helper;
  if (first) {
    first->gpus_per_node = out.gpus_per_node;
    first->nodes = out.nodes;
    first->total_gpus = out.total_gpus;
  }
  return first;
}

std::vector<std::string> CommandHeads(std::string_view script) {
  static const std::set<std::string> kShell = {
      "cd", "echo", "export", "mkdir", "rm", "cp", "mv", "pip", "pip3", "conda", "source", ".", "set", "wget", "curl",
      "git", "cat", "ls", "sleep", "nvidia-smi", "if", "then", "else", "elif", "fi", "for", "do", "done", "while",
      "exit", "true", "false", "unset", "module", "ln", "touch", "tar", "unzip", "chmod", "printf", "read", "shift",
      "case", "esac", "function", "local", "declare", "eval", "exec", "time", "env", "nohup", "wait", "trap", "test",
      "[", "[[", "hostname", "date", "tee", "grep", "sed", "awk", "head", "tail", "python", "python3", "bash", "sh", "make", "cmake", "docker",
      "apt", "apt-get", "sudo", "npm", "srun", "mpirun", "torchrun", "deepspeed", "accelerate"};
  std::vector<std::string> out;
  for (const auto& [raw, no] : SplitStatements(LogicalLines(script))) {
    auto words = ShellSplit(Trim(raw));
    if (!words.ok()) continue;
    size_t i = 0;
    while (i < words->size() && (*words)[i].find('=') != std::string::npos && (*words)[i][0] != '-') ++i;
    if (i >= words->size()) continue;
    const std::string& head = (*words)[i];
    if (head.empty() || head[0] == '#' || head[0] == '$' || kShell.count(head) || head.find('/') != std::string::npos)
      continue;
    if (std::find(out.begin(), out.end(), head) == out.end()) out.push_back(head);
  }
  return out;
}

bool LooksLikeSideStep(const std::string& entry) {
  std::string e;
  for (char c : entry) e += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t slash = e.rfind('/');
  std::string base = slash == std::string::npos ? e : e.substr(slash + 1);
  if (base == "pip" || base == "venv" || base == "setup.py" || e == "pip" || e.rfind("pip.", 0) == 0 ||
      e.rfind("spacy", 0) == 0 || e.rfind("nltk", 0) == 0 || e.rfind("huggingface_hub", 0) == 0)
    return true;
  if (base.find("train") != std::string::npos || base.find("finetune") != std::string::npos ||
      base.find("fine_tune") != std::string::npos || base.find("pretrain") != std::string::npos)
    return false;
  // A recipe's data stage (local/data.sh) and its decoding, averaging and scoring stages.
  std::string stem = base.substr(0, base.find('.'));
  if (stem == "data" || stem == "dataset" || stem == "features" || stem == "feats") return true;
  for (const char* w : {"decode", "average", "avg_", "compute_", "score"})
    if (base.find(w) != std::string::npos) return true;
  for (const char* w : {"download", "prepare", "preprocess", "prepro", "_prep", "prep_", "convert", "install", "eval", "test",
                        "export", "infer", "predict", "generate", "sample", "inspect", "merge", "tokeniz", "build_",
                        "make_", "extract", "split", "plot", "visual", "demo", "bench"})
    if (base.find(w) != std::string::npos) return true;
  return false;
}

}  // namespace schedmate
