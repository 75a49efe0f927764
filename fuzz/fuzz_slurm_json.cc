// squeue --json / sinfo --json output (agent/slurm_json.h): outside input the
// SLURM agent parses every poll. Whatever parses must give consistent jobs.
#include <cstdint>
#include <string_view>

#include "agent/slurm_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view s(reinterpret_cast<const char*>(data), size);
  auto jobs = schedmate::ParseSqueueJson(s, "fuzz");
  if (jobs.ok())
    for (const auto& j : *jobs) {
      // A job that has not ended carries no exit code, and every path is absolute when the work dir is.
      if (!schedmate::JobEnded(j) && j.exit_code) __builtin_trap();
      if (!j.work_dir.empty() && j.work_dir[0] == '/' && j.stdout_path[0] != '/') __builtin_trap();
      (void)schedmate::ExpandOutputPattern(j.stdout_path, j);
      (void)schedmate::SingleNode(j);
    }
  (void)schedmate::ParseSinfoJson(s, "fuzz");
  return 0;
}
