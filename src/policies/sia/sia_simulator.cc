#include "policies/sia/sia_simulator.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/stats.h"
#include "policies/sia/sia_placement.h"

namespace schedmate::sia {
namespace {

enum class Phase { kUnseen, kProfiling, kReady };

struct Tracked {
  std::unique_ptr<SiaJob> job;
  Phase phase = Phase::kUnseen;
  int64_t ready_at = 0;
  double profile_gpu_s = 0;
  bool seeded = false;
  int type = -1;  // allocation held: type and node list
  NodeList nodes;
};

Result<std::unique_ptr<SiaJob>> MakeJob(const SiaCluster& c, const std::map<std::string, AppProfile>& profiles,
                                        const SiaJobInput& in) {
  ASSIGN_OR_RETURN(AppConstants k, LookupAppConstants(in.app));
  auto p = profiles.find(in.app);
  if (p == profiles.end()) return NotFound("sia: job " + in.name + ": no profile for application '" + in.app + "'");
  std::vector<AppModel> apps;
  for (const auto& t : c.types) {
    ASSIGN_OR_RETURN(AppModel m, AppModel::Create(p->second, t.name, k.max_epochs));
    apps.push_back(std::move(m));
  }
  return std::make_unique<SiaJob>(in.name, in.submit_s, in.batch_size, std::move(apps), k);
}

// What the bootstrap profile observes: every measured 1-GPU batch size on
// every type, and gradient statistics at the initial batch.
PerfSeed ProfileSeed(const SiaJob& job) {
  PerfSeed seed;
  for (int t = 0; t < job.num_types(); ++t) {
    std::vector<PerfObservation> obs;
    for (const auto& s : job.app_on(t).OneGpuSamples())
      obs.push_back({1, 1, s.local_bsz, s.step_time_s, s.sync_time_s});
    seed.by_type.push_back(std::move(obs));
  }
  seed.grad = job.app_on(0).GradAt(job.app_on(0).init_batch_size(), 0);
  return seed;
}

class Loop {
 public:
  Loop(const SiaCluster& c, const SiaParams& p, const SiaSimOptions& o, MilpSolver* s)
      : cluster_(c), options_(o), policy_(c, p, s) {}

  Status Add(std::unique_ptr<SiaJob> job) {
    jobs_.push_back({std::move(job)});
    return Status::Ok();
  }
  Result<SiaRunResult> Run();

 private:
  bool AllDone() const;
  void Admit(Tracked& t);
  std::vector<int> Reserve(std::vector<Tracked*>& starting);
  void Apply(const RoundDecision& d, const std::vector<Tracked*>& eligible);
  bool FitsCapacity(const RoundDecision& d, const std::vector<int>& capacity) const;
  SiaRunResult Summarize() const;

