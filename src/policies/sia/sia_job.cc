#include "policies/sia/sia_job.h"

#include <algorithm>
#include <cmath>

namespace schedmate::sia {

namespace {
constexpr double kEps = 1e-8;
}  // namespace

SiaJob::SiaJob(std::string name, int64_t submit_s, int target_batch_size, std::vector<AppModel> apps,
               AppConstants constants)
    : name_(std::move(name)),
      submit_s_(submit_s),
      target_batch_size_(target_batch_size),
      apps_(std::move(apps)),
      constants_(constants),
      observed_(apps_.size()),
      perf_(apps_.size()) {}

int SiaJob::gpus() const {
  int n = 0;
  for (int g : placement_) n += g;
  return n;
}

std::optional<GoodputModel> SiaJob::GoodputOn(int type) const {
  if (!grad_ || !perf_[type]) return std::nullopt;
  return GoodputModel(*perf_[type], *grad_, apps_[type].init_batch_size());
}

int SiaJob::MaxObservedReplicas(int type) const {
  int m = 0;
  for (const auto& [key, o] : observed_[type]) m = std::max(m, o.replicas);
  return m;
}

void SiaJob::Observe(int type, const PerfObservation& o) {
  // job.py:397-412: a configuration seen before adds nothing; a new one refits.
  auto key = std::make_tuple(o.nodes, o.replicas, o.atomic_bsz);
  if (!observed_[type].emplace(key, o).second) return;
  std::vector<PerfObservation> all;
  for (const auto& [k, v] : observed_[type]) all.push_back(v);
  perf_[type] = FitPerfParams(all);
}

void SiaJob::Seed(const PerfSeed& seed) {
  grad_ = seed.grad;
  for (size_t t = 0; t < seed.by_type.size() && t < apps_.size(); ++t)
    for (const auto& o : seed.by_type[t]) Observe(static_cast<int>(t), o);
}

void SiaJob::ChooseBatch() {
  // job.py:317-385 with batch-size tuning on.
  const AppModel& app = apps_[type_];
  int replicas = gpus(), nodes = static_cast<int>(placement_.size());
  int max_local = app.MaxLocalBsz(placement_);
  std::optional<GoodputModel> model = GoodputOn(type_);
  BatchChoice choice;
  if (model) choice = model->Optimize(nodes, replicas, {app.max_batch_size(), app.min_local_bsz(), max_local});
  if (choice.goodput > 0) {
    atomic_bsz_ = choice.atomic_bsz, accum_steps_ = choice.accum_steps;
  } else {
    // No model yet: the initial batch, split over the replicas.
    int batch = std::max(app.init_batch_size(), app.min_local_bsz() * replicas);
    int local = static_cast<int>(std::ceil(double(batch) / replicas - kEps));
    accum_steps_ = std::max(0, static_cast<int>(std::ceil(double(local) / max_local - kEps)) - 1);
    if (replicas == 1 && batch > app.init_batch_size()) accum_steps_ = std::max(1, accum_steps_);
    atomic_bsz_ = static_cast<int>(std::ceil(double(local) / (accum_steps_ + 1) - kEps));
  }
  int measured = app.MaxMeasuredLocalBszAt(replicas);
  if (measured > 0) atomic_bsz_ = std::min(atomic_bsz_, measured);
  int count = replicas * (accum_steps_ + 1);
  atomic_bsz_ = std::max(1, std::min(atomic_bsz_, app.max_batch_size() / count));
}

void SiaJob::Reallocate(int type, const Placement& placement) {
  bool moved = type != type_;
  if (placement.empty()) {
    type_ = -1, placement_.clear(), atomic_bsz_ = 0;
    return;
  }
  if (!moved && placement == placement_) return;
  type_ = type;
  placement_ = placement;
  ChooseBatch();
  restart_left_s_ = constants_.restart_delay_s;
  ++num_restarts_;
}

int64_t SiaJob::TrainFor(int64_t now_s, int seconds) {
  // One pass of job.py:435-521: progress until the time runs out or an epoch ends.
  const AppModel& app = apps_[type_];
  int replicas = gpus(), nodes = static_cast<int>(placement_.size());
  double batch = double(replicas) * atomic_bsz_ * (accum_steps_ + 1);
  double scale = batch / app.init_batch_size();
  GradStats g = app.GradAt(static_cast<int>(batch), epoch_);
  double gain = (g.var + g.sqr) / (g.var / scale + g.sqr);
  StepTime st = app.StepTimeAt(placement_, atomic_bsz_);
  grad_ = g;
  Observe(type_, {nodes, replicas, atomic_bsz_, st.step_s, st.sync_s});
  double step = st.step_s + (st.step_s - st.sync_s) * accum_steps_;
  double goodput = gain / step / constants_.slowdown;
  double next = app.ProgressAt(epoch_ + 1);
  int used = seconds;
  if (progress_ + goodput * seconds < next) {
    progress_ += goodput * seconds;
  } else {
    used = std::min<int>(seconds, static_cast<int>(std::llround((next - progress_) / goodput)));
    progress_ = next;
    if (++epoch_ >= app.max_epochs()) completion_s_ = now_s + used;
  }
  ChooseBatch();
  return used;
}

void SiaJob::Step(int64_t now_s, int seconds) {
  if (done() || placement_.empty()) return;
  int n = gpus();
  int64_t delay = std::min<int64_t>(restart_left_s_, seconds);
  restart_left_s_ -= delay;
  attained_gpu_s_ += double(delay) * n;
  wasted_gpu_s_ += double(delay) * n;
  now_s += delay;
  int left = seconds - static_cast<int>(delay);
  while (left > 0 && !done()) {
    int used = static_cast<int>(TrainFor(now_s, left));
    attained_gpu_s_ += double(used) * n;
    now_s += used, left -= used;
  }
}

}  // namespace schedmate::sia
