// Git revisions through libgit2: blobs read at the commit, nothing checked out.
#include <git2.h>

#include <algorithm>
#include <mutex>

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
    git_tree_entry* entry = nullptr;
    std::string p(path);
    if (git_tree_entry_bypath(&entry, tree_, p.c_str()) != 0) return NotFound(p + ": not in " + commit_);
    git_filemode_t mode = git_tree_entry_filemode(entry);
    if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) {
      git_tree_entry_free(entry);
      return PermissionDenied(p + ": not a regular file (symlink, submodule or tree)");
    }
    git_blob* blob = nullptr;
    int rc = git_blob_lookup(&blob, repo_, git_tree_entry_id(entry));
    git_tree_entry_free(entry);
    if (rc != 0) return DataLoss(GitError(p));
    size_t size = static_cast<size_t>(git_blob_rawsize(blob));
    size_t take = std::min(size, max_bytes);
    std::string data(static_cast<const char*>(git_blob_rawcontent(blob)), take);
    git_blob_free(blob);
    *truncated = size > take;
    return data;
  }

 private:
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
