#include "artefacts/log_tail.h"

#include <algorithm>

namespace schedmate {

Result<std::string> ReadLogTail(Env& env, const std::string& path, int64_t max_bytes) {
  Result<FileInfo> info = env.Stat(path);
  if (!info.ok() && info.status().code() == StatusCode::kNotFound) return std::string();
  if (!info.ok()) return info.status();
  if (!info->regular) return InvalidArgument(path + ": the job's log is not a regular file");
  const int64_t from = std::max<int64_t>(0, info->size - max_bytes);
  ASSIGN_OR_RETURN(std::string text, env.ReadFile(path, from, max_bytes));
  if (from == 0) return text;
  size_t nl = text.find('\n');
  if (nl == std::string::npos || nl + 1 == text.size()) return text;
  return text.substr(nl + 1);
}

}  // namespace schedmate
