#include "history/open_history.h"

#include <filesystem>

#include "history/redis_store.h"
#include "history/sqlite_store.h"

namespace schedmate {

Result<std::unique_ptr<HistoryStore>> OpenHistory(const std::string& spec) {
  if (spec.rfind("redis://", 0) == 0) {
    ASSIGN_OR_RETURN(RedisOptions o, ParseRedisUrl(spec));
    return OpenRedisHistory(o);
  }
  // A file in a directory that does not exist is a mistyped path (bad input), not a store error.
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::path(spec).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
    return NotFound("--history " + spec + ": directory " + dir.string() + " does not exist");
  return OpenSqliteHistory(spec);
}

}  // namespace schedmate
