#include "repo/tools.h"

#include <cstdio>
#include <optional>
#include <string_view>

#include "core/random.h"

namespace schedmate {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool InSkippedDir(std::string_view path) {
  static constexpr std::string_view kDirs[] = {"__pycache__", "node_modules", ".venv", "venv", ".tox", ".mypy_cache",
                                               ".pytest_cache", "wandb", "mlruns", ".ipynb_checkpoints", ".eggs",
                                               "site-packages", ".git"};
  size_t start = 0;
  while (true) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) return false;
    std::string_view part = path.substr(start, slash - start);
    for (auto d : kDirs)
      if (part == d) return true;
    start = slash + 1;
  }
}

enum class Kind { kText, kBinary, kData };

Kind KindOf(std::string_view path) {
  std::string p = Lower(path);
  static constexpr std::string_view kBinary[] = {".so", ".o", ".a", ".dll", ".dylib", ".exe", ".pyc", ".pyo",
                                                 ".whl", ".egg", ".class", ".jar"};
  static constexpr std::string_view kData[] = {
      ".pt", ".pth", ".ckpt", ".bin", ".safetensors", ".h5", ".hdf5", ".onnx", ".pb", ".tflite", ".msgpack",
      ".pkl", ".pickle", ".joblib", ".npz", ".npy", ".parquet", ".arrow", ".tfrecord", ".lmdb", ".mdb", ".zip",
      ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".zst", ".jpg", ".jpeg", ".png", ".gif", ".bmp", ".tif",
      ".tiff", ".webp", ".wav", ".mp3", ".flac", ".mp4", ".avi", ".mkv", ".pdf", ".db", ".sqlite", ".csv",
      ".tsv", ".jsonl", ".idx", ".index", ".model", ".vocab", ".spm"};
  for (auto s : kBinary)
    if (EndsWith(p, s)) return Kind::kBinary;
  for (auto s : kData)
    if (EndsWith(p, s)) return Kind::kData;
  return Kind::kText;
}

bool LooksBinary(std::string_view data) {
  size_t n = std::min<size_t>(data.size(), 8192);
  size_t control = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(data[i]);
    if (c == 0) return true;
    if (c < 0x09 || (c > 0x0D && c < 0x20)) ++control;
  }
  return n > 0 && control * 10 > n;  // more than 10 % control bytes
}

// The listing's refusals (path, directory, kind), then the size cap if any
// — from the size alone, before a byte is read — then the capped head.
Result<FileText> ReadText(const RepoSnapshot& snapshot, const std::string& path, size_t max_bytes,
                          std::optional<int64_t> max_file_bytes) {
  RETURN_IF_ERROR(CheckRelativePath(path));
  if (InSkippedDir(path)) return PermissionDenied(path + ": in a directory the listing skips");
  if (KindOf(path) != Kind::kText) return PermissionDenied(path + ": binary, checkpoint or data file");
  FileText out;
  out.path = path;
  ASSIGN_OR_RETURN(out.file_bytes, snapshot.Size(path));
  if (max_file_bytes && out.file_bytes > *max_file_bytes)
    return PermissionDenied(path + ": " + std::to_string(out.file_bytes) + " bytes, over the listing's " +
                            std::to_string(*max_file_bytes) + "-byte cap");
  ASSIGN_OR_RETURN(out.text, snapshot.Read(path, max_bytes, &out.truncated));
  if (LooksBinary(out.text)) return PermissionDenied(path + ": binary content");
  return out;
}

}  // namespace

std::string FileTree::Render() const {
  std::string out;
  for (const auto& f : files) {
    char size[32];
    std::snprintf(size, sizeof size, "  (%lld B)\n", static_cast<long long>(f.size));
    out += f.path + size;
  }
  if (truncated) out += "… (listing truncated)\n";
  return out;
}

Result<FileTree> FileTreeTool(const RepoSnapshot& snapshot, const FileTreeOptions& o) {
  std::vector<SnapshotEntry> all;
  WalkStats stats;
  WalkLimits limits{o.max_depth, o.max_visited};
  RETURN_IF_ERROR(snapshot.Walk(limits, &all, &stats));
  FileTree tree;
  tree.refused = stats.refused;
  tree.truncated = stats.truncated;
  for (auto& e : all) {
    if (InSkippedDir(e.path)) continue;
    Kind k = KindOf(e.path);
    if (k == Kind::kBinary) {
      ++tree.skipped_binary;
      continue;
    }
    if (k == Kind::kData) {
      ++tree.skipped_data;
      continue;
    }
    if (e.size > o.max_file_bytes) {
      ++tree.skipped_large;
      continue;
    }
    if (tree.files.size() >= o.max_entries) {
      tree.truncated = true;
      break;
    }
    tree.files.push_back(std::move(e));
  }
  return tree;
}

Result<FileText> FileHeadTool(const RepoSnapshot& snapshot, const std::string& path, size_t max_bytes) {
  return ReadText(snapshot, path, max_bytes, std::nullopt);
}

Result<FileText> FileReadTool(const RepoSnapshot& snapshot, const std::string& path, size_t max_bytes,
                              int64_t max_file_bytes) {
  return ReadText(snapshot, path, max_bytes, max_file_bytes);
}

Result<std::string> SnapshotHash(const RepoSnapshot& snapshot, const FileTree& tree) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& f : tree.files) {
    bool truncated = false;
    auto data = snapshot.Read(f.path, 64u << 10, &truncated);
    h = h * 0x100000001b3ull ^ StableHash(f.path);
    if (data.ok()) h = h * 0x100000001b3ull ^ StableHash(*data);
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return std::string(buf);
}

}  // namespace schedmate
