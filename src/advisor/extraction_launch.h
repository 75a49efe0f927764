// From the launch command to the entry file (part of
// advisor/metadata_extractor.h): console scripts the repository installs,
// scripts named by path (also behind unknown variables), shell wrappers with
// their variables, positional arguments and #SBATCH resources, and
// `python -m` modules.
#ifndef SCHEDMATE_ADVISOR_EXTRACTION_LAUNCH_H_
#define SCHEDMATE_ADVISOR_EXTRACTION_LAUNCH_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "advisor/entry_points.h"
#include "advisor/extraction_state.h"
#include "advisor/launch_command.h"
#include "core/status.h"

namespace schedmate::extraction {

// The launch as finally resolved: the Python command line, and the batch
// system's resources from the wrappers it went through.
struct Launch {
  LaunchSpec spec;
  std::optional<int> sbatch_gpus_per_node, sbatch_nodes, sbatch_total_gpus;
};

// Console scripts from setup.py, setup.cfg and pyproject.toml (at the root
// and where the command runs).
std::map<std::string, EntryPoint> RepoConsoleScripts(State& st);
std::vector<std::string> Names(const std::map<std::string, EntryPoint>& m);
// A script the command names: relative to where it runs or to the root; a
// path behind an unknown variable (`${REPO_ROOT}/train.py`) or an absolute
// path (`/workspace/proj/train.py`) is tried from its tail inwards. "" when
// there is none.
std::string FindFile(const State& st, std::string name);
// Through shell wrappers (their variables, positional arguments and #SBATCH
// lines) to the Python launch.
Status UnwrapShell(State& st, Launch* l, const std::vector<std::string>& console);
// The entry file of a script, `python -m` module or console-script launch.
Result<std::string> FindEntry(State& st, Launch* l, const std::map<std::string, EntryPoint>& console);

// A repository's own copy of torch.distributed.launch (its argparse takes a
// positional `training_script` and the script's arguments as the REMAINDER):
// the script it runs becomes the launch, with the copy's process counts, and
// a shell script it runs is unwrapped. Returns the new entry file, or "" when
// `entry` is no such launcher.
Result<std::string> ThroughRepositoryLauncher(State& st, Launch* l, const std::string& entry,
                                              const std::map<std::string, EntryPoint>& console);

}  // namespace schedmate::extraction

#endif  // SCHEDMATE_ADVISOR_EXTRACTION_LAUNCH_H_
