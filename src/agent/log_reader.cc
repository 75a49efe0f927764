#include "agent/log_reader.h"

#include "tracker/line_cleaner.h"

namespace schedmate {
namespace {

// Splits `text` at newlines; returns the bytes consumed (through the last newline).
int64_t SplitComplete(const std::string& text, std::vector<std::string>* lines) {
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    lines->push_back(CleanLogLine(std::string_view(text).substr(start, nl - start)));
    start = nl + 1;
  }
  return static_cast<int64_t>(start);
}

}  // namespace

Result<NewLines> ReadNewLines(const std::string& path, int64_t offset, int64_t max_bytes, Env& env) {
  NewLines out;
  out.next_offset = offset;
  Result<FileInfo> info = env.Stat(path);
  if (!info.ok() && info.status().code() == StatusCode::kNotFound) return out;
  if (!info.ok()) return Unavailable(path + ": cannot read the job's log: " + info.status().message());
  if (!info->regular) return Unavailable(path + ": the job's log is not a regular file");
  if (info->size < offset) {
    out.restarted = true;
    offset = 0;
  }
  Result<std::string> read = env.ReadFile(path, offset, max_bytes);
  if (!read.ok()) return Unavailable(path + ": cannot read the job's log: " + read.status().message());
  std::string& buf = *read;
  const auto n = static_cast<int64_t>(buf.size());
  out.bytes_read = n;
  int64_t used = SplitComplete(buf, &out.lines);
  // A line longer than the whole budget would never complete: take it as it is.
  if (used == 0 && n == max_bytes) {
    out.lines.push_back(CleanLogLine(buf));
    used = n;
  }
  out.next_offset = offset + used;
  return out;
}

}  // namespace schedmate
