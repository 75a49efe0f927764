// Lucid's workload estimate (its "workload estimate model"): a duration
// predictor on the features Lucid has without reading code — user, VC, GPU
// count, submit-time features and the profiled utilisation and memory —
// trained only on jobs that have ended, and retrained periodically.
//
// Model family: one CART regression tree on log(duration) (variance
// reduction, depth <= max_depth, >= min_leaf jobs per leaf). The user and VC
// enter through target encoding (their mean log duration so far, smoothed
// toward the global mean with weight `prior_jobs`) plus their job counts.
// Lucid's artifact uses a LightGBM model trained offline on earlier months;
// this is a simpler member of the same family, trained online on history
// only. Before the first training every job gets `cold_start_s`.
#ifndef SCHEDMATE_POLICIES_LUCID_WORKLOAD_ESTIMATOR_H_
#define SCHEDMATE_POLICIES_LUCID_WORKLOAD_ESTIMATOR_H_

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace schedmate {

struct LucidFeatures {
  std::string user, vc;
  int32_t gpus = 1;
  int64_t submit_s = 0;
  double sm_util = 0, gmem_mib = 0;  // profiled
};

struct WorkloadEstimatorOptions {
  int max_depth = 6;
  int min_leaf = 8;
  double prior_jobs = 5;
  double cold_start_s = 3600;
  size_t max_training_jobs = 20000;  // the most recent ones
};

class WorkloadEstimator {
 public:
  explicit WorkloadEstimator(WorkloadEstimatorOptions o = {}) : o_(o) {}
  // A job ended after `duration_s`; used from the next Retrain() on.
  void Observe(const LucidFeatures& f, double duration_s);
  void Retrain();
  double Estimate(const LucidFeatures& f) const;
  size_t trained_on() const { return trained_on_; }

 private:
  static constexpr int kNumFeatures = 9;
  using Row = std::array<double, kNumFeatures>;
  struct Node {
    int feature = -1;  // -1 = leaf
    double threshold = 0, value = 0;
    int left = -1, right = -1;
  };
  struct Encoding {
    double sum = 0;
    int64_t n = 0;
  };
  struct Keyed {
    double value, target;
    size_t row;
  };
  Row Encode(const LucidFeatures& f) const;
  int Grow(std::vector<size_t>& idx, size_t lo, size_t hi, int depth);

  WorkloadEstimatorOptions o_;
  std::vector<std::pair<LucidFeatures, double>> seen_;  // (features, log duration)
  std::unordered_map<std::string, Encoding> user_, vc_;  // as of the last training
  double global_mean_ = 0;
  std::vector<Row> rows_;
  std::vector<double> targets_;
  std::vector<Node> tree_;
  std::vector<Keyed> scratch_;  // Grow's per-feature sort, kept between calls
  size_t trained_on_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_LUCID_WORKLOAD_ESTIMATOR_H_
