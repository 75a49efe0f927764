// A shell wrapper read the way bash would run it, without running it:
// variables (`X=1`, `export X=1`, `: ${X:=1}`, `${X:-1}`), the caller's
// positional arguments (`$1`, `$@`) and environment, the first value of a
// `for` loop, and `#SBATCH` resource directives. The first line that
// launches Python (or another wrapper) is returned with its variables
// expanded. Command substitutions `$(…)` stay unexpanded: their value is
// not known without running them.
#ifndef SCHEDMATE_ADVISOR_SHELL_SCRIPT_H_
#define SCHEDMATE_ADVISOR_SHELL_SCRIPT_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

struct ShellContext {
  std::vector<std::string> positional;       // $1, $2, … from the caller
  std::map<std::string, std::string> env;    // VAR=x prefixes of the caller
  std::string script_path;                   // $0; `$(dirname "$0")` is its directory
  std::vector<std::string> console_scripts;  // the repository's entry points (launches too)
  // Reads a file a script sources (`source path.sh`, `. $1`), relative to the
  // repository; unset: sourced files are skipped.
  std::function<std::optional<std::string>(const std::string&)> read_file;
};

struct ShellLaunch {
  std::string line;  // the launch line, variables expanded
  int line_no = 0;   // 1-based, in the script
  bool is_shell = false;  // the line runs another wrapper script
  // #SBATCH / #PBS resources, when the script states them.
  std::optional<int> gpus_per_node, nodes, total_gpus;
  std::map<std::string, std::string> vars;  // every variable known at the launch line
  std::string chdir;  // `cd DIR` lines before the launch, joined ("" = where the script was run)
};

// Entry points that prepare rather than train (setup.py, pip, download /
// preprocess / convert / evaluate scripts): a wrapper's launch is its first
// line that is not one of these, else its first.
bool LooksLikeSideStep(const std::string& entry);

// The programs a script runs that are not shell built-ins or common tools
// (`allennlp`, `torchx`, `t5_mesh_transformer`): candidates for a training
// CLI installed from outside the repository.
std::vector<std::string> CommandHeads(std::string_view script);

std::optional<ShellLaunch> FindShellLaunch(std::string_view script, const ShellContext& ctx);

// `${X:-d}`, `$X`, `$1`, `${ARR[@]}` … expanded with `vars` and `positional`.
std::string ExpandShellVars(std::string_view text, const std::map<std::string, std::string>& vars,
                            const std::vector<std::string>& positional);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_SHELL_SCRIPT_H_
