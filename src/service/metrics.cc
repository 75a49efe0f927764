#include "service/metrics.h"

#include <cstdio>

namespace schedmate {
namespace {

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string Labels(const std::string& labels, const std::string& extra) {
  if (labels.empty()) return "{" + extra + "}";
  return "{" + labels + "," + extra + "}";
}

void Header(std::string* out, const char* name, const char* type, const char* help) {
  *out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

std::string EndpointLabels(const std::pair<std::string, int>& key) {
  return "endpoint=\"" + key.first + "\",status=\"" + std::to_string(key.second) + "\"";
}

}  // namespace

void LatencyHistogram::Observe(double seconds) {
  size_t i = 0;
  while (i < kBounds.size() && seconds > kBounds[i]) ++i;
  ++counts_[i];
  sum_ += seconds;
  ++count_;
}

void LatencyHistogram::Render(const std::string& name, const std::string& labels, std::string* out) const {
  int64_t cumulative = 0;
  for (size_t i = 0; i < kBounds.size(); ++i) {
    cumulative += counts_[i];
    *out += name + "_bucket" + Labels(labels, "le=\"" + Number(kBounds[i]) + "\"") + " " +
            std::to_string(cumulative) + "\n";
  }
  *out += name + "_bucket" + Labels(labels, "le=\"+Inf\"") + " " + std::to_string(count_) + "\n";
  std::string plain = labels.empty() ? "" : "{" + labels + "}";
  *out += name + "_sum" + plain + " " + Number(sum_) + "\n";
  *out += name + "_count" + plain + " " + std::to_string(count_) + "\n";
}

void ServiceMetrics::CountRequest(const std::string& endpoint, int status, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ++requests_[{endpoint, status}];
  latency_[{endpoint, status}].Observe(seconds);
}

void ServiceMetrics::ObserveExtraction(double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  extraction_.Observe(seconds);
}

void ServiceMetrics::CountAdviseCache(bool hit) {
  std::lock_guard<std::mutex> lock(mu_);
  ++(hit ? cache_hits_ : cache_misses_);
}

void ServiceMetrics::CountEstimate(bool fallback) {
  std::lock_guard<std::mutex> lock(mu_);
  ++estimates_;
  fallbacks_ += fallback;
}

void ServiceMetrics::CountRefusal(const std::string& channel, const std::string& reason) {
  std::lock_guard<std::mutex> lock(mu_);
  ++refusals_[{channel, reason}];
}

void ServiceMetrics::CountStoreError() {
  std::lock_guard<std::mutex> lock(mu_);
  ++store_errors_;
}

std::string ServiceMetrics::Render(const QueueDepths& queues) const {
  std::string out;
  std::lock_guard<std::mutex> lock(mu_);
  Header(&out, "schedmate_http_requests_total", "counter", "HTTP requests answered, by endpoint and status.");
  for (const auto& [key, n] : requests_)
    out += "schedmate_http_requests_total{" + EndpointLabels(key) + "} " + std::to_string(n) + "\n";
  Header(&out, "schedmate_http_request_duration_seconds", "histogram",
         "Time from the request's arrival to its answer, by endpoint and status.");
  for (const auto& [key, h] : latency_) h.Render("schedmate_http_request_duration_seconds", EndpointLabels(key), &out);
  Header(&out, "schedmate_extraction_duration_seconds", "histogram",
         "Advisor metadata extraction time (cache misses only).");
  extraction_.Render("schedmate_extraction_duration_seconds", "", &out);
  Header(&out, "schedmate_advise_cache_total", "counter", "Advise extractions answered from the cache or not.");
  out += "schedmate_advise_cache_total{result=\"hit\"} " + std::to_string(cache_hits_) + "\n";
  out += "schedmate_advise_cache_total{result=\"miss\"} " + std::to_string(cache_misses_) + "\n";
  Header(&out, "schedmate_estimates_total", "counter", "Duration estimates made (advise).");
  out += "schedmate_estimates_total " + std::to_string(estimates_) + "\n";
  Header(&out, "schedmate_estimate_fallbacks_total", "counter", "Estimates that fell back (no usable history match).");
  out += "schedmate_estimate_fallbacks_total " + std::to_string(fallbacks_) + "\n";
  Header(&out, "schedmate_estimate_fallback_ratio", "gauge", "Fallbacks / estimates (0 before any estimate).");
  out += "schedmate_estimate_fallback_ratio " + Number(estimates_ ? double(fallbacks_) / estimates_ : 0.0) + "\n";
  const auto depths = queues();
  Header(&out, "schedmate_queue_depth", "gauge", "Tasks waiting in each channel's work queue.");
  for (const auto& [name, depth] : depths)
    out += "schedmate_queue_depth{channel=\"" + name + "\"} " + std::to_string(depth.first) + "\n";
  Header(&out, "schedmate_queue_capacity", "gauge", "Capacity of each channel's work queue.");
  for (const auto& [name, depth] : depths)
    out += "schedmate_queue_capacity{channel=\"" + name + "\"} " + std::to_string(depth.second) + "\n";
  Header(&out, "schedmate_channel_refusals_total", "counter",
         "Requests a channel refused at once, by reason (rate_limited: 429, queue_full: 503).");
  for (const auto& [key, n] : refusals_)
    out += "schedmate_channel_refusals_total{channel=\"" + key.first + "\",reason=\"" + key.second + "\"} " +
           std::to_string(n) + "\n";
  Header(&out, "schedmate_store_errors_total", "counter", "History store operations that failed.");
  out += "schedmate_store_errors_total " + std::to_string(store_errors_) + "\n";
  return out;
}

}  // namespace schedmate
