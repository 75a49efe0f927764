// Git revisions through libgit2: blobs read at the commit, nothing checked out.
#include <git2.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "repo/snapshot.h"

namespace schedmate {
namespace {

void InitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

std::string GitError(const std::string& what) {
  const git_error* e = git_error_last();
  return what + ": " + (e && e->message ? e->message : "libgit2 error");
}

class GitSnapshot : public RepoSnapshot {
 public:
  GitSnapshot(git_repository* repo, git_tree* tree, std::string path, std::string commit)
      : repo_(repo), tree_(tree), path_(std::move(path)), commit_(std::move(commit)) {}
  ~GitSnapshot() override {
    git_tree_free(tree_);
    git_repository_free(repo_);
  }
  std::string Describe() const override { return "git:" + path_ + "@" + commit_; }

  Status Walk(const WalkLimits& limits, std::vector<SnapshotEntry>* out, WalkStats* stats) const override {
    std::lock_guard<std::mutex> lock(mu_);  // libgit2 objects are not shared across threads
    out->clear();
    struct Ctx {
      const WalkLimits* limits;
      std::vector<SnapshotEntry>* out;
      WalkStats* stats;
      git_repository* repo;
    } ctx{&limits, out, stats, repo_};
    auto cb = [](const char* root, const git_tree_entry* e, void* payload) -> int {
      auto* c = static_cast<Ctx*>(payload);
      if (++c->stats->visited > c->limits->max_visited) {
        c->stats->truncated = true;
        return -1;
      }
      std::string dir(root);
      int depth = static_cast<int>(std::count(dir.begin(), dir.end(), '/'));
      if (depth > c->limits->max_depth) {
        c->stats->truncated = true;
        return 1;  // skip this subtree
      }
      git_filemode_t mode = git_tree_entry_filemode(e);
      if (mode == GIT_FILEMODE_TREE) return 0;
      if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) {
        ++c->stats->refused;  // symlinks and submodules
        return 0;
      }
      size_t size = 0;
      git_object_t type;
      git_odb* odb = nullptr;
      if (git_repository_odb(&odb, c->repo) == 0) {
        git_odb_read_header(&size, &type, odb, git_tree_entry_id(e));
        git_odb_free(odb);
      }
      c->out->push_back({dir + git_tree_entry_name(e), static_cast<int64_t>(size)});
      return 0;
    };
    git_tree_walk(tree_, GIT_TREEWALK_PRE, cb, &ctx);
    std::sort(out->begin(), out->end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    return Status::Ok();
  }

  Result<std::string> Read(std::string_view path, size_t max_bytes, bool* truncated) const override {
    RETURN_IF_ERROR(CheckRelativePath(path));
    std::lock_guard<std::mutex> lock(mu_);
    const std::string p(path);
    ASSIGN_OR_RETURN(git_oid id, BlobAt(p));
    ASSIGN_OR_RETURN(size_t size, BlobSize(id, p));
    std::string data;
    if (size <= std::max(max_bytes, kInflateWholeMax)) {
      ASSIGN_OR_RETURN(data, InflateWhole(id, p, max_bytes));
    } else {
      ASSIGN_OR_RETURN(data, StreamHead(id, p, size, max_bytes));
    }
    *truncated = size > data.size();
    return data;
  }

  Result<int64_t> Size(std::string_view path) const override {
    RETURN_IF_ERROR(CheckRelativePath(path));
    std::lock_guard<std::mutex> lock(mu_);
    const std::string p(path);
    ASSIGN_OR_RETURN(git_oid id, BlobAt(p));
    ASSIGN_OR_RETURN(size_t size, BlobSize(id, p));
    return static_cast<int64_t>(size);
  }

 private:
  // Blobs up to this size are inflated whole — the listing's own size cap,
  // so whatever file_tree shows is readable; larger ones only as a stream
  // of their head, where the object database can stream them.
  static constexpr size_t kInflateWholeMax = size_t{2} << 20;
  static constexpr int kMaxSymlinkHops = 8;

  // The blob at `path` in the commit's tree. Symlink blobs (whose content is
  // the target path) are followed within the tree, directory links too; an
  // absolute target, or one climbing above the root, is outside.
  Result<git_oid> BlobAt(const std::string& path) const {
    std::vector<std::string> todo = SplitPath(path), done;  // components left, and resolved
    std::reverse(todo.begin(), todo.end());                 // next component at the back
    int hops = 0;
    while (!todo.empty()) {
      std::string part = std::move(todo.back());
      todo.pop_back();
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        if (done.empty()) return OutsideRepository(path);
        done.pop_back();
        continue;
      }
      done.push_back(std::move(part));
      ASSIGN_OR_RETURN(TreeItem item, ItemAt(JoinPath(done), path));
      if (item.mode == GIT_FILEMODE_LINK) {
        if (++hops > kMaxSymlinkHops) return PermissionDenied(path + ": too many symlinks");
        ASSIGN_OR_RETURN(std::string target, LinkTarget(item.id, path));
        if (target.empty() || target[0] == '/') return OutsideRepository(path);
        done.pop_back();  // the target is relative to the link's directory
        std::vector<std::string> parts = SplitPath(target);
        todo.insert(todo.end(), parts.rbegin(), parts.rend());
        continue;
      }
      if (item.mode == GIT_FILEMODE_TREE && !todo.empty()) continue;
      if (!todo.empty()) return NotInRepository(path);
      if (item.mode == GIT_FILEMODE_BLOB || item.mode == GIT_FILEMODE_BLOB_EXECUTABLE) return item.id;
      return PermissionDenied(path + ": not a regular file (submodule or tree)");
    }
    return PermissionDenied(path + ": not a regular file");
  }

