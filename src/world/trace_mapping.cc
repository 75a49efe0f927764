#include "world/trace_mapping.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/random.h"
#include "core/str_format.h"

namespace schedmate {
namespace {

// Small: fits one GPU in minutes to hours; large: billions of parameters.
const char* const kSmall[] = {"mobilenet", "resnet", "efficientnet", "yolo", "unet", "bert", "deberta"};
const char* const kMedium[] = {"vit", "convnext", "t5", "clip", "dlrm", "stable-diffusion"};
const char* const kLarge[] = {"llama3-8b", "qwen2.5-14b"};

struct Project {
  std::string owner_key;  // owner + GPUs
  WorkloadTruth truth;
  CodeStyle style = CodeStyle::kRawLoop;
  uint64_t layout_seed = 0;
  int64_t steps_per_iteration = 1;
  std::string name;
  double log_duration_sum = 0;  // over members that ran to their end
  int finished_members = 0;
  double planned_s = 0;
  int64_t last_submit_s = 0;

  double TypicalDurationS() const {
    return finished_members > 0 ? std::exp(log_duration_sum / finished_members) : planned_s;
  }
};

int64_t RoundNice(double x) {  // two significant digits, as people write budgets
  if (x < 100) return std::max<int64_t>(1, std::llround(x));
  double p = std::pow(10.0, std::floor(std::log10(x)) - 1);
  return static_cast<int64_t>(std::llround(x / p) * p);
}

size_t WeightedIndex(const std::array<double, 5>& w, Rng& rng) {
  double total = 0;
  for (double x : w) total += x;
  double u = rng.Uniform() * total;
  for (size_t i = 0; i < w.size(); ++i)
    if ((u -= w[i]) < 0) return i;
  return w.size() - 1;
}

JobLogFormat FormatFor(CodeStyle style, const std::string& family) {
  switch (style) {
    case CodeStyle::kRawLoop: return SizeClassOf(family) == 2 ? JobLogFormat::kTorchtitan : JobLogFormat::kNanoGpt;
    case CodeStyle::kHfTrainer:
    case CodeStyle::kLightning: return JobLogFormat::kHfTqdm;
    case CodeStyle::kHydra: return JobLogFormat::kMmcv;
    case CodeStyle::kDeepSpeed: return JobLogFormat::kMegatron;
  }
  return JobLogFormat::kNanoGpt;
}

uint64_t RepoKey(const WorkloadTruth& w, CodeStyle style, uint64_t layout_seed) {
  return StableHash(StrFormat("%s|%s|%s|%s|%lld|%s|%lld|%d|%g|%d|%llu", w.family.c_str(), w.model_name.c_str(),
                              w.model_type.c_str(), w.dataset.c_str(), (long long)w.iterations, w.iteration_type.c_str(),
                              (long long)w.batch_size, w.num_gpus, w.learning_rate, static_cast<int>(style),
                              (unsigned long long)layout_seed));
}

class Mapper {
 public:
  Mapper(const Trace& t, const WorkloadCatalog& c, const MappingParams& p) : trace_(t), catalog_(c), p_(p), rng_(p.seed) {}

  WorldMap Run() {
    out_.jobs.reserve(trace_.jobs.size());
    for (const JobSpec& j : trace_.jobs) out_.jobs.push_back(MapJob(j));
    out_.stats.jobs = static_cast<int64_t>(out_.jobs.size());
    out_.stats.projects = static_cast<int64_t>(projects_.size());
    return std::move(out_);
  }

 private:
  MappedJob MapJob(const JobSpec& j) {
    MappedJob m;
    m.end_state = EndStateOf(j, &m.state_drawn);
    bool truncated = IsFailure(m.end_state) || m.end_state == EndState::kCancelled;
    double d = j.duration_s >= 0 ? static_cast<double>(std::max<int64_t>(j.duration_s, 1)) : -1;
    std::string owner = (j.user.empty() ? j.vc : j.user) + "/" + std::to_string(j.gpus);
    int bucket = GpuTimeBucket(j.gpus, std::max<int64_t>(j.duration_s, 0));
    ++out_.stats.bucket_jobs[bucket];
    int pi = FindProject(j, owner, d, truncated);
    bool joined = pi >= 0;
    if (!joined) pi = NewProject(j, owner, bucket, d, truncated);
    Project& pr = projects_[pi];
    m.project = pi;
    m.job_name = j.name.empty() ? pr.name : j.name;
    m.truth = pr.truth;
    m.style = pr.style;
    m.layout_seed = pr.layout_seed;
    const int64_t steps_per_iteration = pr.steps_per_iteration;
    if (joined) Vary(&m);
    if (d < 0) d = pr.planned_s;
    m.step_time_s = catalog_.StepTime(m.truth.family, p_.gpu_type, std::max(j.gpus, 1), static_cast<int>(m.truth.batch_size));
    m.truth.seconds_per_iteration = m.step_time_s * static_cast<double>(steps_per_iteration);
    m.total_steps = std::max<int64_t>(1, m.truth.iterations * steps_per_iteration);
    m.steps_run = std::min<int64_t>(m.total_steps, static_cast<int64_t>(d / m.step_time_s));
    m.log_every = LogEvery(m.total_steps);
    m.log_format = FormatFor(m.style, m.truth.family);
    m.repo_key = RepoKey(m.truth, m.style, m.layout_seed);
    if (!truncated) pr.log_duration_sum += std::log(d), ++pr.finished_members;
    pr.last_submit_s = j.submit_s;
    DrawFailure(&m);
    return m;
  }

