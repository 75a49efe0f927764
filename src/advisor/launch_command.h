// A job's launch command, understood (DESIGN §1.1 step 2): which launcher,
// which entry point (a script, a `python -m` module, or a shell wrapper to
// read next), the process counts, and the arguments as overrides —
// `--lr 3e-4`, `--lr=3e-4`, Hydra's `model.d_model=1024` / `+x=1` /
// `experiment=pile/gpt`, bare flags. Shell quoting, `VAR=x` prefixes, line
// continuations and `&&` chains are handled; nothing is executed.
#ifndef SCHEDMATE_ADVISOR_LAUNCH_COMMAND_H_
#define SCHEDMATE_ADVISOR_LAUNCH_COMMAND_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct LaunchSpec {
  // kConsole: a console-script entry point of the repository (`fairseq-train`,
  // `yolo train`), resolved by the extractor through setup.py/pyproject.toml.
  enum class Entry { kScript, kModule, kShell, kConsole, kUnknown };
  std::string launcher;  // python, torchrun, deepspeed, accelerate, srun, mpirun, horovodrun, bash, console
  Entry entry_kind = Entry::kUnknown;
  std::string entry;     // "train.py", "pkg.train", "run.sh" or "fairseq-train"
  std::vector<std::string> args;  // after the entry point
  std::vector<std::pair<std::string, std::string>> overrides;  // key (no dashes) → value ("true" for flags)
  std::vector<std::string> positional;  // arguments that are neither options nor their values nor k=v
  std::optional<int> nproc_per_node, nnodes;
  bool nproc_unknown = false;
  bool nproc_is_total = false;  // accelerate --num_processes, mpirun -np, srun --ntasks: all nodes together  // a process-count option whose value is not a number (a placeholder)
  std::optional<int> visible_devices;  // how many CUDA_VISIBLE_DEVICES lists
  std::vector<std::pair<std::string, std::string>> env;  // VAR=x prefixes
  std::string config_file;      // the script's --config / --config_file / --cfg / -c value
  std::string launcher_config;  // accelerate's --config_file, deepspeed's --deepspeed_config
  std::string launcher_precision;  // accelerate --mixed_precision
  std::string chdir;  // `cd DIR &&` before the launch
  const std::string* Override(std::string_view key) const;
};

// Shell words of `command` (quotes and backslashes removed).
Result<std::vector<std::string>> ShellSplit(std::string_view command);

// The first Python launch in `command` (a chain's later commands are tried
// when the first is not one). InvalidArgument when nothing launches Python.
// `console_scripts`: names the repository defines as console entry points;
// a chain part headed by one of them is a launch too.
Result<LaunchSpec> ParseLaunchCommand(std::string_view command,
                                      const std::vector<std::string>& console_scripts = {});

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_LAUNCH_COMMAND_H_
