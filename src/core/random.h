// A small deterministic random source: the same seed gives the same numbers
// on every platform and standard library (std::*_distribution do not
// promise that). SplitMix64 core; normal deviates by inverse CDF.
#ifndef SCHEDMATE_CORE_RANDOM_H_
#define SCHEDMATE_CORE_RANDOM_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace schedmate {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed ^ 0x9E3779B97F4A7C15ull) {}

  uint64_t NextU64();
  // Uniform in [0, 1).
  double Uniform();
  // Uniform in [lo, hi).
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform(); }
  // Uniform integer in [0, n). REQUIRES: n > 0.
  uint64_t Below(uint64_t n);
  // Standard normal.
  double Normal();
  // -1 or +1 with equal probability.
  int Sign() { return (NextU64() >> 63) ? 1 : -1; }

  template <typename T>
  void Shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[Below(i)]);
  }

 private:
  uint64_t state_;
};

// FNV-1a of `s`: a hash that never changes across runs or platforms, for
// seeding per-item randomness by id (independent of visiting order).
uint64_t StableHash(std::string_view s);

// Inverse of the standard normal CDF (Acklam; |relative error| < 1.2e-9).
// REQUIRES: 0 < p < 1.
double NormalQuantile(double p);
// Standard normal CDF.
double NormalCdf(double x);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_RANDOM_H_
