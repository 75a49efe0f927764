// The history a command opens by default (OpenHistory: history/open_history.h).
#ifndef SCHEDMATE_CLI_HISTORY_OPEN_H_
#define SCHEDMATE_CLI_HISTORY_OPEN_H_

#include <memory>
#include <string>

#include "history/open_history.h"

namespace schedmate {

inline constexpr const char* kDefaultHistory = "schedmate-history.db";

}  // namespace schedmate

#endif  // SCHEDMATE_CLI_HISTORY_OPEN_H_
