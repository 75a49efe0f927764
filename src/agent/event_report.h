// `schedmate agent slurm --report-to URL`: what the agent learned of its jobs
// in one poll, sent to a `schedmate serve` as POST /v1/jobs/events, so the
// service's dashboard shows the cluster's jobs (their advice with provenance
// and matches, live progress, failure reports with the located lines and the
// recovery the agent planned or took) beside the ones it answered itself.
//
// The page is for people: a report that cannot be delivered within its
// deadline is said (the caller prints it) and dropped, and never slows or
// stops the agent's own work.
#ifndef SCHEDMATE_AGENT_EVENT_REPORT_H_
#define SCHEDMATE_AGENT_EVENT_REPORT_H_

#include <string>
#include <vector>

#include "core/json.h"
#include "core/status.h"

namespace schedmate {

// The body of POST /v1/jobs/events for one poll's agent events (the objects
// `agent slurm --json` prints): advise → advice, progress → progress, an
// ended job's diagnosis → failure (with the recovery event of the same job
// folded in). `events` is empty when none of them is worth reporting.
// Job ids are the history's: "slurm-<id>".
Json JobEventsBody(const std::vector<Json>& agent_events, const std::string& source);

struct ReportOptions {
  std::string base_url;  // the service, e.g. http://127.0.0.1:8470
  std::string token;     // its bearer token (POST /v1/jobs/events needs it)
  double deadline_s = 2;  // per poll's report, connect and answer included
};

class EventReporter {
 public:
  explicit EventReporter(ReportOptions options) : options_(std::move(options)) {}
  // Sends one poll's events; OK when there was nothing to send.
  Status Report(const std::vector<Json>& agent_events, const std::string& source) const;

 private:
  ReportOptions options_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_AGENT_EVENT_REPORT_H_
