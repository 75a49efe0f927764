// A finished job as the history keeps it (DESIGN §1.1 step 5): what it was
// (metadata, fingerprint, snapshot hash), how it ended (end reason,
// duration, completion time) and how it ran (utilisation, throughput, per
// configuration throughput, hardware and software versions). Records are
// versioned: `schema_version` is written with each and checked on read.
#ifndef SCHEDMATE_HISTORY_RECORD_H_
#define SCHEDMATE_HISTORY_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/facts.h"
#include "core/json.h"
#include "core/status.h"

namespace schedmate {

inline constexpr int kHistorySchemaVersion = 1;

struct ConfigThroughput {
  std::string gpu_type;
  int32_t num_gpus = 0;
  int64_t batch_size = 0;
  double throughput = 0;  // samples/s
};

struct HistoryRecord {
  std::string job_id;  // unique key
  std::string name, user;
  int64_t submit_time_s = 0;
  int64_t completed_at_s = 0;  // queries "as of" t see only completed_at_s < t
  int64_t duration_s = 0;
  EndReason end_reason = EndReason::kUnknown;
  int32_t num_gpus = 0;
  std::string gpu_type;
  std::optional<double> sm_util, mem_util, throughput;
  std::string throughput_unit;
  std::vector<ConfigThroughput> per_config;
  std::string hardware_versions, software_versions;  // free text, e.g. "driver 550.54; cuda 12.4"
  std::string snapshot_hash;
  std::string metadata_json;  // the WorkloadMetadata as JSON
  std::vector<float> fingerprint;
  int schema_version = kHistorySchemaVersion;
};

// The record without its fingerprint (stored apart, as raw floats).
Json RecordToJson(const HistoryRecord& r);
// Errors name `where` and the field; a newer schema version is refused.
Result<HistoryRecord> RecordFromJson(const Json& j, const std::string& where);

Result<EndReason> ParseEndReason(std::string_view name);

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_RECORD_H_
