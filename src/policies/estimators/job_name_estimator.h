// Helios' job-name estimator (HeliosArtifact estimators/estimator.py,
// NaiveEstimator; the "history" estimator of the policies' configs). It knows
// only past jobs' names, users, GPU counts and durations — not schedmate's
// history/ of what the jobs ran. It learns online from jobs as they end:
//  1. names = up to 2 known job names with a similarity ratio >= 0.6 to the
//     job's name (difflib.get_close_matches semantics);
//  2. exact name known: the user's jobs of that name, else everyone's;
//     fuzzy matches only: the user's jobs of those names, else everyone's;
//     within the user's jobs, prefer those with the same GPU count;
//  3. no match: the user's mean duration, else the global mean;
//  4. no history at all: `prior_s` (the artifact trains on earlier months;
//     we start empty and say so).
// Aggregation is the mean, as in the artifact. Speed: the difflib ratio is
// computed only for known names sharing at least kMinTrigramDice of their
// character trigrams with the question (found through an inverted index);
// names below that share too little to reach a ratio of 0.6 in practice,
// and the artifact's all-pairs scan would take minutes on 100k-job traces.
#ifndef SCHEDMATE_POLICIES_ESTIMATORS_JOB_NAME_ESTIMATOR_H_
#define SCHEDMATE_POLICIES_ESTIMATORS_JOB_NAME_ESTIMATOR_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "policies/estimators/duration_estimator.h"

namespace schedmate {

// difflib.SequenceMatcher(None, a, b).ratio() without the autojunk
// heuristic: 2 * matched characters / total characters.
double SequenceRatio(std::string_view a, std::string_view b);

// difflib's quick_ratio (an upper bound of SequenceRatio).
double QuickRatio(std::string_view a, std::string_view b);

class JobNameEstimator final : public DurationEstimator {
 public:
  static constexpr double kMinTrigramDice = 0.3;
  explicit JobNameEstimator(double prior_s = 3600.0) : prior_s_(prior_s) {}
  std::string_view Name() const override { return "history"; }
  double Estimate(const JobSpec& job, int64_t now) override;
  void Observe(const JobSpec& job, int64_t ran_s, int64_t end_s) override;

  // Up to two known names with ratio >= 0.6 to `name`, best first (ties in
  // the order names were first seen).
  std::vector<const std::string*> CloseMatches(const std::string& name) const;

 private:
  // Running sums, so an estimate costs O(matched names), not O(history).
  struct Mean {
    double sum = 0;
    int64_t n = 0;
    void Add(double x) { sum += x, ++n; }
  };
  struct UserStats {
    Mean all;
    std::unordered_map<int32_t, Mean> by_gpus;
  };
  struct NameStats {
    Mean all;
    std::unordered_map<std::string, UserStats> by_user;
  };
  double MeanOf(const std::vector<const std::string*>& names,
                const JobSpec& job) const;

  double prior_s_;
  std::unordered_map<std::string, NameStats> by_name_;
  std::vector<std::string> names_;  // insertion order, for stable ties
  std::vector<int32_t> name_trigrams_;  // distinct trigrams per name
  std::unordered_map<uint32_t, std::vector<int32_t>> trigram_index_;
  mutable std::vector<int32_t> shared_;  // scratch: shared trigram counts
  // A question's best two matches so far and how many names they cover:
  // asking again scans only the names added since (exact: ties keep
  // insertion order, and older names come first).
  struct Cached {
    size_t names_seen = 0;
    std::vector<std::pair<double, int32_t>> best;  // (ratio, name index)
  };
  mutable std::unordered_map<std::string, Cached> match_cache_;
  std::unordered_map<std::string, Mean> by_user_;
  Mean global_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_ESTIMATORS_JOB_NAME_ESTIMATOR_H_
