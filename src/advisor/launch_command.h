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
  enum class Entry { kScript, kModule, kShell, kUnknown };
  std::string launcher;  // python, torchrun, deepspeed, accelerate, srun, mpirun, bash
  Entry entry_kind = Entry::kUnknown;
  std::string entry;     // "train.py", "pkg.train" or "run.sh"
  std::vector<std::string> args;  // after the entry point
  std::vector<std::pair<std::string, std::string>> overrides;  // key (no dashes) → value ("true" for flags)
  std::optional<int> nproc_per_node, nnodes;
  std::vector<std::pair<std::string, std::string>> env;  // VAR=x prefixes
  std::string config_file;  // --config / --config_file / --cfg / -c value, or accelerate's
  const std::string* Override(std::string_view key) const;
};

// Shell words of `command` (quotes and backslashes removed).
Result<std::vector<std::string>> ShellSplit(std::string_view command);

// The first Python launch in `command` (a chain's later commands are tried
// when the first is not one). InvalidArgument when nothing launches Python.
Result<LaunchSpec> ParseLaunchCommand(std::string_view command);

// The Python launch line inside a shell wrapper script (run.sh), if any.
std::optional<std::string> FindLaunchInShellScript(std::string_view script);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_LAUNCH_COMMAND_H_
