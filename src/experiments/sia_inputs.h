// Sia's application profiles as the policy takes them: world/ reads the
// public profile files (placements, scalability, validation), policies/sia
// takes plain structs; this is the one conversion between them, shared by
// `schedmate sia` and the per-round benchmark.
#ifndef SCHEDMATE_EXPERIMENTS_SIA_INPUTS_H_
#define SCHEDMATE_EXPERIMENTS_SIA_INPUTS_H_

#include <map>
#include <string>

#include "core/status.h"
#include "policies/sia/sia_profile.h"

namespace schedmate {

// app → profile, for every <dir>/<app>/ with profile files. Errors name the
// file, line and column.
Result<std::map<std::string, sia::AppProfile>> LoadSiaAppProfiles(const std::string& dir);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SIA_INPUTS_H_
