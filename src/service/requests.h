// The service's request bodies: JSON objects parsed into typed requests.
// Every field is checked before anything runs — unknown fields (a typo),
// missing or mistyped ones and values out of range are errors naming the
// field, so a bad request never reaches a component or the store.
// Outside input: fuzz/fuzz_service_requests.cc runs these parsers.
#ifndef SCHEDMATE_SERVICE_REQUESTS_H_
#define SCHEDMATE_SERVICE_REQUESTS_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "core/status.h"
#include "failure/recovery.h"
#include "failure/root_cause.h"
#include "history/record.h"

namespace schedmate {

// POST /v1/advise
struct AdviseRequest {
  std::string repo;                // a directory under an allowed root
  std::string rev;                 // "": the working tree; else a git revision of `repo`
  std::string cmd;                 // the job's launch command
  std::string workdir;             // inside the repository ("": its root)
  std::optional<int64_t> as_of_s;  // submit time; history completed later is invisible (default now)
  int k = 3;
  double min_score = 0.80;
  std::string job_id;  // the scheduler's id, which ties this job's answers together (dashboard); may be ""
};

// A log given by path (under an allowed root) or inline (at most the body limit).
struct LogRequest {
  std::string path;
  std::optional<std::string> text;
};

// POST /v1/track
struct TrackRequest {
  LogRequest log;
  int samples = 10;
  bool offsets = false;
  std::string job_id;  // as for advise
};

// POST /v1/diagnose
struct DiagnoseRequest {
  LogRequest log;
  int context = 500;
  bool offsets = false;
  JobContext job;  // for the recovery plan (advice only: nothing is executed)
};

// POST /v1/jobs/events: what an agent beside the cluster manager learned of
// its jobs (`schedmate agent slurm --report-to`), so the dashboard shows the
// cluster's jobs beside the ones this service answered. The parts are the
// components' own JSON (advice, progress report, diagnosis); the dashboard's
// book keeps only their known fields, each string cut (recent_jobs.h).
struct JobEvent {
  enum class Kind { kAdvice, kProgress, kFailure };
  std::string job_id;
  Kind kind = Kind::kAdvice;
  Json request = Json::object();  // advice: cmd, workdir, repo
  Json body = Json::object();     // advice {metadata, estimate}, the progress report, or the diagnosis
  LineWindow located;             // failure: the lines located around the root cause
};
struct JobEventsRequest {
  std::string source;  // who reports ("agent slurm@host"), for the log
  std::vector<JobEvent> events;
};
inline constexpr size_t kMaxJobEvents = 200;
inline constexpr size_t kMaxLocatedLines = 64;

// POST /v1/history: a finished job. Its metadata comes from `repo` + `cmd`
// (as `schedmate history add` extracts it) unless the record carries a
// fingerprint and its metadata (the `history export` format).
struct HistoryWriteRequest {
  HistoryRecord record;
  std::string repo, rev, cmd, workdir;
  bool needs_extraction() const { return record.fingerprint.empty(); }
};

// The body as a JSON object; a syntax error or a non-object is an error.
Result<Json> ParseRequestBody(std::string_view body);

// On error `*bad_field` names the field at fault ("" when the body as a whole).
Result<AdviseRequest> ParseAdviseRequest(const Json& body, std::string* bad_field);
Result<TrackRequest> ParseTrackRequest(const Json& body, std::string* bad_field);
Result<DiagnoseRequest> ParseDiagnoseRequest(const Json& body, std::string* bad_field);
Result<HistoryWriteRequest> ParseHistoryWriteRequest(const Json& body, std::string* bad_field);
Result<JobEventsRequest> ParseJobEventsRequest(const Json& body, std::string* bad_field);

// A GET's query: only `known` parameters, and "limit" (when given) an
// integer in [1, 1000]; returns the limit or `default_limit`. On error
// `*bad_field` names the parameter.
Result<int64_t> ParseQueryLimit(const std::map<std::string, std::string>& query,
                                std::initializer_list<std::string_view> known, int64_t default_limit,
                                std::string* bad_field);

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_REQUESTS_H_
