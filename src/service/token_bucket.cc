#include "service/token_bucket.h"

#include <algorithm>
#include <cmath>

namespace schedmate {

TokenBucket::TokenBucket(double rate_per_s, double burst, const Clock& clock)
    : rate_per_s_(rate_per_s), burst_(burst), clock_(clock), tokens_(burst), last_ns_(clock.MonotonicNs()) {}

void TokenBucket::Refill() {
  int64_t now = clock_.MonotonicNs();
  tokens_ = std::min(burst_, tokens_ + (now - last_ns_) * 1e-9 * rate_per_s_);
  last_ns_ = now;
}

bool TokenBucket::TryTake() {
  std::lock_guard<std::mutex> lock(mu_);
  Refill();
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

int TokenBucket::RetryAfterS() {
  std::lock_guard<std::mutex> lock(mu_);
  Refill();
  return std::max(1, static_cast<int>(std::ceil((1 - tokens_) / rate_per_s_)));
}

}  // namespace schedmate
