#include "advisor/launch_command.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

namespace schedmate {
namespace {

bool IsPython(std::string_view w) {
  size_t slash = w.rfind('/');
  std::string_view base = slash == std::string_view::npos ? w : w.substr(slash + 1);
  return base == "python" || base == "python3" || (base.rfind("python3.", 0) == 0);
}

bool IsEnvAssignment(std::string_view w) {
  size_t eq = w.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  for (size_t i = 0; i < eq; ++i) {
    char c = w[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return !(w[0] >= '0' && w[0] <= '9');
}

std::optional<int> ToInt(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  return std::atoi(std::string(s).c_str());
}

// Launcher options that take a value (so the value is not the script).
bool TakesValue(std::string_view launcher, std::string_view opt) {
  if (opt.find('=') != std::string_view::npos) return false;
  static constexpr std::string_view kValued[] = {
      "--nproc_per_node", "--nproc-per-node", "--nnodes", "--node_rank", "--node-rank", "--master_addr",
      "--master-addr", "--master_port", "--master-port", "--rdzv_endpoint", "--rdzv-endpoint", "--rdzv_backend",
      "--rdzv-backend", "--rdzv_id", "--rdzv-id", "--max_restarts", "--max-restarts", "--num_gpus", "--num-gpus",
      "--num_nodes", "--num-nodes", "--hostfile", "--include", "--exclude", "--master_addr", "--launcher",
      "--num_processes", "--num-processes", "--num_machines", "--num-machines", "--config_file", "--config-file",
      "--mixed_precision", "--mixed-precision", "--machine_rank", "--main_process_ip", "--main_process_port",
      "--gpu_ids", "-n", "-N", "-np", "--ntasks", "--ntasks-per-node", "--gres", "--gpus", "--gpus-per-node",
      "-p", "--partition", "-t", "--time", "--cpus-per-task", "-c", "--mem", "--job-name", "-J", "-o", "-e",
      "--log_dir", "--log-dir", "--role", "--standalone_port", "--deepspeed_config", "-H", "--hosts",
      "--gpus-per-task", "--nodes", "--account", "-A", "--qos", "--output", "--error", "--ntasks-per-gpu",
      "-x", "--bind-to", "--map-by", "--mca", "--npernode", "-npernode", "--gpu_ids", "--gpu-ids",
      "--dynamo_backend", "--world_size", "--world-size", "--nproc", "--base_rank", "--devices", "--accelerator",
      "--strategy", "--precision", "--num_cpu_threads_per_process", "--ssh_port", "--master_port"};
  (void)launcher;
  for (auto v : kValued)
    if (opt == v) return true;
  return false;
}

// torchrun's options that take no value; every other one does (--rdzv_conf x).
bool TorchrunFlag(std::string_view opt) {
  return opt == "--standalone" || opt == "--no_python" || opt == "--no-python" || opt == "--run_path" ||
         opt == "--run-path" || opt == "--module" || opt == "-m" || opt == "--use_env" || opt == "--use-env";
}

// accelerate launch's options that take no value; every other one does.
bool AccelerateFlag(std::string_view opt) {
  for (std::string_view f : {"--multi_gpu", "--multi-gpu", "--cpu", "--use_deepspeed", "--use-deepspeed", "--use_fsdp",
                             "--use-fsdp", "--use_megatron_lm", "--same_network", "--same-network", "--debug", "--tpu",
                             "--quiet", "-q", "--module", "-m", "--no_python", "--no-python", "--tpu_use_cluster",
                             "--enable_cpu_affinity", "--rdzv_conf"})
    if (opt == f) return f != "--rdzv_conf";
  return false;
}

void ReadOption(LaunchSpec* s, std::string_view key, std::string_view value) {
  auto n = ToInt(value);
  if (n && (key == "--num_processes" || key == "--num-processes" || key == "-np" || key == "-n" || key == "--ntasks"))
    s->nproc_is_total = true;
  else if (n && (key == "--nproc_per_node" || key == "--nproc-per-node" || key == "--num_gpus" || key == "--num-gpus" ||
                 key == "--ntasks-per-node" || key == "--gpus-per-node"))
    s->nproc_is_total = false;
  if ((key == "--nproc_per_node" || key == "--nproc-per-node" || key == "--num_gpus" || key == "--num-gpus" ||
       key == "--num_processes" || key == "--num-processes" || key == "-np") && !n && value != "gpu" && value != "auto")
    s->nproc_unknown = true;
  if ((key == "--nproc_per_node" || key == "--nproc-per-node" || key == "--num_gpus" || key == "--num-gpus" ||
       key == "--num_processes" || key == "--num-processes" || key == "-np" || key == "-n" ||
       key == "--ntasks-per-node" || key == "--gpus-per-node" || key == "--npernode" || key == "-npernode" ||
       key == "--nproc" || key == "--devices") && n)
    s->nproc_per_node = *n;
  if ((key == "--nnodes" || key == "--num_nodes" || key == "--num-nodes" || key == "-N" || key == "--nodes") && !n &&
      !value.empty() && value.rfind("1:", 0) != 0)
    s->nproc_unknown = true;  // --nnodes "${REPLICAS}": the node count is a placeholder
  if ((key == "--nnodes" || key == "--num_nodes" || key == "--num-nodes" || key == "--num_machines" ||
       key == "--num-machines" || key == "-N" || key == "--nodes") && n)
    s->nnodes = *n;
  if ((key == "--world_size" || key == "--world-size") && n) {
    s->nproc_per_node = *n;  // composer: the total
    s->nnodes = 1;
  }
  if (key == "--config_file" || key == "--config-file" || key == "--deepspeed_config") s->launcher_config = std::string(value);
  if (key == "--mixed_precision" || key == "--mixed-precision" || key == "--precision") s->launcher_precision = std::string(value);
  if ((key == "--gpus" || key == "--devices" || key == "--gpu_ids" || key == "--gpu-ids") && !n && !value.empty() &&
      std::all_of(value.begin(), value.end(), [](char c) { return (c >= '0' && c <= '9') || c == ','; })) {
    s->nproc_per_node = static_cast<int>(std::count(value.begin(), value.end(), ',')) + (value.back() == ',' ? 0 : 1);
  } else if ((key == "--gpus" || key == "--num_gpus" || key == "--num-gpus" || key == "-G") && !n) {
    // --gpus 8 handled above; srun --gpus=a100:8
    size_t colon = value.rfind(':');
    if (colon != std::string_view::npos)
      if (auto k = ToInt(value.substr(colon + 1))) s->nproc_per_node = *k;
  } else if (key == "--gpus" && n) {
    s->nproc_per_node = *n;
  }
  if (key == "--include" || key == "--gpu_ids" || key == "--gpu-ids") {
    // deepspeed --include localhost:0,1,2,3 ; accelerate --gpu_ids 0,1
    std::string_view v = value.substr(value.rfind(':') == std::string_view::npos ? 0 : value.rfind(':') + 1);
    if (!v.empty() && v != "all") s->nproc_per_node = 1 + static_cast<int>(std::count(v.begin(), v.end(), ','));
  }
}

bool LooksNegativeNumber(std::string_view w) {
  return w.size() > 1 && w[0] == '-' && ((w[1] >= '0' && w[1] <= '9') || w[1] == '.');
}

// An upper-case dotted config key (SOLVER.BASE_LR, NUM_GPUS): yacs and
// detectron-style scripts take trailing KEY VALUE pairs.
bool IsYacsKey(std::string_view w) {
  if (w.size() < 2 || !(w[0] >= 'A' && w[0] <= 'Z')) return false;
  bool lower = false;
  for (char c : w) {
    if (c >= 'a' && c <= 'z') lower = true;
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.')) return false;
  }
  return !lower;
}

// READMEs write a placeholder as bracketed prose, unquoted:
// `main.py [your imagenet-folder with train and val folders]`. The shell
// splits it, but it stands for one argument (an option's value or a
// positional): the index of the word that closes it, or `i` when a[i] opens
// no such placeholder.
size_t BracketedPlaceholderEnd(const std::vector<std::string>& a, size_t i) {
  if (a[i].size() < 2 || a[i][0] != '[' || a[i].find(']') != std::string::npos) return i;
  for (size_t j = i + 1; j < a.size() && j < i + 16; ++j) {
    if (a[j].empty() || a[j][0] == '-' || a[j].find('[') != std::string::npos) return i;
    if (a[j].find(']') != std::string::npos) return j;  // `[your checkpoint path]/last.pth` ends it too
  }
  return i;
}

void ParseArgs(LaunchSpec* s) {
  const auto& a = s->args;
  for (size_t i = 0; i < a.size(); ++i) {
    std::string_view w = a[i];
    // --name, -n, and argparse's single-dash long options (-lr 0.1, -O2).
    if (w.rfind("--", 0) == 0 || (w.size() == 2 && w[0] == '-') ||
        (w.size() > 2 && w[0] == '-' && std::isalpha(static_cast<unsigned char>(w[1])) && !LooksNegativeNumber(w))) {
      std::string_view body = w.substr(w[1] == '-' ? 2 : 1);
      size_t eq = body.find('=');
      std::string key(body.substr(0, eq));
      std::string value;
      if (eq != std::string_view::npos) value = std::string(body.substr(eq + 1));
      else if (i + 1 < a.size() && (a[i + 1].empty() || a[i + 1][0] != '-' || LooksNegativeNumber(a[i + 1]))) {
        size_t end = BracketedPlaceholderEnd(a, i + 1);
        value = a[++i];
        while (i < end) value += " " + a[++i];
      } else {
        value = "true";
      }
      for (char& c : key)
        if (c == '-') c = '_';
      if (key == "config" || key == "config_file" || key == "cfg" || key == "c" || key == "config_path" ||
          key == "cfg_file" || key == "configs" || key == "config_yaml" || key == "opt" || key == "f" ||
          key == "exp_file" || key == "base" || key == "gin_file" || key == "hparams" || key == "hyp")
        if (s->config_file.empty() && value != "true") s->config_file = value;
      s->overrides.emplace_back(key, value);
      // --base a.yaml b.yaml / --opts k v k v: later bare words belong to the option
      if (key == "base" || key == "configs" || key == "gin_file") {
        while (i + 1 < a.size() && !a[i + 1].empty() && a[i + 1][0] != '-' && a[i + 1].find('=') == std::string::npos)
          s->positional.push_back(a[++i]);
      } else if (key == "opts" || key == "cfg_options" || key == "cfg-options" || key == "o" || key == "options") {
        if (value.find('=') == std::string::npos && i + 1 < a.size() && a[i + 1][0] != '-') {
          // detectron2: --opts KEY VALUE KEY VALUE (value was the first key)
          s->overrides.pop_back();
          std::string k = value;
          while (i + 1 < a.size() && !a[i + 1].empty() && a[i + 1][0] != '-') {
            std::string v = a[++i];
            if (k.empty()) k = v;
            else {
              s->overrides.emplace_back(k, v);
              k.clear();
            }
          }
        } else if (value.find('=') != std::string::npos) {
          s->overrides.pop_back();
          size_t e = value.find('=');
          s->overrides.emplace_back(value.substr(0, e), value.substr(e + 1));
          while (i + 1 < a.size() && !a[i + 1].empty() && a[i + 1][0] != '-' && a[i + 1].find('=') != std::string::npos) {
            std::string kv = a[++i];
            size_t e2 = kv.find('=');
            s->overrides.emplace_back(kv.substr(0, e2), kv.substr(e2 + 1));
          }
        }
      }
    } else if (size_t eq = w.find('='); eq != std::string_view::npos && eq > 0) {
      std::string_view key = w.substr(0, eq);
      while (!key.empty() && (key[0] == '+' || key[0] == '~')) key.remove_prefix(1);
      s->overrides.emplace_back(std::string(key), std::string(w.substr(eq + 1)));
    } else if (IsYacsKey(w) && i + 1 < a.size() && !IsYacsKey(a[i + 1])) {
      s->overrides.emplace_back(std::string(w), a[++i]);  // yacs/detectron opts: TRAIN.BATCH_SIZE 16
    } else if (size_t end = BracketedPlaceholderEnd(a, i); end > i) {
      std::string joined = a[i];
      while (i < end) joined += " " + a[++i];
      s->positional.push_back(joined);
    } else {
      s->positional.emplace_back(w);
    }
  }
}

Result<LaunchSpec> ParseOne(const std::vector<std::string>& words_in, const std::vector<std::string>& console) {
  // `python -um pkg.train`: the interpreter's flags clustered with -m.
  std::vector<std::string> words;
  bool python = false;
  for (const auto& w : words_in) {
    bool cluster = python && w.size() >= 3 && w[0] == '-' && w[1] != '-' && w.back() == 'm' &&
                   std::all_of(w.begin() + 1, w.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
    if (cluster) {
      words.push_back(w.substr(0, w.size() - 1));
      words.push_back("-m");
      python = false;
      continue;
    }
    python = IsPython(w) || (python && w.size() > 1 && w[0] == '-');
    words.push_back(w);
  }
  LaunchSpec s;
  size_t i = 0;
  while (i < words.size() && IsEnvAssignment(words[i])) {
    size_t eq = words[i].find('=');
    s.env.emplace_back(words[i].substr(0, eq), words[i].substr(eq + 1));
    if (s.env.back().first == "CUDA_VISIBLE_DEVICES") {
      const std::string& v = s.env.back().second;
      if (!v.empty() && v.find('$') == std::string::npos)
        s.visible_devices = 1 + static_cast<int>(std::count(v.begin(), v.end(), ','));
    }
    ++i;
  }
  // Wrappers that run a command: env, nohup, time, srun/mpirun with their options.
  while (i < words.size()) {
    std::string_view w = words[i];
    if (w == "env" || w == "nohup" || w == "time" || w == "exec" || w == "stdbuf" || w == "eval") {
      ++i;
      while (i < words.size() && (IsEnvAssignment(words[i]) || words[i][0] == '-')) ++i;
      continue;
    }
    // Environment managers that run a command: uv run, poetry run, conda run -n env, …
    if ((w == "uv" || w == "poetry" || w == "pipenv" || w == "pdm" || w == "hatch" || w == "rye" || w == "conda" ||
         w == "mamba" || w == "micromamba" || w == "pixi") &&
        i + 1 < words.size() && words[i + 1] == "run") {
      i += 2;
      static const std::set<std::string> kValued = {"-n", "--name", "-p", "--prefix", "--with", "--python", "--env-file",
                                                    "--extra", "--group", "--project", "--directory", "-e", "--env",
                                                    "--package", "--index", "--cwd"};
      while (i < words.size() && words[i].size() > 1 && words[i][0] == '-') {
        if (kValued.count(words[i]) && words[i].find('=') == std::string::npos) ++i;
        ++i;
      }
      continue;
    }
    if (w == "srun" || w == "mpirun" || w == "mpiexec" || w == "horovodrun") {
      s.launcher = std::string(w);
      ++i;
      while (i < words.size() && words[i][0] == '-') {
        std::string opt = words[i];
        size_t eq = opt.find('=');
        if (eq != std::string::npos) ReadOption(&s, opt.substr(0, eq), opt.substr(eq + 1));
        else if (TakesValue(w, opt) && i + 1 < words.size()) {
          ReadOption(&s, opt, words[i + 1]);
          ++i;
        }
        ++i;
      }
      continue;
    }
    break;
  }
  if (i >= words.size()) return InvalidArgument("no command");
  std::string_view head = words[i];
  auto take_entry = [&](size_t j) -> Status {
    // `torchrun … python train.py` (a README's stray interpreter): the script follows it.
    if (j < words.size() && IsPython(words[j]) && j + 1 < words.size()) {
      ++j;
      while (j < words.size() && words[j].size() > 1 && words[j][0] == '-' && words[j] != "-m") ++j;
    }
    if (j >= words.size()) return InvalidArgument("the launcher is given no script");
    std::string_view e = words[j];
    if (e == "-m") {
      if (j + 1 >= words.size()) return InvalidArgument("-m without a module");
      s.entry_kind = LaunchSpec::Entry::kModule;
      s.entry = words[j + 1];
      s.args.assign(words.begin() + static_cast<long>(j + 2), words.end());
    } else {
      s.entry_kind = LaunchSpec::Entry::kScript;
      s.entry = std::string(e);
      s.args.assign(words.begin() + static_cast<long>(j + 1), words.end());
    }
    return Status::Ok();
  };
  bool module_flag = false;
  std::string script_option;  // a launcher's --script X
  // A placeholder for the launcher's own options (`deepspeed {num_gpus_flag} --module x`).
  auto options_placeholder = [&](size_t j) {
    const std::string& w = words[j];
    bool braced = w.size() > 2 && ((w.front() == '{' && w.back() == '}') || (w.front() == '<' && w.back() == '>'));
    return braced && j + 1 < words.size() && words[j + 1].size() > 1 && words[j + 1][0] == '-';
  };
  auto skip_options = [&](size_t j, std::string_view launcher) {
    while (j < words.size() && options_placeholder(j)) ++j;
    while (j < words.size() && words[j].size() > 1 && words[j][0] == '-' && words[j] != "-m") {
      std::string opt = words[j];
      size_t eq = opt.find('=');
      if (eq != std::string::npos) {
        ReadOption(&s, opt.substr(0, eq), opt.substr(eq + 1));
      } else if ((TakesValue(launcher, opt) || (launcher == "torchrun" && !TorchrunFlag(opt)) ||
                  (launcher == "accelerate" && !AccelerateFlag(opt))) && j + 1 < words.size() &&
                 words[j + 1].rfind("--", 0) != 0) {  // `--master_port --num_nodes 32`: the value expanded to nothing
        if (opt == "--script") script_option = words[j + 1];
        ReadOption(&s, opt, words[j + 1]);
        ++j;
      } else if (opt == "--standalone") {
        s.nnodes = 1;
      } else if (opt == "--module" || opt == "-m") {
        module_flag = true;
        if (opt == "-m") return j;  // take_entry reads `-m module`
      }
      ++j;
    }
    return j;
  };
  if (IsPython(head)) {
    size_t j = i + 1;
    while (j < words.size() && words[j].size() > 1 && words[j][0] == '-' && words[j] != "-m") ++j;  // -u, -O
    // python -m torch.distributed.run/launch → torchrun; other frameworks'
    // launcher modules (paddle.distributed.launch, trainer.distribute) likewise.
    bool launcher_module = j + 1 < words.size() && words[j] == "-m" &&
                           (words[j + 1].find(".distributed.") != std::string::npos ||
                            words[j + 1].find(".distribute") != std::string::npos ||
                            words[j + 1] == "torch.distributed.run" || words[j + 1] == "torch.distributed.launch");
    if (launcher_module) {
      if (s.launcher.empty())
        s.launcher = words[j + 1].rfind("torch.", 0) == 0 ? "torchrun" : words[j + 1].substr(0, words[j + 1].find('.'));
      size_t k = skip_options(j + 2, "torchrun");
      if (!script_option.empty()) {  // trainer.distribute --script train.py
        s.entry_kind = LaunchSpec::Entry::kScript;
        s.entry = script_option;
        s.args.assign(words.begin() + static_cast<long>(k), words.end());
      } else {
        RETURN_IF_ERROR(take_entry(k));
      }
    } else {
      if (s.launcher.empty()) s.launcher = "python";
      RETURN_IF_ERROR(take_entry(j));
    }
  } else if (head == "torchrun" || head == "deepspeed" || head == "composer" ||
             ((head == "fabric" || head == "lightning") && i + 1 < words.size() && words[i + 1] == "run")) {
    if (s.launcher.empty() || s.launcher == "srun" || s.launcher == "mpirun") s.launcher = std::string(head);
    size_t j = i + 1;
    if (head == "fabric" || head == "lightning") {
      j = i + 2;
      if (j < words.size() && words[j] == "model") ++j;  // lightning run model
    }
    RETURN_IF_ERROR(take_entry(skip_options(j, head)));
    if (module_flag && s.entry_kind == LaunchSpec::Entry::kScript) s.entry_kind = LaunchSpec::Entry::kModule;
  } else if (head == "accelerate" && i + 1 < words.size() && words[i + 1] == "launch") {
    s.launcher = "accelerate";
    size_t j = skip_options(i + 2, "accelerate");
    RETURN_IF_ERROR(take_entry(j));
  } else if (head.size() > 3 && head.substr(head.size() - 3) == ".py") {  // ./train.py (an executable script)
    s.launcher = "python";
    RETURN_IF_ERROR(take_entry(i));
  } else if (head == "sbatch" || head == "qsub") {  // a batch script is a shell wrapper
    s.launcher = std::string(head);
    size_t j = skip_options(i + 1, "srun");
    if (j >= words.size()) return InvalidArgument("sbatch with no script");
    s.entry_kind = LaunchSpec::Entry::kShell;
    s.entry = words[j];
    s.args.assign(words.begin() + static_cast<long>(j + 1), words.end());
  } else if (head == "bash" || head == "sh" || (head.size() > 3 && head.substr(head.size() - 3) == ".sh")) {
    s.launcher = head == "bash" || head == "sh" ? std::string(head) : "bash";
    size_t j = head == "bash" || head == "sh" ? i + 1 : i;
    while (j < words.size() && words[j][0] == '-') ++j;
    if (j >= words.size()) return InvalidArgument("a shell with no script");
    s.entry_kind = LaunchSpec::Entry::kShell;
    s.entry = words[j];
    if (s.entry.rfind("./", 0) == 0) s.entry = s.entry.substr(2);
    s.args.assign(words.begin() + static_cast<long>(j + 1), words.end());
  } else if (std::find(console.begin(), console.end(), std::string(head)) != console.end()) {
    if (s.launcher.empty()) s.launcher = "console";
    s.entry_kind = LaunchSpec::Entry::kConsole;
    s.entry = std::string(head);
    s.args.assign(words.begin() + static_cast<long>(i + 1), words.end());
  } else {
    return InvalidArgument("'" + std::string(head) + "' does not launch Python");
  }
  if (s.entry.rfind("./", 0) == 0) s.entry = s.entry.substr(2);
  ParseArgs(&s);
  return s;
}

}  // namespace

const std::string* LaunchSpec::Override(std::string_view key) const {
  const std::string* found = nullptr;
  for (const auto& [k, v] : overrides)
    if (k == key) found = &v;  // the last one wins, as in argparse and Hydra
  return found;
}

Result<std::vector<std::string>> ShellSplit(std::string_view cmd) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < cmd.size(); ++i) {
    char c = cmd[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < cmd.size()) cur += cmd[++i];
      else cur += c;
      continue;
    }
    if (c == '\\' && i + 1 < cmd.size()) {
      if (cmd[i + 1] == '\n') {
        ++i;
        continue;
      }
      cur += cmd[++i];
      in_word = true;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(cur));
      cur.clear();
      in_word = false;
      continue;
    }
    if (c == ';' || c == '&' || c == '|') {  // command separators become their own words
      if (in_word) words.push_back(std::move(cur));
      cur.clear();
      in_word = false;
      std::string sep(1, c);
      if (i + 1 < cmd.size() && cmd[i + 1] == c) sep += cmd[++i];
      words.push_back(sep);
      continue;
    }
    cur += c;
    in_word = true;
  }
  if (quote) return InvalidArgument("unterminated quote in the command");
  if (in_word) words.push_back(std::move(cur));
  return words;
}

Result<LaunchSpec> ParseLaunchCommand(std::string_view command, const std::vector<std::string>& console) {
  ASSIGN_OR_RETURN(std::vector<std::string> words, ShellSplit(command));
  std::vector<std::string> part;
  Status last = InvalidArgument("empty command");
  std::string chdir;
  auto flush = [&]() -> std::optional<LaunchSpec> {
    if (part.empty()) return std::nullopt;
    if (part[0] == "cd" && part.size() >= 2) {
      chdir = part[1][0] == '/' ? "" : (chdir.empty() ? part[1] : chdir + "/" + part[1]);
      part.clear();
      return std::nullopt;
    }
    auto r = ParseOne(part, console);
    part.clear();
    if (r.ok()) {
      r->chdir = chdir;
      return std::move(*r);
    }
    last = r.status();
    return std::nullopt;
  };
  for (const auto& w : words) {
    if (w == "&&" || w == ";" || w == "||" || w == "|" || w == "&") {
      if (auto s = flush()) return std::move(*s);
      continue;
    }
    part.push_back(w);
  }
  if (auto s = flush()) return std::move(*s);
  return last;
}

}  // namespace schedmate
