#include "cli/log_inputs.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/file_io.h"

namespace schedmate {
namespace {

// A FIFO, device or directory named as a LOG is refused before any reading
// (the readers seek from the end, and a FIFO would hang open()). An absent
// file passes: `track --follow` waits for it, the other readers say so.
Status RefuseSpecialFile(const std::string& path) {
  Result<OpenedFile> file = OpenRegularFile(path);
  if (file.ok()) {
    close(file->fd);
    return Status::Ok();
  }
  if (file.status().code() != StatusCode::kInvalidArgument) return Status::Ok();
  return InvalidArgument(file.status().message() + "; save the log to a file, or pipe it into '-'");
}

}  // namespace

Result<LogInputs> LogInputs::Open(const std::vector<std::string>& args, size_t max_stdin_bytes) {
  LogInputs out;
  for (const auto& arg : args) {
    if (arg != "-") {
      RETURN_IF_ERROR(RefuseSpecialFile(arg));
      out.items_.push_back({arg, arg});
      continue;
    }
    if (!out.temp_.empty()) return InvalidArgument("'-' (standard input) given twice");
    std::string dir = std::filesystem::temp_directory_path().string();
    std::string path = dir + "/schedmate-stdin-XXXXXX";
    int fd = mkstemp(path.data());
    if (fd < 0) return Internal("cannot create a temporary file in " + dir + " for standard input");
    out.temp_ = path;
    size_t total = 0;
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) {
      total += n;
      if (total > max_stdin_bytes) {
        close(fd);
        return ResourceExhausted("standard input: more than " + std::to_string(max_stdin_bytes >> 20) +
                                 " MiB; save the log to a file (the readers then read only its tail)");
      }
      if (write(fd, buf, n) != static_cast<ssize_t>(n)) {
        close(fd);
        return Internal("cannot write the copy of standard input to " + path);
      }
    }
    close(fd);
    out.items_.push_back({"stdin", path});
  }
  return out;
}

LogInputs::LogInputs(LogInputs&& other) noexcept : items_(std::move(other.items_)), temp_(std::move(other.temp_)) {
  other.temp_.clear();
}

LogInputs::~LogInputs() {
  if (temp_.empty()) return;
  std::error_code ec;
  std::filesystem::remove(temp_, ec);
}

}  // namespace schedmate
