// The two tools through which extractors — embedded or LLM — touch a job's
// code (DESIGN §1.1 step 1). Nothing else in schedmate reads user files.
//  - file_tree: source and config files only — no `.git`, caches, virtual
//    environments, binaries, checkpoints or data files — within depth,
//    count and size caps.
//  - file_read: one text file the listing would show, capped; binary
//    content is refused, and so is what the listing skips (`.git`, caches,
//    data and binary files, files over its size cap) — its size is checked
//    before anything is read.
#ifndef SCHEDMATE_REPO_TOOLS_H_
#define SCHEDMATE_REPO_TOOLS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "repo/snapshot.h"

namespace schedmate {

struct FileTreeOptions {
  int max_depth = 8;
  size_t max_entries = 2000;
  int64_t max_file_bytes = int64_t{2} << 20;
  int64_t max_visited = 200000;
};

struct FileTree {
  std::vector<SnapshotEntry> files;
  int64_t skipped_binary = 0, skipped_data = 0, skipped_large = 0, refused = 0;
  bool truncated = false;
  // One path per line, with sizes: what an LLM agent is shown.
  std::string Render() const;
};

Result<FileTree> FileTreeTool(const RepoSnapshot& snapshot, const FileTreeOptions& options = {});

struct FileText {
  std::string path, text;
  bool truncated = false;
  int64_t file_bytes = 0;  // the whole file's size
};

// PermissionDenied for unsafe paths, binary content or a file the listing
// skips (FileTreeOptions: its directory, kind, or a size over
// max_file_bytes); NotFound when absent.
Result<FileText> FileReadTool(const RepoSnapshot& snapshot, const std::string& path, size_t max_bytes = 256u << 10,
                              int64_t max_file_bytes = FileTreeOptions().max_file_bytes);

// The first max_bytes of one text file however large it is: the entry point
// a launch command names, which the listing's caps must not hide. The same
// refusals as FileReadTool but the size one; `truncated` says it is a head.
Result<FileText> FileHeadTool(const RepoSnapshot& snapshot, const std::string& path, size_t max_bytes = 256u << 10);

// A stable hash of the listed files' paths and contents (first 64 KiB each):
// the history's snapshot hash.
Result<std::string> SnapshotHash(const RepoSnapshot& snapshot, const FileTree& tree);

}  // namespace schedmate

#endif  // SCHEDMATE_REPO_TOOLS_H_
