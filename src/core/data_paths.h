// Where data named by the user lives, found without relying on the working
// directory: the project's shared data (traces, labelled logs) and the files
// an experiment config names.
#ifndef SCHEDMATE_CORE_DATA_PATHS_H_
#define SCHEDMATE_CORE_DATA_PATHS_H_

#include <string>
#include <vector>

#include "core/status.h"

namespace schedmate {

// The shared data directory (traces/, realdata/) and how it was chosen.
struct SharedDir {
  std::string path;                 // "" when no candidate exists
  std::string origin;               // "--shared", "SCHEDMATE_SHARED", "beside the source tree", "../shared"
  std::vector<std::string> tried;   // every candidate, in order, for error messages
  bool found() const { return !path.empty(); }
};

// `flag` when given (it must exist); else $SCHEDMATE_SHARED (it must exist);
// else the first existing of the `shared` directory beside the source tree
// this binary was built from and ../shared from the working directory.
SharedDir FindSharedDir(const std::string& flag = "");

// One line naming where the shared data was looked for, for notices and errors.
std::string DescribeSharedSearch(const SharedDir& shared);

// A path written in a config file: "${SHARED}/…" is under the shared data
// directory; a relative path is relative to the config file's directory (or,
// for configs written before that rule, to the working directory when only
// it has the file); an absolute path is itself. The error names the config,
// the field and every place tried.
Result<std::string> ResolveConfigPath(const std::string& path, const std::string& config_file,
                                      const std::string& field, const SharedDir& shared);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_DATA_PATHS_H_
