// A token bucket: `rate_per_s` tokens a second up to `burst`; each request
// takes one. Time comes from the injected clock (monotonic).
// Thread safety: safe to call from several threads.
#ifndef SCHEDMATE_SERVICE_TOKEN_BUCKET_H_
#define SCHEDMATE_SERVICE_TOKEN_BUCKET_H_

#include <cstdint>
#include <mutex>

#include "core/clock.h"

namespace schedmate {

class TokenBucket {
 public:
  // REQUIRES: rate_per_s > 0, burst >= 1; `clock` outlives this. Starts full.
  TokenBucket(double rate_per_s, double burst, const Clock& clock);

  // Takes a token when one is there.
  bool TryTake();
  // Whole seconds until a token is there (at least 1), for Retry-After.
  int RetryAfterS();

 private:
  void Refill();

  const double rate_per_s_, burst_;
  const Clock& clock_;
  std::mutex mu_;
  double tokens_;
  int64_t last_ns_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_TOKEN_BUCKET_H_
