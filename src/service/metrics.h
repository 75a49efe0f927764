// The service's metrics, rendered in the Prometheus text exposition format
// (version 0.0.4) for GET /metrics: requests and their latency per endpoint
// and status, extraction latency, advise-cache hits, the fallback ratio of
// estimates, queue depth and refusals per channel, store errors.
// Thread safety: every method is safe from any thread.
#ifndef SCHEDMATE_SERVICE_METRICS_H_
#define SCHEDMATE_SERVICE_METRICS_H_

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace schedmate {

// Cumulative histogram over fixed upper bounds in seconds.
class LatencyHistogram {
 public:
  static constexpr std::array<double, 12> kBounds = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                     0.05,   0.1,   0.25,   0.5,   1,    5};
  void Observe(double seconds);
  // Appends `name`_bucket/_sum/_count lines with `labels` ("" or `a="b",…`).
  void Render(const std::string& name, const std::string& labels, std::string* out) const;

 private:
  std::array<int64_t, kBounds.size() + 1> counts_{};  // the last: above every bound
  double sum_ = 0;
  int64_t count_ = 0;
};

class ServiceMetrics {
 public:
  void CountRequest(const std::string& endpoint, int status, double seconds);
  void ObserveExtraction(double seconds);
  void CountAdviseCache(bool hit);
  void CountEstimate(bool fallback);
  void CountRefusal(const std::string& channel, const std::string& reason);
  void CountStoreError();

  // Gauges read when rendering: channel name → (depth, capacity).
  using QueueDepths = std::function<std::vector<std::pair<std::string, std::pair<size_t, size_t>>>()>;
  std::string Render(const QueueDepths& queues) const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, int64_t> requests_;
  std::map<std::pair<std::string, int>, LatencyHistogram> latency_;
  LatencyHistogram extraction_;
  int64_t cache_hits_ = 0, cache_misses_ = 0;
  int64_t estimates_ = 0, fallbacks_ = 0;
  std::map<std::pair<std::string, std::string>, int64_t> refusals_;
  int64_t store_errors_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_METRICS_H_