  struct TreeItem {
    git_filemode_t mode;
    git_oid id;
  };
  Result<TreeItem> ItemAt(const std::string& tree_path, const std::string& path) const {
    git_tree_entry* e = nullptr;
    if (git_tree_entry_bypath(&e, tree_, tree_path.c_str()) != 0) return NotInRepository(path);
    TreeItem item{git_tree_entry_filemode(e), *git_tree_entry_id(e)};
    git_tree_entry_free(e);
    return item;
  }

  Result<std::string> LinkTarget(const git_oid& id, const std::string& path) const {
    ASSIGN_OR_RETURN(size_t size, BlobSize(id, path));
    if (size > 4096) return PermissionDenied(path + ": symlink target too long");
    return InflateWhole(id, path, size);
  }

  // From the object's header: nothing is inflated.
  Result<size_t> BlobSize(const git_oid& id, const std::string& path) const {
    git_odb* odb = nullptr;
    if (git_repository_odb(&odb, repo_) != 0) return DataLoss(GitError(path));
    size_t size = 0;
    git_object_t type;
    int rc = git_odb_read_header(&size, &type, odb, &id);
    git_odb_free(odb);
    if (rc != 0 || type != GIT_OBJECT_BLOB) return DataLoss(GitError(path));
    return size;
  }

  Result<std::string> InflateWhole(const git_oid& id, const std::string& path, size_t max_bytes) const {
    git_blob* blob = nullptr;
    if (git_blob_lookup(&blob, repo_, &id) != 0) return DataLoss(GitError(path));
    size_t take = std::min(static_cast<size_t>(git_blob_rawsize(blob)), max_bytes);
    std::string data(static_cast<const char*>(git_blob_rawcontent(blob)), take);
    git_blob_free(blob);
    return data;
  }

  // The first max_bytes of a large blob, inflated as a stream (a loose
  // object). A packed object cannot be streamed by libgit2: refused rather
  // than inflated whole.
  Result<std::string> StreamHead(const git_oid& id, const std::string& path, size_t size, size_t max_bytes) const {
    git_odb* odb = nullptr;
    if (git_repository_odb(&odb, repo_) != 0) return DataLoss(GitError(path));
    git_odb_stream* stream = nullptr;
    size_t len = 0;
    git_object_t type;
    if (git_odb_open_rstream(&stream, &len, &type, odb, &id) != 0) {
      git_odb_free(odb);
      return ResourceExhausted(path + ": " + std::to_string(size) + " bytes in a pack, over the " +
                               std::to_string(kInflateWholeMax) + "-byte limit for inflating a blob; not read");
    }
    std::string data(max_bytes, '\0');
    size_t done = 0;
    while (done < max_bytes) {
      int n = git_odb_stream_read(stream, data.data() + done, max_bytes - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    git_odb_stream_free(stream);
    git_odb_free(odb);
    data.resize(done);
    return data;
  }

  static std::vector<std::string> SplitPath(const std::string& path) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
      size_t slash = path.find('/', start);
      parts.push_back(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    return parts;
  }

  static std::string JoinPath(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
    return out;
  }

  git_repository* repo_;
  git_tree* tree_;
  std::string path_, commit_;
  mutable std::mutex mu_;
};

}  // namespace

Result<std::unique_ptr<RepoSnapshot>> OpenGitSnapshot(const std::string& repo_path, const std::string& rev) {
  InitOnce();
  git_repository* repo = nullptr;
  if (git_repository_open_ext(&repo, repo_path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0)
    return NotFound(GitError(repo_path));
  git_object* obj = nullptr;
  if (git_revparse_single(&obj, repo, rev.c_str()) != 0) {
    git_repository_free(repo);
    return NotFound(GitError(repo_path + "@" + rev));
  }
  git_commit* commit = nullptr;
  int rc = git_object_peel(reinterpret_cast<git_object**>(&commit), obj, GIT_OBJECT_COMMIT);
  git_object_free(obj);
  if (rc != 0) {
    git_repository_free(repo);
    return InvalidArgument(GitError(rev + " is not a commit"));
  }
  char id[GIT_OID_HEXSZ + 1];
  git_oid_tostr(id, sizeof id, git_commit_id(commit));
  git_tree* tree = nullptr;
  rc = git_commit_tree(&tree, commit);
  git_commit_free(commit);
  if (rc != 0) {
    git_repository_free(repo);
    return DataLoss(GitError("tree of " + rev));
  }
  return std::unique_ptr<RepoSnapshot>(new GitSnapshot(repo, tree, repo_path, id));
}

}  // namespace schedmate
