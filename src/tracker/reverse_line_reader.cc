#include "tracker/reverse_line_reader.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/file_io.h"

namespace schedmate {
namespace {

Status ReadExactly(int fd, char* dst, size_t n, int64_t at, const std::string& what) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = pread(fd, dst + done, n - done, at + static_cast<int64_t>(done));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Unavailable(what + ": read failed: " + std::strerror(errno));
    if (r == 0) return Unavailable(what + ": file shrank while reading");
    done += static_cast<size_t>(r);
  }
  return Status::Ok();
}

}  // namespace

Result<ReverseLineReader> ReverseLineReader::Open(const std::string& path, Options options) {
  ASSIGN_OR_RETURN(OpenedFile file, OpenRegularFile(path));
  options.chunk_bytes = std::max<size_t>(options.chunk_bytes, 1);
  options.max_line_bytes = std::max<size_t>(options.max_line_bytes, 1);
  return ReverseLineReader(file.fd, file.size, options);
}

ReverseLineReader::ReverseLineReader(int fd, int64_t size, Options options)
    : fd_(fd), size_(size), options_(options), chunk_start_(size) {}

ReverseLineReader::ReverseLineReader(ReverseLineReader&& o) noexcept
    : fd_(o.fd_), size_(o.size_), options_(o.options_), chunk_start_(o.chunk_start_),
      buf_(std::move(o.buf_)), bytes_read_(o.bytes_read_), first_(o.first_),
      exhausted_(o.exhausted_) {
  o.fd_ = -1;
}

ReverseLineReader::~ReverseLineReader() {
  if (fd_ >= 0) close(fd_);
}

Status ReverseLineReader::Fill() {
  size_t n = static_cast<size_t>(std::min<int64_t>(options_.chunk_bytes, chunk_start_));
  std::string chunk(n, '\0');
  RETURN_IF_ERROR(ReadExactly(fd_, chunk.data(), n, chunk_start_ - static_cast<int64_t>(n), "log"));
  chunk_start_ -= static_cast<int64_t>(n);
  bytes_read_ += static_cast<int64_t>(n);
  buf_.insert(0, chunk);
  return Status::Ok();
}

Result<bool> ReverseLineReader::Next(std::string* line, int64_t* offset) {
  if (first_) {
    first_ = false;
    if (size_ == 0) exhausted_ = true;
    if (size_ > 0) {
      RETURN_IF_ERROR(Fill());
      if (!buf_.empty() && buf_.back() == '\n') buf_.pop_back();
    }
  }
  std::string tail;  // the kept end of a line longer than max_line_bytes
  bool giant = false;
  const int64_t line_end = chunk_start_ + static_cast<int64_t>(buf_.size());
  while (true) {
    const void* nl = buf_.empty() ? nullptr : memrchr(buf_.data(), '\n', buf_.size());
    if (nl) {
      size_t p = static_cast<size_t>(static_cast<const char*>(nl) - buf_.data());
      if (giant) {
        *line = std::move(tail);
      } else {
        size_t len = buf_.size() - (p + 1);
        size_t keep = std::min(len, options_.max_line_bytes);  // the newest bytes of a long line
        line->assign(buf_, buf_.size() - keep, keep);
      }
      *offset = chunk_start_ + static_cast<int64_t>(p) + 1;
      buf_.resize(p);
      return true;
    }
    if (chunk_start_ == 0) {
      if (exhausted_) return false;
      exhausted_ = true;
      if (giant) {
        *line = std::move(tail);
      } else {
        size_t keep = std::min(buf_.size(), options_.max_line_bytes);
        line->assign(buf_, buf_.size() - keep, keep);
      }
      buf_.clear();
      *offset = 0;
      return true;
    }
    if (giant && line_end - chunk_start_ > options_.max_line_scan_bytes) {
      *offset = line_end - static_cast<int64_t>(tail.size());  // the kept tail's start
      *line = std::move(tail);
      exhausted_ = true;
      chunk_start_ = 0;
      buf_.clear();
      return true;
    }
    if (!giant && buf_.size() > options_.max_line_bytes) {
      giant = true;
      tail = buf_.substr(buf_.size() - options_.max_line_bytes);
      buf_.clear();
    } else if (giant) {
      buf_.clear();
    }
    RETURN_IF_ERROR(Fill());
  }
}

Result<int64_t> CountNewlines(const std::string& path, int64_t begin, int64_t end) {
  ASSIGN_OR_RETURN(OpenedFile file, OpenRegularFile(path));
  const int fd = file.fd;
  std::string buf(1u << 20, '\0');
  int64_t count = 0, at = begin;
  while (at < end) {
    size_t want = static_cast<size_t>(std::min<int64_t>(buf.size(), end - at));
    ssize_t r = pread(fd, buf.data(), want, at);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    count += std::count(buf.data(), buf.data() + r, '\n');
    at += r;
  }
  close(fd);
  return count;
}

}  // namespace schedmate
