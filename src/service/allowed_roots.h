// The directories whose files the service may read (`--allow-root`,
// repeatable). A repository or log path is resolved with realpath — so `..`
// and symlinks cannot leave a root — and refused unless it is a root or lies
// under one. A path that does not resolve is refused the same way unless its
// lexical form lies under a root (then it is "not found"), so the answers
// are no oracle for files outside the roots. No root: every path is refused.
// Thread safety: immutable after Make, safe to share.
#ifndef SCHEDMATE_SERVICE_ALLOWED_ROOTS_H_
#define SCHEDMATE_SERVICE_ALLOWED_ROOTS_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace schedmate {

class AllowedRoots {
 public:
  // Each root must exist; it is kept resolved.
  static Result<AllowedRoots> Make(const std::vector<std::string>& roots);

  // The resolved path, PermissionDenied when outside every root, NotFound
  // when under a root but absent. `field` names the request field.
  Result<std::string> Resolve(const std::string& path, std::string_view field) const;

  const std::vector<std::string>& roots() const { return roots_; }

 private:
  bool Contains(const std::string& resolved) const;
  std::vector<std::string> roots_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_ALLOWED_ROOTS_H_
