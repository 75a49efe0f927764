#include "policies/sia/perf_model.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "policies/sia/bounded_minimizer.h"

namespace schedmate::sia {

double PredictComputeTime(const PerfParams& p, double atomic_bsz) { return p.alpha_c + p.beta_c * atomic_bsz; }

double PredictNetworkTime(const PerfParams& p, int nodes, int replicas) {
  // goodput.py:239-253: the slowest link decides; 1e-8 when no link is used.
  double alpha = 1e-8, beta = 1e-8;
  if (nodes > 1) alpha = p.alpha_n, beta = p.beta_n;
  else if (replicas > 1) alpha = p.alpha_r, beta = p.beta_r;
  return alpha + beta * std::max(replicas - 2.0, 1e-8);
}

double PredictStepTime(const PerfParams& p, double compute_s, double network_s) {
  return std::exp(std::log(std::pow(compute_s, p.gamma) + std::pow(network_s, p.gamma)) / p.gamma);
}

namespace {

constexpr double kFloor = 1e-8;  // Pollux's lower bound of every positive term.

// Optimisation variables: log of the six positive terms, then gamma.
PerfParams FromVars(const std::vector<double>& z) {
  return {std::exp(z[0]), std::exp(z[1]), std::exp(z[2]), std::exp(z[3]), std::exp(z[4]), std::exp(z[5]), z[6]};
}

double Objective(const PerfParams& p, const std::vector<PerfObservation>& obs) {
  double e1 = 0, e2 = 0;
  for (const auto& o : obs) {
    double compute = PredictComputeTime(p, o.atomic_bsz);
    double step = PredictStepTime(p, compute, PredictNetworkTime(p, o.nodes, o.replicas));
    double d1 = std::log(compute) - std::log(std::max(o.step_s - o.sync_s, kFloor));
    double d2 = std::log(step) - std::log(o.step_s);
    e1 += d1 * d1, e2 += d2 * d2;
  }
  double n = static_cast<double>(obs.size());
  double reg1 = 1e-3 * (p.gamma - 1) * (p.gamma - 1);
  double reg2 = 1e-2 * (std::pow(p.beta_n / p.alpha_n, 2) + std::pow(p.beta_r / p.alpha_r, 2));
  return std::sqrt(e1 / n) + std::sqrt(e2 / n) + reg1 + reg2;
}

void Fix(std::vector<double>& z, std::vector<double>& lo, std::vector<double>& hi, int i, double value) {
  z[i] = lo[i] = hi[i] = value;
}

}  // namespace

PerfParams FitPerfParams(const std::vector<PerfObservation>& obs) {
  // goodput.py:168-173: start and bounds.
  std::vector<double> z = {std::log(1e-1), std::log(1e-2), std::log(1e-1), std::log(1e-2),
                           std::log(1e-1), std::log(1e-2), 1.0 + 1e-3};
  std::vector<double> lo(7, std::log(kFloor)), hi(7, std::log(1e6));
  lo[6] = 1.0, hi[6] = 10.0;
  std::set<int> batches;
  bool multi_node = false, multi_gpu_one_node = false, over_two = false;
  double compute_sum = 0;
  for (const auto& o : obs) {
    batches.insert(o.atomic_bsz);
    multi_node |= o.nodes > 1;
    multi_gpu_one_node |= o.nodes == 1 && o.replicas > 1;
    over_two |= o.replicas > 2;
    compute_sum += std::max(o.step_s - o.sync_s, kFloor);
  }
  // goodput.py:174-193: hold the terms the data cannot identify.
  if (batches.size() == 1) Fix(z, lo, hi, 0, std::log(compute_sum / obs.size() / 2));
  if (!multi_node) Fix(z, lo, hi, 2, std::log(kFloor)), Fix(z, lo, hi, 3, std::log(kFloor));
  if (!multi_gpu_one_node) Fix(z, lo, hi, 4, std::log(kFloor)), Fix(z, lo, hi, 5, std::log(kFloor));
  if (!over_two) Fix(z, lo, hi, 3, std::log(kFloor)), Fix(z, lo, hi, 5, std::log(kFloor));
  auto f = [&](const std::vector<double>& v) { return Objective(FromVars(v), obs); };
  PerfParams p = FromVars(MinimizeInBox(f, z, lo, hi));
  if (!multi_node) {
    // goodput.py:203-206: inter-node is at least as slow as intra-node.
    p.alpha_n = std::max(p.alpha_n, p.alpha_r * 1.1);
    p.beta_n = std::max(p.beta_n, p.beta_r * 1.1);
  }
  return p;
}

}  // namespace schedmate::sia
