#include "world/world_artefacts.h"

#include <algorithm>

#include "core/random.h"
#include "loggen/job_log.h"

namespace schedmate {

Result<const MappedJob*> WorldArtefactSource::Find(const ArtefactJob& job) const {
  if (by_id_) {
    auto it = by_id_->find(std::string(job.id));
    if (it != by_id_->end()) return &world_.jobs[it->second];
  } else if (job.index >= 0 && static_cast<size_t>(job.index) < world_.jobs.size()) {
    return &world_.jobs[static_cast<size_t>(job.index)];
  }
  return NotFound("job " + std::string(job.id) + ": the semantic world has no code for it");
}

uint64_t WorldArtefactSource::LogSeed(const ArtefactJob& job) const { return StableHash(job.id) ^ log_seed_; }

Result<uint64_t> WorldArtefactSource::RepositoryKey(const ArtefactJob& job) {
  ASSIGN_OR_RETURN(const MappedJob* m, Find(job));
  return m->repo_key;
}

Result<JobRepository> WorldArtefactSource::Repository(const ArtefactJob& job) {
  ASSIGN_OR_RETURN(const MappedJob* m, Find(job));
  const GeneratedRepo& repo = repos_.Get(*m);
  return JobRepository{MemorySnapshot(repo.files, "job"), repo.command};
}

Result<std::string> WorldArtefactSource::LogTail(const ArtefactJob& job, int64_t max_bytes) {
  ASSIGN_OR_RETURN(const MappedJob* m, Find(job));
  std::string text = JobLogAtEnd(*m, std::string(job.id), LogSeed(job)).text;
  if (static_cast<int64_t>(text.size()) <= max_bytes) return text;
  size_t from = text.size() - static_cast<size_t>(std::max<int64_t>(max_bytes, 0));
  size_t nl = text.find('\n', from == 0 ? 0 : from - 1);
  return nl == std::string::npos ? text.substr(from) : text.substr(nl + 1);
}

Result<LogCadence> WorldArtefactSource::Cadence(const ArtefactJob& job) {
  ASSIGN_OR_RETURN(const MappedJob* m, Find(job));
  return LogCadence{m->log_every, m->step_time_s};
}

Result<LogExcerpt> WorldArtefactSource::LogAround(const ArtefactJob& job, const LogExcerptQuery& q) {
  ASSIGN_OR_RETURN(const MappedJob* m, Find(job));
  JobLogSpec spec = BaseLogSpec(*m, LogSeed(job));
  spec.total_steps = std::max(spec.total_steps, q.mark_step + 1);
  spec.speeds = {{0, m->step_time_s}, {q.mark_step, m->step_time_s / std::max(q.speed_after_mark, 0.01)}};
  const int64_t now_step = std::min(q.now_step, spec.total_steps);
  const int64_t window = q.records_before * m->log_every;
  LogExcerpt out;
  out.lines = JobLogWindow(spec, std::max<int64_t>(0, q.mark_step - window), q.mark_step);
  out.split = out.lines.size();
  std::vector<std::string> after = JobLogWindow(spec, q.mark_step, now_step);
  out.lines.insert(out.lines.end(), after.begin(), after.end());
  return out;
}

Result<JobOutcome> WorldArtefactSource::Outcome(const ArtefactJob& job) {
  ASSIGN_OR_RETURN(const MappedJob* m, Find(job));
  JobOutcome o;
  o.name = m->job_name;
  o.end_reason = EndReasonOf(*m);
  if (const CatalogEntry* e = catalog_ ? catalog_->Find(m->truth.family) : nullptr) {
    o.sm_util = e->sm_util;
    o.gmem_mib = e->gmem_mib;
  }
  return o;
}

}  // namespace schedmate
