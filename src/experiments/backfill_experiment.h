// What backfilling buys (issue 18, "Backfilling on estimates"): the same
// jobs replayed under FIFO, SJF (oracle order), standalone schedmate, Lucid
// and Lucid + schedmate, each with the strict queue (head-of-line blocking)
// and with EASY and conservative backfilling fed by oracle durations,
// user-style limits and the policy's own estimate. The runners are the
// Lucid and standalone experiments'; this only sweeps their backfill
// settings and gathers one table.
#ifndef SCHEDMATE_EXPERIMENTS_BACKFILL_EXPERIMENT_H_
#define SCHEDMATE_EXPERIMENTS_BACKFILL_EXPERIMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "experiments/lucid_experiment.h"
#include "experiments/standalone_experiment.h"
#include "policies/common/backfill.h"

namespace schedmate {

struct BackfillExperimentConfig {
  std::string name = "backfill";
  // "lucid": a Lucid experiment config (trace, cluster, Lucid's settings);
  // its jobs and main-cluster size are also the queue policies'.
  std::optional<LucidExperimentConfig> lucid;
  // "standalone": a standalone experiment config for FIFO / SJF /
  // standalone (its policies.runs picks which); with "lucid" given it must
  // not name a trace or a cluster size (it replays Lucid's jobs).
  std::optional<StandaloneExperimentConfig> queue;
  std::vector<BackfillMode> disciplines = {BackfillMode::kStrict, BackfillMode::kEasy, BackfillMode::kConservative};
  std::vector<BackfillEstimate> estimates = {BackfillEstimate::kOracle, BackfillEstimate::kUserLimit,
                                             BackfillEstimate::kAdvisor};
  // "overdue": what the planner assumes of a running job past its planned
  // end, for every setting (policies/common/backfill.h).
  OverdueRule overdue = OverdueRule::kSlack;
};

// `where` names the file in every error, with the field.
Result<BackfillExperimentConfig> BackfillConfigFromJson(const Json& j, const std::string& where);

struct BackfillRow {
  std::string policy;  // fifo, sjf-oracle, standalone, lucid, lucid+schedmate
  BackfillMode mode = BackfillMode::kStrict;
  std::optional<BackfillEstimate> estimate;  // none for strict (no planner)
  SimSummary summary;
  int64_t backfilled = 0;
  double wall_s = 0;
};

struct BackfillReport {
  std::vector<std::string> settings;  // each runner's setting line
  std::string catalog_notice;
  std::vector<BackfillRow> rows;
};

Result<BackfillReport> RunBackfillExperiment(const BackfillExperimentConfig& c, const ProgressFn& progress = {});

// One table; "x strict" = the same policy's strict average JCT / this row's.
std::string FormatBackfillTable(const BackfillReport& r);
Json BackfillReportToJson(const BackfillReport& r);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_BACKFILL_EXPERIMENT_H_