  EndState EndStateOf(const JobSpec& j, bool* drawn) {
    if (j.state != EndState::kUnknown) return j.state;
    *drawn = true;
    ++out_.stats.drawn_states;
    double u = rng_.Uniform();
    if (u < p_.unknown_fail_rate) return EndState::kFailed;
    if (u < p_.unknown_fail_rate + p_.unknown_cancel_rate) return EndState::kCancelled;
    return EndState::kCompleted;
  }

  bool Open(const Project& pr, int64_t now) const { return now - pr.last_submit_s <= p_.project_idle_s; }

  // A same-named project, or an open project of the owner this run fits; -1 = new.
  int FindProject(const JobSpec& j, const std::string& owner, double d, bool truncated) {
    if (!j.name.empty()) {
      auto it = by_name_.find(owner + "\n" + j.name);
      if (it != by_name_.end() && Open(projects_[it->second], j.submit_s)) {
        double u = rng_.Uniform();
        if (u < p_.swap_model_prob + p_.swap_dataset_prob) {
          ++out_.stats.swapped;
          return Swapped(it->second, j, u < p_.swap_model_prob, d, truncated);
        }
        ++out_.stats.resubmissions;
        return it->second;
      }
    }
    if (rng_.Uniform() >= p_.resubmit_prob) return -1;
    int best = BestFit(owner, j.submit_s, d, truncated);
    if (best >= 0) {
      ++out_.stats.resubmissions;
      if (!j.name.empty()) by_name_[owner + "\n" + j.name] = best;
    }
    return best;
  }

  int BestFit(const std::string& owner, int64_t now, double d, bool truncated) {
    auto it = open_.find(owner);
    if (it == open_.end()) return -1;
    auto& list = it->second;
    list.erase(std::remove_if(list.begin(), list.end(), [&](int i) { return !Open(projects_[i], now); }), list.end());
    if (d < 0) return list.empty() ? -1 : list.back();
    const double tol = std::log(p_.duration_tolerance);
    int best = -1;
    double best_gap = 1e300;
    for (auto r = list.rbegin(); r != list.rend(); ++r) {  // most recent first
      double gap = std::log(d / projects_[*r].TypicalDurationS());
      if (truncated ? gap > tol : std::abs(gap) > tol) continue;
      if (truncated) return *r;
      if (std::abs(gap) < best_gap) best_gap = std::abs(gap), best = *r;
    }
    return best;
  }

  int Swapped(int from, const JobSpec& j, bool model, double d, bool truncated) {
    Project pr = projects_[from];
    pr.truth = model ? SwapModel(pr.truth, rng_) : SwapDataset(pr.truth, rng_);
    pr.truth.num_gpus = std::max(j.gpus, 1);
    pr.finished_members = 0;
    pr.log_duration_sum = 0;
    if (model) {  // another model plans its own budget, in its own iteration type
      pr.steps_per_iteration = 1;
      PlanBudget(pr, d, truncated);
    }
    std::string key = pr.owner_key + "\n" + j.name;
    int i = AddProject(std::move(pr), /*bucket=*/-1);
    by_name_[key] = i;
    return i;
  }

  std::string DrawFamily(int bucket, int32_t gpus) {
    const auto& w = p_.bucket_family_weights[bucket];
    double u = rng_.Uniform() * (w[0] + w[1] + w[2]);
    if (u < w[0]) return kSmall[rng_.Below(std::size(kSmall))];
    if (u < w[0] + w[1]) return kMedium[rng_.Below(std::size(kMedium))];
    // Qwen-2.5 14B does not train on one GPU.
    return gpus < 2 ? kLarge[0] : kLarge[rng_.Below(std::size(kLarge))];
  }

  // The budget a project's code plans, from a run of `d` seconds (truncated:
  // a failed or killed run that got through a uniform 0.1–0.9 of it).
  void PlanBudget(Project& pr, double d, bool truncated) {
    const int32_t gpus = pr.truth.num_gpus;
    double st = catalog_.StepTime(pr.truth.family, p_.gpu_type, gpus, static_cast<int>(pr.truth.batch_size));
    if (d < 0)  // no duration (Sia): the drawn budget, epochs of 100 steps
      d = static_cast<double>(pr.truth.iterations) * st * (pr.truth.iteration_type == "epoch" ? 100 : 1);
    pr.planned_s = truncated ? d / rng_.Uniform(0.1, 0.9) : d;
    double steps = std::max(1.0, pr.planned_s / st);
    if (pr.truth.iteration_type == "step") {
      pr.truth.iterations = RoundNice(steps);
    } else {
      pr.truth.iterations = std::clamp<int64_t>(pr.truth.iterations, 1, static_cast<int64_t>(steps));
      pr.steps_per_iteration = std::max<int64_t>(1, std::llround(steps / static_cast<double>(pr.truth.iterations)));
    }
    if (const CatalogEntry* e = catalog_.Find(pr.truth.family)) pr.truth.sm_util = e->sm_util;
  }

