#include "repo/snapshot.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace schedmate {
namespace {

// openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS): the kernel resolves the
// path and refuses, with EXDEV, any step out of `dir_fd` (an absolute or
// escaping symlink, `..` above it) before looking at what lies outside.
// -1 with errno ENOSYS where the kernel lacks it.
int OpenBeneathKernel(int dir_fd, const std::string& path) {
#ifdef SYS_openat2
  struct open_how how;
  std::memset(&how, 0, sizeof how);
  how.flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(syscall(SYS_openat2, dir_fd, path.c_str(), &how, sizeof how));
#else
  errno = ENOSYS;
  return -1;
#endif
}

class DirectorySnapshot : public RepoSnapshot {
 public:
  DirectorySnapshot(std::string root, int root_fd) : root_(std::move(root)), root_fd_(root_fd) {}
  ~DirectorySnapshot() override { close(root_fd_); }
  std::string Describe() const override { return "dir:" + root_; }

  Status Walk(const WalkLimits& limits, std::vector<SnapshotEntry>* out, WalkStats* stats) const override {
    out->clear();
    WalkDir("", 0, limits, out, stats);
    std::sort(out->begin(), out->end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    return Status::Ok();
  }

  Result<std::string> Read(std::string_view path, size_t max_bytes, bool* truncated) const override {
    ASSIGN_OR_RETURN(int fd, OpenRegular(path));
    struct stat st;
    fstat(fd, &st);
    std::string data(std::min<size_t>(max_bytes, static_cast<size_t>(st.st_size)), '\0');
    size_t done = 0;
    while (done < data.size()) {
      ssize_t n = read(fd, data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    close(fd);
    data.resize(done);
    *truncated = static_cast<size_t>(st.st_size) > done;
    return data;
  }

  Result<int64_t> Size(std::string_view path) const override {
    ASSIGN_OR_RETURN(int fd, OpenRegular(path));
    struct stat st;
    fstat(fd, &st);
    close(fd);
    return static_cast<int64_t>(st.st_size);
  }

 private:
  // A regular file under the root, open for reading (O_NONBLOCK: a FIFO
  // cannot hang the open).
  Result<int> OpenRegular(std::string_view path) const {
    RETURN_IF_ERROR(CheckRelativePath(path));
    ASSIGN_OR_RETURN(int fd, OpenBeneath(std::string(path)));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      return PermissionDenied(std::string(path) + ": not a regular file");
    }
    return fd;
  }

  Result<int> OpenBeneath(const std::string& path) const {
    int fd = OpenBeneathKernel(root_fd_, path);
    if (fd >= 0) return fd;
    if (errno == ENOSYS || errno == EINVAL) return OpenByRealpath(path);
    if (errno == EXDEV) {
      // Refused for an absolute symlink too, which may still land inside.
      Result<int> inside = OpenByRealpath(path);
      return inside.ok() ? inside : Result<int>(OutsideRepository(path));
    }
    if (errno == ENOENT || errno == ENOTDIR) return NotInRepository(path);
    return PermissionDenied(path + ": " + std::strerror(errno));
  }

  // Without openat2: realpath, then a prefix check. A target that does not
  // resolve cannot be told inside from outside, so both answer "not in the
  // repository".
  Result<int> OpenByRealpath(const std::string& path) const {
    char resolved[PATH_MAX];
    std::string full = root_ + "/" + path;
    if (!realpath(full.c_str(), resolved) || std::string(resolved).rfind(root_ + "/", 0) != 0)
      return NotInRepository(path);
    int fd = open(resolved, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return NotInRepository(path);
    return fd;
  }

  void WalkDir(const std::string& rel, int depth, const WalkLimits& limits, std::vector<SnapshotEntry>* out,
               WalkStats* stats) const {
    if (depth > limits.max_depth) {
      stats->truncated = true;
      return;
    }
    std::string dir = rel.empty() ? root_ : root_ + "/" + rel;
    DIR* d = opendir(dir.c_str());
    if (!d) return;
    while (struct dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      if (++stats->visited > limits.max_visited) {
        stats->truncated = true;
        break;
      }
      if (rel.empty() && name == ".git") continue;
      std::string child = rel.empty() ? name : rel + "/" + name;
      std::string full = root_ + "/" + child;
      struct stat st;
      if (lstat(full.c_str(), &st) != 0) continue;
      if (S_ISDIR(st.st_mode)) {
        WalkDir(child, depth + 1, limits, out, stats);
      } else if (S_ISREG(st.st_mode)) {
        out->push_back({child, st.st_size});
      } else if (S_ISLNK(st.st_mode)) {
        // A symlink to a regular file inside the root is listed; directory
        // links are not followed (no cycles); anything else is refused.
        char resolved[PATH_MAX];
        struct stat target;
        if (realpath(full.c_str(), resolved) && std::string(resolved).rfind(root_ + "/", 0) == 0 &&
            stat(resolved, &target) == 0 && S_ISREG(target.st_mode))
          out->push_back({child, target.st_size});
        else
          ++stats->refused;
      } else {
        ++stats->refused;  // device, FIFO, socket
      }
    }
    closedir(d);
  }

  std::string root_;
  int root_fd_;  // O_PATH descriptor of the root: what openat2 resolves beneath
};

class InMemorySnapshot : public RepoSnapshot {
 public:
  InMemorySnapshot(std::map<std::string, std::string> files, std::string name)
      : files_(std::move(files)), name_(std::move(name)) {}
  std::string Describe() const override { return "mem:" + name_; }
  Status Walk(const WalkLimits& limits, std::vector<SnapshotEntry>* out, WalkStats* stats) const override {
    out->clear();
    for (const auto& [path, text] : files_) {
      if (++stats->visited > limits.max_visited) {
        stats->truncated = true;
        break;
      }
      if (std::count(path.begin(), path.end(), '/') > limits.max_depth) {
        stats->truncated = true;
        continue;
      }
      out->push_back({path, static_cast<int64_t>(text.size())});
    }
    return Status::Ok();
  }
  Result<std::string> Read(std::string_view path, size_t max_bytes, bool* truncated) const override {
    ASSIGN_OR_RETURN(const std::string* text, Find(path));
    *truncated = text->size() > max_bytes;
    return text->substr(0, max_bytes);
  }
  Result<int64_t> Size(std::string_view path) const override {
    ASSIGN_OR_RETURN(const std::string* text, Find(path));
    return static_cast<int64_t>(text->size());
  }

 private:
  Result<const std::string*> Find(std::string_view path) const {
    RETURN_IF_ERROR(CheckRelativePath(path));
    auto it = files_.find(std::string(path));
    if (it == files_.end()) return NotFound(std::string(path) + ": not in " + name_);
    return &it->second;
  }

  std::map<std::string, std::string> files_;
  std::string name_;
};

}  // namespace

std::unique_ptr<RepoSnapshot> MemorySnapshot(std::map<std::string, std::string> files, std::string name) {
  return std::make_unique<InMemorySnapshot>(std::move(files), std::move(name));
}

Status OutsideRepository(std::string_view path) {
  return PermissionDenied(std::string(path) + ": outside the repository");
}

Status NotInRepository(std::string_view path) { return NotFound(std::string(path) + ": not in the repository"); }

Status CheckRelativePath(std::string_view path) {
  if (path.empty()) return PermissionDenied("empty path");
  if (path.find('\0') != std::string_view::npos) return PermissionDenied("path contains a NUL byte");
  if (path.front() == '/' || path.front() == '~') return PermissionDenied(std::string(path) + ": absolute paths are refused");
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string_view part = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part == "..") return PermissionDenied(std::string(path) + ": '..' is refused");
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return Status::Ok();
}

Result<std::unique_ptr<RepoSnapshot>> OpenDirectorySnapshot(const std::string& root) {
  char resolved[PATH_MAX];
  if (!realpath(root.c_str(), resolved)) return NotFound(root + ": " + std::strerror(errno));
  int root_fd = open(resolved, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) return InvalidArgument(root + ": not a directory");
  return std::unique_ptr<RepoSnapshot>(new DirectorySnapshot(resolved, root_fd));
}

Result<std::unique_ptr<RepoSnapshot>> OpenSnapshot(const std::string& spec) {
  size_t at = spec.rfind('@');
  if (at != std::string::npos && at > 0 && at + 1 < spec.size()) {
    struct stat st;
    if (stat(spec.c_str(), &st) != 0) return OpenGitSnapshot(spec.substr(0, at), spec.substr(at + 1));
  }
  return OpenDirectorySnapshot(spec);
}

}  // namespace schedmate
