#include "repo/snapshot.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace schedmate {
namespace {

class DirectorySnapshot : public RepoSnapshot {
 public:
  explicit DirectorySnapshot(std::string root) : root_(std::move(root)) {}
  std::string Describe() const override { return "dir:" + root_; }

  Status Walk(const WalkLimits& limits, std::vector<SnapshotEntry>* out, WalkStats* stats) const override {
    out->clear();
    WalkDir("", 0, limits, out, stats);
    std::sort(out->begin(), out->end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    return Status::Ok();
  }

  Result<std::string> Read(std::string_view path, size_t max_bytes, bool* truncated) const override {
    RETURN_IF_ERROR(CheckRelativePath(path));
    std::string full = root_ + "/" + std::string(path);
    char resolved[PATH_MAX];
    if (!realpath(full.c_str(), resolved)) return NotFound(std::string(path) + ": " + std::strerror(errno));
    std::string r(resolved);
    if (r.compare(0, root_.size() + 1, root_ + "/") != 0)
      return PermissionDenied(std::string(path) + ": resolves outside the repository root");
    int fd = open(resolved, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NotFound(std::string(path) + ": " + std::strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      return PermissionDenied(std::string(path) + ": not a regular file");
    }
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

 private:
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
    RETURN_IF_ERROR(CheckRelativePath(path));
    auto it = files_.find(std::string(path));
    if (it == files_.end()) return NotFound(std::string(path) + ": not in " + name_);
    *truncated = it->second.size() > max_bytes;
    return it->second.substr(0, max_bytes);
  }

 private:
  std::map<std::string, std::string> files_;
  std::string name_;
};

}  // namespace

std::unique_ptr<RepoSnapshot> MemorySnapshot(std::map<std::string, std::string> files, std::string name) {
  return std::make_unique<InMemorySnapshot>(std::move(files), std::move(name));
}

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
  struct stat st;
  if (stat(resolved, &st) != 0 || !S_ISDIR(st.st_mode)) return InvalidArgument(root + ": not a directory");
  return std::unique_ptr<RepoSnapshot>(new DirectorySnapshot(resolved));
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
