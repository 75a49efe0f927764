// Durable guard state for actions on a cluster: how many nodes were isolated
// in the last hour, how often a job was restarted and when. Every process and
// every agent replica that shares a ledger sees the same limits, because the
// check and the record are one atomic step in the shared store (SQLite or
// Redis, in history/), never a count in one process's memory.
//
// The ledger is also the audit trail: a reservation is granted only together
// with its audit record, and nothing is executed unless its audit record is
// durably written first (the caller appends the intent, then acts).
#ifndef SCHEDMATE_CORE_GUARD_LEDGER_H_
#define SCHEDMATE_CORE_GUARD_LEDGER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/status.h"

namespace schedmate {

// One limit on a scope of events: "isolate" (cluster-wide) or
// "restart/<job>" (per job).
struct GuardLimit {
  std::string scope;
  int max_events = 0;       // at most this many events in the window
  int64_t window_ms = 0;    // 0: the window is all time (a cap per job)
  int64_t cooldown_ms = 0;  // at least this long after the scope's last event
};

struct GuardDecision {
  bool granted = false;
  std::string why;  // the limit that refused, in words; empty when granted
};

// Says which limit refuses one more event, given the scope's event times
// (ascending, milliseconds); empty when the limit allows it. Shared by every
// ledger so they refuse in the same words.
std::string RefusalReason(const GuardLimit& limit, const std::vector<int64_t>& events_ms, int64_t now_ms);

class GuardLedger {
 public:
  virtual ~GuardLedger() = default;
  // Atomically: when `limit` allows one more event at `now_ms`, records it
  // and `audit` (durably, before returning) and grants; otherwise records
  // nothing and says why. A store error is an error, never a grant.
  virtual Result<GuardDecision> Reserve(const GuardLimit& limit, int64_t now_ms, const Json& audit) = 0;
  // Durably appends one audit record.
  virtual Status Audit(const Json& record) = 0;
  // The newest `limit` audit records, oldest first.
  virtual Result<std::vector<Json>> AuditTrail(size_t limit) = 0;
  virtual std::string Describe() const = 0;
};

// In one process's memory: for unit tests and the simulator, never for a
// live cluster (the CLI always uses a durable ledger).
class MemoryGuardLedger final : public GuardLedger {
 public:
  Result<GuardDecision> Reserve(const GuardLimit& limit, int64_t now_ms, const Json& audit) override;
  Status Audit(const Json& record) override;
  Result<std::vector<Json>> AuditTrail(size_t limit) override;
  std::string Describe() const override { return "memory"; }

 private:
  std::map<std::string, std::vector<int64_t>> events_ms_;
  std::vector<Json> audit_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_GUARD_LEDGER_H_
