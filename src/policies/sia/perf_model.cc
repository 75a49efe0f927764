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

}  // namespace

PerfFitObjective::PerfFitObjective(const std::vector<PerfObservation>& obs) {
  for (const auto& o : obs) {
    int link = o.nodes > 1 ? 2 : o.replicas > 1 ? 4 : -1;
    points_.push_back({double(o.atomic_bsz), std::max(o.replicas - 2.0, kFloor), link,
                       std::log(std::max(o.step_s - o.sync_s, kFloor)), std::log(o.step_s)});
  }
}

double PerfFitObjective::operator()(const std::vector<double>& z, std::vector<double>* grad) const {
  double e[6];
  for (int i = 0; i < 6; ++i) e[i] = std::exp(z[i]);
  double gamma = z[6];
  double e1 = 0, e2 = 0, d_e1[2] = {0, 0}, d_e2[7] = {0, 0, 0, 0, 0, 0, 0};
  for (const FitPoint& pt : points_) {
    double beta_part = e[1] * pt.atomic_bsz, compute = e[0] + beta_part;
    double alpha_n = pt.link < 0 ? kFloor : e[pt.link];
    double beta_n = (pt.link < 0 ? kFloor : e[pt.link + 1]) * pt.network_x, network = alpha_n + beta_n;
    double log_c = std::log(compute), log_n = std::log(network);
    double cg = std::exp(gamma * log_c), ng = std::exp(gamma * log_n), sum = cg + ng;
    double log_sum = std::log(sum), log_step = log_sum / gamma;
    double d1 = log_c - pt.log_compute, d2 = log_step - pt.log_step;
    e1 += d1 * d1, e2 += d2 * d2;
    if (!grad) continue;
    double wc = cg / sum, wn = ng / sum;  // d log step / d log compute, d log step / d log network
    d_e1[0] += d1 * e[0] / compute, d_e1[1] += d1 * beta_part / compute;
    d_e2[0] += d2 * wc * e[0] / compute, d_e2[1] += d2 * wc * beta_part / compute;
    if (pt.link >= 0) d_e2[pt.link] += d2 * wn * alpha_n / network, d_e2[pt.link + 1] += d2 * wn * beta_n / network;
    d_e2[6] += d2 * ((wc * log_c + wn * log_n) / gamma - log_sum / (gamma * gamma));
  }
  double n = static_cast<double>(points_.size());
  double rms1 = std::sqrt(e1 / n), rms2 = std::sqrt(e2 / n);
  double ratio_n = std::exp(2 * (z[3] - z[2])), ratio_r = std::exp(2 * (z[5] - z[4]));
  double value = rms1 + rms2 + 1e-3 * (gamma - 1) * (gamma - 1) + 1e-2 * (ratio_n + ratio_r);
  if (!grad) return value;
  // d sqrt(E / n) = (dE / 2) / (n sqrt(E / n)); dE carries the factor 2 left out above.
  double k1 = rms1 > 0 ? 1 / (n * rms1) : 0, k2 = rms2 > 0 ? 1 / (n * rms2) : 0;
  std::vector<double>& g = *grad;
  g.assign(7, 0.0);
  for (int i = 0; i < 7; ++i) g[i] = k2 * d_e2[i];
  g[0] += k1 * d_e1[0], g[1] += k1 * d_e1[1];
  g[2] -= 2e-2 * ratio_n, g[3] += 2e-2 * ratio_n;
  g[4] -= 2e-2 * ratio_r, g[5] += 2e-2 * ratio_r;
  g[6] += 2e-3 * (gamma - 1);
  return value;
}

namespace {

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
  PerfParams p = FromVars(MinimizeInBox(PerfFitObjective(obs), z, lo, hi));
  if (!multi_node) {
    // goodput.py:203-206: inter-node is at least as slow as intra-node.
    p.alpha_n = std::max(p.alpha_n, p.alpha_r * 1.1);
    p.beta_n = std::max(p.beta_n, p.beta_r * 1.1);
  }
  return p;
}

}  // namespace schedmate::sia
