// A bearer token kept in a file only its owner can read (`serve
// --token-file`, `agent slurm --report-token-file`): the file's first line.
#ifndef SCHEDMATE_CORE_TOKEN_FILE_H_
#define SCHEDMATE_CORE_TOKEN_FILE_H_

#include <string>

#include "core/status.h"

namespace schedmate {

// Refused when the file is missing, readable by group or others, or the
// token is shorter than 16 characters; errors name `flag` and the path.
Result<std::string> ReadTokenFile(const std::string& path, const std::string& flag);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_TOKEN_FILE_H_
