#include "agent/log_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

Result<NewLines> ReadNewLines(const std::string& path, int64_t offset, int64_t max_bytes) {
  NewLines out;
  out.next_offset = offset;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return out;
  if (fd < 0) return Unavailable(path + ": cannot read the job's log: " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Unavailable(path + ": the job's log is not a regular file");
  }
  if (st.st_size < offset) {
    out.restarted = true;
    offset = 0;
  }
  std::string buf(static_cast<size_t>(std::min<int64_t>(st.st_size - offset, max_bytes)), '\0');
  ssize_t n = buf.empty() ? 0 : pread(fd, buf.data(), buf.size(), offset);
  int err = errno;
  close(fd);
  if (n < 0) return Unavailable(path + ": cannot read the job's log: " + std::strerror(err));
  buf.resize(static_cast<size_t>(n));
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