  int NewProject(const JobSpec& j, const std::string& owner, int bucket, double d, bool truncated) {
    Project pr;
    pr.owner_key = owner;
    int32_t gpus = std::max(j.gpus, 1);
    pr.truth = DrawWorkload(DrawFamily(bucket, gpus), rng_);
    pr.truth.num_gpus = gpus;
    pr.style = static_cast<CodeStyle>(rng_.Below(kNumCodeStyles));
    pr.layout_seed = rng_.NextU64();
    PlanBudget(pr, d, truncated);
    pr.name = j.name.empty() ? StrFormat("%s-%zu", pr.truth.family.c_str(), projects_.size()) : j.name;
    int i = AddProject(std::move(pr), bucket);
    if (!j.name.empty()) by_name_[owner + "\n" + j.name] = i;
    return i;
  }

  int AddProject(Project pr, int bucket) {
    int i = static_cast<int>(projects_.size());
    if (bucket >= 0) ++out_.stats.bucket_class_projects[bucket][SizeClassOf(pr.truth.family)];
    open_[pr.owner_key].push_back(i);
    projects_.push_back(std::move(pr));
    return i;
  }

  // A member of an existing project: maybe a renamed copy, maybe edited.
  void Vary(MappedJob* m) {
    if (rng_.Uniform() < p_.rename_prob) {
      m->layout_seed = rng_.NextU64();
      ++out_.stats.renamed_copies;
    }
    if (rng_.Uniform() >= p_.edit_prob) return;
    ++out_.stats.edited;
    bool up = rng_.Uniform() < 0.5;
    if (rng_.Uniform() < 0.5 && (up || m->truth.batch_size >= 2)) {
      m->truth.batch_size = up ? m->truth.batch_size * 2 : m->truth.batch_size / 2;
    } else if (up || m->truth.iterations >= 2) {
      m->truth.iterations = up ? m->truth.iterations * 2 : m->truth.iterations / 2;
    }
  }

  int64_t LogEvery(int64_t total_steps) {
    static const int64_t kEvery[] = {1, 5, 10, 20, 50, 100};
    int n = 1;
    while (n < 6 && total_steps / kEvery[n] >= 200) ++n;
    return kEvery[rng_.Below(n)];
  }

  void DrawFailure(MappedJob* m) {
    if (m->end_state != EndState::kFailed && m->end_state != EndState::kNodeFail) return;
    ++out_.stats.failed;
    InjectedCause c;
    const FailureMix& f = p_.failures;
    double u = rng_.Uniform() * (f.infrastructure + f.framework + f.user_script);
    if (m->end_state == EndState::kNodeFail || u < f.infrastructure) {
      static const char* const kComponents[] = {"gpu", "storage", "network", "node", "nvlink"};
      c.category = "infrastructure";
      c.component = m->end_state == EndState::kNodeFail ? "node" : kComponents[WeightedIndex(f.component, rng_)];
      ++out_.stats.failed_infrastructure;
    } else {
      c.category = u < f.infrastructure + f.framework ? "framework" : "user_script";
    }
    m->failure = c;
  }

  const Trace& trace_;
  const WorkloadCatalog& catalog_;
  const MappingParams& p_;
  Rng rng_;
  WorldMap out_;
  std::vector<Project> projects_;
  std::unordered_map<std::string, std::vector<int>> open_;  // owner/GPUs → project indices
  std::unordered_map<std::string, int> by_name_;            // owner/GPUs \n name → project
};

}  // namespace

int SizeClassOf(const std::string& family) {
  for (const char* f : kLarge)
    if (family == f) return 2;
  for (const char* f : kMedium)
    if (family == f) return 1;
  return 0;
}

int GpuTimeBucket(int32_t gpus, int64_t duration_s) {
  double gpu_h = static_cast<double>(std::max(gpus, 1)) * static_cast<double>(duration_s) / 3600.0;
  return gpu_h < 1 ? 0 : gpu_h < 10 ? 1 : gpu_h < 100 ? 2 : 3;
}

WorldMap MapTrace(const Trace& trace, const WorkloadCatalog& catalog, const MappingParams& params) {
  return Mapper(trace, catalog, params).Run();
}

std::string FailureCauseName(const InjectedCause& c) {
  return c.category == "infrastructure" ? c.category + "/" + c.component : c.category;
}

EndReason EndReasonOf(const MappedJob& m) {
  switch (m.end_state) {
    case EndState::kCompleted: return EndReason::kCompleted;
    case EndState::kCancelled: return EndReason::kCancelled;
    case EndState::kTimeout: return EndReason::kTimeout;
    case EndState::kUnknown: return EndReason::kUnknown;
    default: break;
  }
  if (!m.failure || m.failure->category == "infrastructure") return EndReason::kFailedInfra;
  return m.failure->category == "framework" ? EndReason::kFailedFramework : EndReason::kFailedUser;
}

}  // namespace schedmate
