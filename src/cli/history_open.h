// Opens the history a command names: a SQLite file (default) or redis://.
#ifndef SCHEDMATE_CLI_HISTORY_OPEN_H_
#define SCHEDMATE_CLI_HISTORY_OPEN_H_

#include <memory>
#include <string>

#include "history/store.h"

namespace schedmate {

inline constexpr const char* kDefaultHistory = "schedmate-history.db";
Result<std::unique_ptr<HistoryStore>> OpenHistory(const std::string& spec);

}  // namespace schedmate

#endif  // SCHEDMATE_CLI_HISTORY_OPEN_H_
