// Opens the history a spec names: "redis://host:port[/prefix]" or a SQLite
// file (created when absent, in a directory that must exist). Shared by the
// commands and the service, so both read the same store from the same spec.
#ifndef SCHEDMATE_HISTORY_OPEN_HISTORY_H_
#define SCHEDMATE_HISTORY_OPEN_HISTORY_H_

#include <memory>
#include <string>

#include "history/store.h"

namespace schedmate {

Result<std::unique_ptr<HistoryStore>> OpenHistory(const std::string& spec);

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_OPEN_HISTORY_H_
