#include "service/allowed_roots.h"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <memory>

namespace schedmate {
namespace {

Result<std::string> RealPath(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> resolved(realpath(path.c_str(), nullptr), &std::free);
  if (!resolved) return NotFound(path + ": does not exist");
  return std::string(resolved.get());
}

}  // namespace

Result<AllowedRoots> AllowedRoots::Make(const std::vector<std::string>& roots) {
  AllowedRoots out;
  for (const auto& root : roots) {
    auto resolved = RealPath(root);
    if (!resolved.ok()) return InvalidArgument("--allow-root " + root + ": does not exist");
    std::error_code ec;
    if (!std::filesystem::is_directory(*resolved, ec))
      return InvalidArgument("--allow-root " + root + ": not a directory");
    out.roots_.push_back(*resolved);
  }
  return out;
}

bool AllowedRoots::Contains(const std::string& resolved) const {
  for (const auto& root : roots_) {
    if (resolved == root) return true;
    std::string prefix = root == "/" ? root : root + "/";
    if (resolved.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

Result<std::string> AllowedRoots::Resolve(const std::string& path, std::string_view field) const {
  const std::string refused = "field '" + std::string(field) + "': " + path + " is not under an allowed root (--allow-root)";
  if (path.empty() || path[0] != '/') return PermissionDenied("field '" + std::string(field) + "': an absolute path is needed");
  auto resolved = RealPath(path);
  if (resolved.ok()) {
    if (!Contains(*resolved)) return PermissionDenied(refused);
    return resolved;
  }
  std::string lexical = std::filesystem::path(path).lexically_normal().string();
  if (!Contains(lexical)) return PermissionDenied(refused);
  return NotFound("field '" + std::string(field) + "': " + path + " does not exist");
}

}  // namespace schedmate
