#include "world/sia_world.h"

#include <map>

#include "core/random.h"
#include "core/str_format.h"

namespace schedmate {
namespace {

// The applications of Pollux's and Sia's evaluations (Pollux OSDI'21 Table 1).
const std::map<std::string, SiaAppWorkload>& AppWorkloads() {
  static const std::map<std::string, SiaAppWorkload> kApps = {
      {"cifar10", {"resnet", "resnet18", "image-classification", "cifar10"}},
      {"imagenet", {"resnet", "resnet50", "image-classification", "imagenet-1k"}},
      {"bert", {"bert", "bert-base-uncased", "question-answering", "squad"}},
      {"deepspeech2", {"resnet", "deepspeech2", "speech-recognition", "cmu-arctic"}},
      {"yolov3", {"yolo", "yolov3", "detection", "VOC"}},
      {"ncf", {"dlrm", "neumf", "recsys", "movielens"}},
  };
  return kApps;
}

// A content key for the repository a job's truth, style and layout produce.
uint64_t RepoKeyOf(const MappedJob& m) {
  const WorkloadTruth& w = m.truth;
  return StableHash(StrFormat("sia|%s|%s|%s|%s|%lld|%s|%lld|%d|%g|%d|%llu", w.family.c_str(), w.model_name.c_str(),
                              w.model_type.c_str(), w.dataset.c_str(), (long long)w.iterations,
                              w.iteration_type.c_str(), (long long)w.batch_size, w.num_gpus, w.learning_rate,
                              static_cast<int>(m.style), (unsigned long long)m.layout_seed));
}

void TrainApplication(const std::string& name, const SiaAppWorkload& app, int32_t batch_size, MappedJob* m) {
  m->job_name = StrFormat("%s-%d", name.c_str(), m->project);  // what a history record calls the run
  m->truth.family = app.family;
  m->truth.model_name = app.model_name;
  m->truth.model_type = app.model_type;
  m->truth.dataset = app.dataset;
  if (batch_size > 0) m->truth.batch_size = batch_size;
  m->repo_key = RepoKeyOf(*m);
}

}  // namespace

std::optional<SiaAppWorkload> SiaAppWorkloadFor(const std::string& app) {
  auto it = AppWorkloads().find(app);
  if (it == AppWorkloads().end()) return std::nullopt;
  return it->second;
}

const MappedJob* SiaWorld::Find(const std::string& job_id) const {
  auto it = by_job_id.find(job_id);
  return it == by_job_id.end() ? nullptr : &world.jobs[it->second];
}

SiaWorld MapSiaTrace(const Trace& trace, const WorkloadCatalog& catalog, MappingParams params) {
  params.unknown_fail_rate = 0;  // Sia runs every job to its target
  params.unknown_cancel_rate = 0;
  Trace owned = trace;
  for (JobSpec& j : owned.jobs) {
    j.user = j.type;  // projects stay within one application
    j.name.clear();   // Sia's names are row ids, not what users call their runs
  }
  SiaWorld out;
  out.world = MapTrace(owned, catalog, params);
  for (size_t i = 0; i < owned.jobs.size(); ++i) {
    const JobSpec& j = owned.jobs[i];
    std::optional<SiaAppWorkload> app = SiaAppWorkloadFor(j.type);
    if (!app) continue;
    TrainApplication(j.type, *app, j.batch_size, &out.world.jobs[i]);
    out.by_job_id.emplace(j.id, i);
  }
  return out;
}

}  // namespace schedmate
