// Console-script entry points a repository declares (setup.py
// `entry_points={"console_scripts": ["fairseq-train = fairseq_cli.train:cli_main"]}`,
// setup.cfg, pyproject.toml `[project.scripts]`), so that a launch command
// like `fairseq-train …` or `yolo train …` reaches its Python module.
#ifndef SCHEDMATE_ADVISOR_ENTRY_POINTS_H_
#define SCHEDMATE_ADVISOR_ENTRY_POINTS_H_

#include <map>
#include <string>
#include <string_view>

#include "repo/snapshot.h"

namespace schedmate {

struct EntryPoint {
  std::string module;    // "fairseq_cli.train"
  std::string function;  // "cli_main" ("" when not given)
  std::string file;      // setup.py `scripts=['pkg/bin/t2t-trainer']`: the script itself
};

// name → entry point, from the text of a setup.py, setup.cfg or pyproject.toml.
std::map<std::string, EntryPoint> ParseConsoleScripts(std::string_view text);

// setup.py `scripts=[...]`: name (the file's base name) → the file path.
std::map<std::string, EntryPoint> ParseSetupScripts(std::string_view text);

// Whether the file a launch command names is in the snapshot, asked of the
// snapshot itself: the listing an extractor works from has count and size
// caps and does not follow symlinked directories, and none of those may hide
// the entry point. A path out of the root, or one the file tools refuse
// (a data file, a virtual environment), is not in it.
bool FileInSnapshot(const RepoSnapshot& snapshot, const std::string& path);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_ENTRY_POINTS_H_