  const SiaCluster& cluster_;
  const SiaSimOptions& options_;
  SiaPolicy policy_;
  std::vector<Tracked> jobs_;
  std::vector<SiaRoundStat> rounds_;
  int64_t now_ = 0;
};

bool Loop::AllDone() const {
  return std::all_of(jobs_.begin(), jobs_.end(), [](const Tracked& t) { return t.job->done(); });
}

void Loop::Admit(Tracked& t) {
  std::optional<PerfSeed> seed = options_.known_model ? options_.known_model(*t.job) : std::nullopt;
  if (seed) {
    t.job->Seed(*seed);
    t.seeded = true;
  }
  t.phase = seed || options_.bootstrap == Bootstrap::kAsYouGo ? Phase::kReady : Phase::kProfiling;
  t.ready_at = -1;  // profiling not started yet
}

// One GPU of each type per job starting its profile this round; the
// remaining capacity goes to the policy. Jobs that do not fit wait.
std::vector<int> Loop::Reserve(std::vector<Tracked*>& starting) {
  std::vector<int> capacity;
  for (size_t t = 0; t < cluster_.types.size(); ++t) capacity.push_back(cluster_.TypeGpus(static_cast<int>(t)));
  for (const Tracked& t : jobs_)
    if (t.phase == Phase::kReady && t.job->restarting() && t.type >= 0) capacity[t.type] -= t.job->gpus();
  int rounds = (options_.profile_s_per_type + options_.round_s - 1) / options_.round_s;
  for (Tracked& t : jobs_) {
    if (t.phase != Phase::kProfiling || t.ready_at >= 0) continue;
    if (*std::min_element(capacity.begin(), capacity.end()) < 1) break;
    for (int& c : capacity) --c;
    t.ready_at = now_ + std::max(1, rounds) * options_.round_s;
    t.profile_gpu_s = double(options_.profile_s_per_type) * capacity.size();
    starting.push_back(&t);
  }
  // Restarting jobs keep their GPUs inside the policy's capacity.
  for (const Tracked& t : jobs_)
    if (t.phase == Phase::kReady && t.job->restarting() && t.type >= 0) capacity[t.type] += t.job->gpus();
  return capacity;
}

bool Loop::FitsCapacity(const RoundDecision& d, const std::vector<int>& capacity) const {
  std::vector<int> used(capacity.size(), 0);
  for (const auto& [name, c] : d.choice)
    if (c >= 0) used[policy_.options()[c].type] += policy_.options()[c].gpus;
  for (size_t t = 0; t < used.size(); ++t)
    if (used[t] > capacity[t]) return false;
  return true;
}

void Loop::Apply(const RoundDecision& d, const std::vector<Tracked*>& eligible) {
  std::vector<std::vector<Tracked*>> on_type(cluster_.types.size());
  std::vector<std::vector<int>> gpus(cluster_.types.size());
  for (Tracked* t : eligible) {
    int c = d.choice.at(t->job->name());
    if (c < 0) {
      t->type = -1, t->nodes.clear();
      t->job->Reallocate(-1, {});
      continue;
    }
    const AllocOption& o = policy_.options()[c];
    on_type[o.type].push_back(t);
    gpus[o.type].push_back(o.gpus);
  }
  for (size_t type = 0; type < on_type.size(); ++type) {
    std::vector<NodeList> lists = PlaceOnType(cluster_.types[type], gpus[type]);
    for (size_t k = 0; k < lists.size(); ++k) {
      Tracked* t = on_type[type][k];
      if (t->type == static_cast<int>(type) && t->nodes == lists[k]) continue;
      t->type = static_cast<int>(type), t->nodes = lists[k];
      t->job->Reallocate(t->type, ToPlacement(lists[k], cluster_.types[type].max_job_nodes));
    }
  }
}

Result<SiaRunResult> Loop::Run() {
  for (int64_t round = 0; !AllDone(); ++round) {
    if (round >= options_.max_rounds)
      return ResourceExhausted("sia: not finished after " + std::to_string(round) + " rounds");
    for (Tracked& t : jobs_) {
      const bool was_done = t.job->done();
      t.job->Step(now_, options_.round_s);
      if (!was_done && t.job->done() && options_.on_end) options_.on_end(*t.job);
    }
    now_ += options_.round_s;
    std::vector<const SiaJob*> views;
    std::vector<Tracked*> eligible;
    for (Tracked& t : jobs_) {
      if (t.job->done() || t.job->submit_s() > now_) continue;
      if (t.phase == Phase::kUnseen) Admit(t);
      if (t.phase == Phase::kProfiling && t.ready_at >= 0 && t.ready_at <= now_) {
        t.job->Seed(ProfileSeed(*t.job));
        t.phase = Phase::kReady;
      }
      if (t.phase != Phase::kReady) continue;
      eligible.push_back(&t);
      views.push_back(t.job.get());
    }
    std::vector<Tracked*> starting;
    std::vector<int> capacity = Reserve(starting);
    auto start = std::chrono::steady_clock::now();
    RoundDecision d = policy_.Decide(views, capacity, now_);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!d.solved && !FitsCapacity(d, capacity)) {
      // The kept allocation needs the GPUs reserved for profiles: profile later.
      for (Tracked* t : starting) t->ready_at = -1, t->profile_gpu_s = 0;
    }
    Apply(d, eligible);
    rounds_.push_back({now_, static_cast<int>(views.size()), ms, d.solved, d.note});
  }
  return Summarize();
}

SiaRunResult Loop::Summarize() const {
  SiaRunResult r;
  r.rounds = rounds_;
  std::vector<double> jcts;
  int64_t first = jobs_.empty() ? 0 : jobs_.front().job->submit_s(), last = 0;
  for (const Tracked& t : jobs_) {
    const SiaJob& j = *t.job;
    r.jobs.push_back({j.name(), j.app(), j.submit_s(), j.completion_s(), j.gpu_seconds(), j.restart_gpu_seconds(),
                      t.profile_gpu_s, j.num_restarts(), t.seeded});
    jcts.push_back(double(j.completion_s() - j.submit_s()));
    first = std::min(first, j.submit_s()), last = std::max(last, j.completion_s());
    r.gpu_hours += (j.gpu_seconds() + t.profile_gpu_s) / 3600;
    r.profile_gpu_hours += t.profile_gpu_s / 3600;
  }
  for (const auto& s : rounds_) r.failed_rounds += s.solved ? 0 : 1;
  double sum = 0;
  for (double v : jcts) sum += v;
  r.avg_jct_s = jcts.empty() ? 0 : sum / jcts.size();
  r.p99_jct_s = Percentile(jcts, 99);
  r.makespan_s = double(last - first);
  return r;
}

}  // namespace

Result<SiaRunResult> RunSia(const SiaCluster& cluster, const std::map<std::string, AppProfile>& profiles,
                            const std::vector<SiaJobInput>& inputs, const SiaParams& params,
                            const SiaSimOptions& options, MilpSolver* solver) {
  RETURN_IF_ERROR(ValidateCluster(cluster));
  if (options.round_s <= 0) return InvalidArgument("sia: round_s must be positive");
  Loop loop(cluster, params, options, solver);
  for (const auto& in : inputs) {
    ASSIGN_OR_RETURN(std::unique_ptr<SiaJob> job, MakeJob(cluster, profiles, in));
    RETURN_IF_ERROR(loop.Add(std::move(job)));
  }
  return loop.Run();
}

}  // namespace schedmate::sia
