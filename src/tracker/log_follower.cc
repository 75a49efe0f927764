#include "tracker/log_follower.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>

#include "core/file_io.h"
#include "tracker/line_cleaner.h"

namespace schedmate {

LogFollower::LogFollower(std::string path, FollowerOptions options)
    : path_(std::move(path)), options_(options) {}

LogFollower::~LogFollower() {
  if (fd_ >= 0) close(fd_);
}

Status LogFollower::Open() {
  Result<OpenedFile> file = OpenRegularFile(path_);
  if (!file.ok()) return file.status().code() == StatusCode::kNotFound ? Status::Ok() : file.status();  // not written yet
  fd_ = file->fd;
  inode_ = file->inode;
  device_ = file->device;
  offset_ = opened_once_ ? 0 : std::min<int64_t>(options_.start_offset, file->size);
  opened_once_ = true;
  return Status::Ok();
}

std::string LogFollower::PartialLine() const {
  return skipping_ ? std::string() : CleanLogLine(partial_);
}

void LogFollower::Emit(std::vector<std::string>* lines) {
  if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
  lines->push_back(CleanLogLine(partial_));
  partial_.clear();
  ++lines_read_;
}

Status LogFollower::ReadAvailable(std::vector<std::string>* lines, size_t* budget) {
  std::string buf(options_.read_chunk, '\0');
  while (*budget > 0) {
    size_t want = std::min(buf.size(), *budget);
    ssize_t n = pread(fd_, buf.data(), want, offset_);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Unavailable(path_ + ": read failed: " + std::strerror(errno));
    }
    if (n == 0) break;
    offset_ += n;
    *budget -= static_cast<size_t>(n);
    size_t pos = 0;
    while (pos < static_cast<size_t>(n)) {
      const char* nl = static_cast<const char*>(std::memchr(buf.data() + pos, '\n', n - pos));
      size_t end = nl ? static_cast<size_t>(nl - buf.data()) : static_cast<size_t>(n);
      if (!skipping_) {
        size_t room = options_.max_line_bytes - partial_.size();
        size_t take = std::min(end - pos, room);
        partial_.append(buf.data() + pos, take);
        if (partial_.size() >= options_.max_line_bytes) {
          Emit(lines);  // cut a giant line; skip to its end
          skipping_ = true;
        }
      }
      if (!nl) break;
      if (skipping_) skipping_ = false;
      else Emit(lines);
      pos = end + 1;
    }
  }
  return Status::Ok();
}

Status LogFollower::Poll(std::vector<std::string>* lines) {
  size_t budget = options_.max_poll_bytes;
  if (fd_ < 0) {
    RETURN_IF_ERROR(Open());
    if (fd_ < 0) return Status::Ok();
  }
  struct stat now;
  if (fstat(fd_, &now) == 0 && now.st_size < offset_) {  // truncated
    ++truncations_;
    offset_ = 0;
    partial_.clear();
    skipping_ = false;
  }
  RETURN_IF_ERROR(ReadAvailable(lines, &budget));
  struct stat at_path;
  bool rotated = stat(path_.c_str(), &at_path) == 0 &&
                 (at_path.st_ino != inode_ || at_path.st_dev != device_);
  if (rotated && budget > 0) {
    // The old file is finished: its unterminated tail is a line of its own.
    if (!partial_.empty()) Emit(lines);
    skipping_ = false;
    close(fd_);
    fd_ = -1;
    ++rotations_;
    RETURN_IF_ERROR(Open());
    if (fd_ >= 0) RETURN_IF_ERROR(ReadAvailable(lines, &budget));
  }
  return Status::Ok();
}

}  // namespace schedmate
