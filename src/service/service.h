// `schedmate serve`'s logic, apart from HTTP: each endpoint takes the
// request body (or query) and returns the reply — status, JSON body,
// Retry-After. The Advisor, Tracker and Failure Handler run on three
// channels (submit = advise, run = track, exit = diagnose and history
// writes), each a bounded queue with its own workers and rate limit
// (work_channel.h). Every request is parsed and checked in full — token,
// fields, paths under the allowed roots — before anything runs, so a refused
// request writes nothing. The service gives advice only: diagnose plans a
// recovery and never executes it.
// Thread safety: every endpoint method is safe to call from many threads.
#ifndef SCHEDMATE_SERVICE_SERVICE_H_
#define SCHEDMATE_SERVICE_SERVICE_H_

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "advisor/advisor_history.h"
#include "core/clock.h"
#include "core/json.h"
#include "history/store.h"
#include "service/advise_cache.h"
#include "service/allowed_roots.h"
#include "service/api_error.h"
#include "service/audit_reader.h"
#include "service/metrics.h"
#include "service/recent_jobs.h"
#include "service/requests.h"
#include "service/work_channel.h"

namespace schedmate {

struct AdviseJob;  // a checked advise request and its cache key (service.cc)

struct ServiceOptions {
  std::string history;  // a SQLite file or redis://…
  // The guard ledger's SQLite file, whose audit trail GET /v1/audit reads;
  // "": the history file when that is SQLite, none with Redis.
  std::string ledger;
  size_t recent_jobs = 256;              // jobs the dashboard's book keeps (recent_jobs.h)
  std::vector<std::string> allow_roots;  // where repositories and logs may be read
  // The bearer token mutating endpoints need; "": they are refused (401).
  std::string token;
  bool token_for_reads = false;  // also require it on advise/track/diagnose/history reads
  size_t max_body_bytes = size_t{1} << 20;
  int request_timeout_ms = 10000;
  ChannelOptions submit{"submit", 2, 512, 2000, 400};
  ChannelOptions run{"run", 1, 128, 500, 100};
  ChannelOptions exit{"exit", 1, 128, 500, 100};
  WorkChannel::BeforeTask before_task;  // test hook (work_channel.h)
  const Clock* clock = &SystemClock::Default();
  // Other writers (agents, replicas) may add records to a shared history:
  // at most this often the store's record count is checked, and the
  // fingerprint index rebuilt when it changed. 0: on every estimate; < 0: never.
  int64_t history_refresh_ms = 1000;
};

struct Reply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  int retry_after_s = 0;                                     // > 0: a Retry-After header
  std::vector<std::pair<std::string, std::string>> headers;  // more headers (the dashboard's security policy)
};

Reply ErrorReply(const ApiError& error);

class Service {
 public:
  // Fails only on bad options (a missing allowed root). A store that does
  // not open is retried on each request that needs it (/readyz says so).
  static Result<std::unique_ptr<Service>> Create(ServiceOptions options);
  ~Service();

  Reply Advise(const std::string& body);
  Reply Track(const std::string& body);
  Reply Diagnose(const std::string& body);
  Reply WriteHistory(const std::string& body);
  // Query: job_id (one record) or limit (the newest records, default 50).
  Reply ReadHistory(const std::map<std::string, std::string>& query);
  // The dashboard's reads. Jobs: `limit` (1–1000, 100) of the jobs this
  // process answered, newest first, each match with its history record's
  // summary. Audit: the newest `limit` (1–1000, 100) audit records, oldest first.
  Reply Jobs(const std::map<std::string, std::string>& query);
  // POST /v1/jobs/events: an agent's reports of its jobs, into the dashboard's book.
  Reply RecordJobEvents(const std::string& body);
  Reply Audit(const std::map<std::string, std::string>& query);
  Reply Health() const;
  Reply Ready();
  Reply Metrics() const;

  // "Authorization" header value → refusal, or nullopt when allowed.
  std::optional<ApiError> CheckToken(const std::string& authorization, bool mutating) const;
  ServiceMetrics& metrics() { return metrics_; }
  const ServiceOptions& options() const { return options_; }

 private:
  explicit Service(ServiceOptions options, AllowedRoots roots);

  // The store and its fingerprint index, opened on first need.
  Status EnsureStore();
  // Under store_mu_: rebuilds the index when others wrote to the store since
  // (options_.history_refresh_ms).
  void RefreshIndexIfOthersWrote();
  Reply AdviseWork(const AdviseJob& job);
  Result<Json> WriteHistoryWork(const HistoryWriteRequest& request, const std::string& repo_spec);
  // Queues `work` on `channel` and waits for its reply up to the time limit.
  Reply RunOn(WorkChannel& channel, std::function<Reply()> work);
  // Each match of each job's estimate gains "record": its history record's
  // summary (null when the store has none or is not open).
  void AddMatchedRecords(std::vector<Json>* jobs);

  const ServiceOptions options_;
  const AllowedRoots roots_;
  ServiceMetrics metrics_;
  AdviseCache cache_;
  RecentJobs jobs_;
  AuditReader audit_;
  std::mutex store_mu_;  // the store is one connection: one user at a time
  std::unique_ptr<HistoryStore> store_;
  std::unique_ptr<AdvisorHistory> history_;
  int64_t last_refresh_check_ms_ = -1;  // when RefreshIndexIfOthersWrote last counted
  std::string store_error_;
  // Declared last: destroyed first, so no worker runs while the rest goes.
  std::unique_ptr<WorkChannel> submit_, run_, exit_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_SERVICE_H_
