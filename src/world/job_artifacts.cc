#include "world/job_artifacts.h"

#include <filesystem>
#include <fstream>

#include "core/random.h"
#include "core/str_format.h"

namespace schedmate {

JobLogSpec BaseLogSpec(const MappedJob& m, uint64_t seed) {
  JobLogSpec s;
  s.format = m.log_format;
  s.total_steps = m.total_steps;
  s.log_every = m.log_every;
  s.samples_per_step = m.truth.batch_size * std::max(m.truth.num_gpus, 1);
  s.speeds = {{0, m.step_time_s}};
  s.loss0 = 2.0 + static_cast<double>(seed % 7) * 0.3;
  s.seed = seed;
  return s;
}

std::optional<InjectedError> InjectedErrorFor(const MappedJob& m, const std::string& job_id, uint64_t seed) {
  if (!m.failure) return std::nullopt;
  Rng rng(seed ^ 0xfa11u);
  const FailureTemplate* t = FailureInjections::Default().Pick(m.failure->category, m.failure->component, rng);
  if (!t) return std::nullopt;
  InjectionContext c;
  c.rank = static_cast<int>(rng.Below(static_cast<uint64_t>(std::max(m.truth.num_gpus, 1))));
  c.node = StrFormat("node-%03d", static_cast<int>(rng.Below(512)));
  c.step = m.steps_run;
  c.job_id = job_id;
  return RenderInjection(*t, c, rng);
}

RenderedLog JobLogAtEnd(const MappedJob& m, const std::string& job_id, uint64_t seed, int64_t progress_records) {
  JobLogSpec spec = BaseLogSpec(m, seed);
  std::optional<InjectedError> e = InjectedErrorFor(m, job_id, seed);
  JobLogTailOptions o;
  o.progress_records = progress_records;
  o.finished = m.end_state == EndState::kCompleted;
  o.ranks = std::max(m.truth.num_gpus, 1);
  o.seed = seed;
  return RenderJobLogTail(spec, m.steps_run, e ? &*e : nullptr, o);
}

const GeneratedRepo& RepoCache::Get(const MappedJob& m) {
  auto it = index_.find(m.repo_key);
  if (it != index_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->second;
  }
  lru_.emplace_front(m.repo_key, GenerateRepo(m.truth, m.style, m.layout_seed));
  ++generated_;
  index_[m.repo_key] = lru_.begin();
  if (lru_.size() > std::max<size_t>(capacity_, 1)) {
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
  return lru_.front().second;
}

std::string RepoKeyHex(uint64_t key) { return StrFormat("%016llx", static_cast<unsigned long long>(key)); }

Result<std::string> RepoCache::Materialize(const MappedJob& m, const std::string& dir) {
  namespace fs = std::filesystem;
  const std::string root = dir + "/" + RepoKeyHex(m.repo_key);
  const std::string marker = root + "/.schedmate-complete";
  std::error_code ec;
  if (fs::exists(marker, ec)) return root;
  const GeneratedRepo& r = Get(m);
  auto write = [&](const std::string& rel, const std::string& text) -> Status {
    fs::path p = fs::path(root) / rel;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream f(p, std::ios::binary);
    f << text;
    if (!f.flush()) return Internal("cannot write " + p.string());
    return Status::Ok();
  };
  for (const auto& [path, text] : r.files) RETURN_IF_ERROR(write(path, text));
  RETURN_IF_ERROR(write("COMMAND", r.command + "\n"));
  RETURN_IF_ERROR(write(".schedmate-complete", ""));
  return root;
}

}  // namespace schedmate
