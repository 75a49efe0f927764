// A read-only view of a job's repository (DESIGN §1.1 step 1): a directory,
// or a git commit read through libgit2 (blobs at the commit; no checkout).
// Every path is checked: refused are empty or absolute paths, `..`, NUL
// bytes, symlinks that leave the root, and anything but regular files and
// directories (devices, FIFOs, sockets). A symlink inside the root is
// followed (a git symlink blob too, within the commit's tree). A path that
// leaves the root gets one answer whether or not its target exists, so the
// tools are no oracle for files outside the repository. Reads are capped and
// never hold more than the cap (a git blob's size is read from its header
// before it is inflated). The user's code is never executed.
// Thread safety: a snapshot may be read from several threads.
#ifndef SCHEDMATE_REPO_SNAPSHOT_H_
#define SCHEDMATE_REPO_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct SnapshotEntry {
  std::string path;  // relative, '/'-separated
  int64_t size = 0;
};

struct WalkLimits {
  int max_depth = 12;
  int64_t max_visited = 200000;  // directory entries examined
};

struct WalkStats {
  int64_t visited = 0;
  int64_t refused = 0;   // symlinks out of the root, devices, FIFOs…
  bool truncated = false;  // a limit was hit
};

class RepoSnapshot {
 public:
  virtual ~RepoSnapshot() = default;
  // "dir:/abs/path" or "git:/abs/path@<commit>".
  virtual std::string Describe() const = 0;
  // Regular files under the root (`.git` excluded), in path order.
  virtual Status Walk(const WalkLimits& limits, std::vector<SnapshotEntry>* out, WalkStats* stats) const = 0;
  // Up to `max_bytes` of one file; *truncated says whether more exists.
  virtual Result<std::string> Read(std::string_view path, size_t max_bytes, bool* truncated) const = 0;
  // The size of one file, without reading it: whether a path the listing
  // left out (by its count or size caps) exists, and how large it is.
  virtual Result<int64_t> Size(std::string_view path) const = 0;
};

// PermissionDenied for `..`, absolute paths, NUL bytes or an empty path.
Status CheckRelativePath(std::string_view path);

// The snapshots' answers for a path that resolves out of the root
// (PermissionDenied), whatever lies there, and for one that is absent
// (NotFound).
Status OutsideRepository(std::string_view path);
Status NotInRepository(std::string_view path);

Result<std::unique_ptr<RepoSnapshot>> OpenDirectorySnapshot(const std::string& root);
// `rev`: a commit id, branch, tag or "HEAD".
Result<std::unique_ptr<RepoSnapshot>> OpenGitSnapshot(const std::string& repo, const std::string& rev);
// An in-memory repository (generated projects; tests): path → contents.
std::unique_ptr<RepoSnapshot> MemorySnapshot(std::map<std::string, std::string> files, std::string name = "memory");

// A directory, or "PATH@REV" for a git revision.
Result<std::unique_ptr<RepoSnapshot>> OpenSnapshot(const std::string& spec);

}  // namespace schedmate

#endif  // SCHEDMATE_REPO_SNAPSHOT_H_
