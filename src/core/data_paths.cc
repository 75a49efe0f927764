#include "core/data_paths.h"

#include <cstdlib>
#include <filesystem>

namespace schedmate {
namespace {

namespace fs = std::filesystem;

bool IsDir(const std::string& p) {
  std::error_code ec;
  return !p.empty() && fs::is_directory(p, ec);
}

bool Exists(const std::string& p) {
  std::error_code ec;
  return !p.empty() && fs::exists(p, ec);
}

std::string Absolute(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? p : a.string();
}

constexpr std::string_view kSharedVar = "${SHARED}";

}  // namespace

SharedDir FindSharedDir(const std::string& flag) {
  SharedDir s;
  auto take = [&](const std::string& p, const char* origin) {
    s.tried.push_back(p + " (" + origin + ")");
    if (!IsDir(p)) return false;
    s.path = Absolute(p);
    s.origin = origin;
    return true;
  };
  if (!flag.empty()) {
    take(flag, "--shared");
    return s;
  }
  if (const char* env = std::getenv("SCHEDMATE_SHARED"); env && *env) {
    take(env, "SCHEDMATE_SHARED");
    return s;
  }
#ifdef SCHEDMATE_SOURCE_DIR
  if (take(std::string(SCHEDMATE_SOURCE_DIR) + "/../shared", "beside the source tree")) return s;
#endif
  take("../shared", "../shared from the working directory");
  return s;
}

std::string DescribeSharedSearch(const SharedDir& shared) {
  if (shared.found()) return "shared data: " + shared.path + " (" + shared.origin + ")";
  std::string out = "no shared data directory (give --shared DIR or set SCHEDMATE_SHARED); tried";
  for (size_t i = 0; i < shared.tried.size(); ++i) out += (i ? ", " : " ") + shared.tried[i];
  return out;
}

Result<std::string> ResolveConfigPath(const std::string& path, const std::string& config_file,
                                      const std::string& field, const SharedDir& shared) {
  if (path.empty()) return path;
  auto where = [&] { return config_file + ": field '" + field + "': "; };
  if (path.rfind(kSharedVar, 0) == 0) {
    if (!shared.found()) return NotFound(where() + path + ": " + DescribeSharedSearch(shared));
    std::string rest = path.substr(kSharedVar.size());
    while (!rest.empty() && rest.front() == '/') rest.erase(rest.begin());
    return (fs::path(shared.path) / rest).string();
  }
  if (fs::path(path).is_absolute()) return path;
  std::string beside = (fs::path(config_file).parent_path() / path).string();
  if (Exists(beside)) return Absolute(beside);
  if (Exists(path)) return Absolute(path);
  return NotFound(where() + path + ": no such file (tried " + beside + " beside the config, and " + Absolute(path) +
                  " from the working directory; shared data is written ${SHARED}/…)");
}

}  // namespace schedmate
