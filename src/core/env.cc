#include "core/env.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/file_io.h"

namespace schedmate {
namespace {

Status IoError(const std::string& path, const char* what, int err) {
  std::string m = path + ": " + what + ": " + std::strerror(err);
  if (err == ENOENT || err == ENOTDIR) return NotFound(m);
  if (err == EACCES || err == EPERM) return PermissionDenied(m);
  return Unavailable(m);
}

// Closes `fd` on every path out of a scope.
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) close(fd);
  }
};

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return IoError(path, "short write", n < 0 ? errno : EIO);
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

std::string DirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

class PosixEnv final : public Env {
 public:
  Result<std::string> ReadFile(const std::string& path, int64_t offset, int64_t max_bytes) override {
    ASSIGN_OR_RETURN(OpenedFile f, OpenRegularFile(path));
    FdCloser closer{f.fd};
    if (offset >= f.size || max_bytes <= 0) return std::string();
    std::string buf(static_cast<size_t>(std::min(f.size - offset, max_bytes)), '\0');
    size_t got = 0;
    while (got < buf.size()) {
      ssize_t n = pread(f.fd, buf.data() + got, buf.size() - got, offset + static_cast<int64_t>(got));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return IoError(path, "cannot read", errno);
      if (n == 0) break;  // the file shrank while we read
      got += static_cast<size_t>(n);
    }
    buf.resize(got);
    return buf;
  }

  Status WriteFileAtomic(const std::string& path, std::string_view data) override {
    const std::string tmp = path + ".tmp";
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return IoError(tmp, "cannot create", errno);
    Status s = WriteAll(fd, data, tmp);
    if (s.ok() && fsync(fd) != 0) s = IoError(tmp, "cannot sync", errno);
    close(fd);
    if (s.ok() && std::rename(tmp.c_str(), path.c_str()) != 0) s = IoError(path, "cannot replace", errno);
    if (!s.ok()) {
      unlink(tmp.c_str());
      return s;
    }
    // The rename is durable once the directory is.
    if (int dfd = open(DirOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
    return Status::Ok();
  }

  Result<std::vector<std::string>> ListDir(const std::string& dir) override {
    DIR* d = opendir(dir.c_str());
    if (!d) return IoError(dir, "cannot list", errno);
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
      std::string_view n = e->d_name;
      if (n != "." && n != "..") names.emplace_back(n);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<FileInfo> Stat(const std::string& path) override {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return IoError(path, "cannot stat", errno);
    FileInfo info;
    info.size = st.st_size;
    info.mtime_ms = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
    info.regular = S_ISREG(st.st_mode);
    return info;
  }

  const Clock& clock() const override { return SystemClock::Default(); }
};

}  // namespace

Result<std::string> Env::ReadWholeFile(const std::string& path, int64_t max_bytes) {
  ASSIGN_OR_RETURN(std::string text, ReadFile(path, 0, max_bytes + 1));
  if (static_cast<int64_t>(text.size()) > max_bytes)
    return ResourceExhausted(path + ": larger than " + std::to_string(max_bytes) + " bytes");
  return text;
}

Env& Env::Default() {
  static PosixEnv env;
  return env;
}

}  // namespace schedmate
