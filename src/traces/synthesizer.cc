#include "traces/synthesizer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/random.h"
#include "traces/trace_stats.h"

namespace schedmate {
namespace {

constexpr double kHelios6Months = 181 * 24;  // 2020-04-01 .. 2020-09-28

ClusterProfile Make(std::string name, std::string citation, double mean_s,
                    double median_s, double max_s, double mean_gpus,
                    int32_t max_gpus, double complete, double cancel,
                    double fail, double gpu_jobs, double hours,
                    std::string rate_note) {
  ClusterProfile p;
  p.name = std::move(name);
  p.citation = std::move(citation);
  p.mean_duration_s = mean_s;
  p.median_duration_s = median_s;
  p.max_duration_s = max_s;
  p.mean_gpus = mean_gpus;
  p.median_gpus = 1;
  p.max_gpus = max_gpus;
  p.complete_rate = complete;
  p.cancel_rate = cancel;
  p.fail_rate = fail;
  p.jobs_per_hour = gpu_jobs / hours;
  p.rate_note = std::move(rate_note);
  return p;
}

// Mean of a log-normal(mu, sigma) truncated to values below `max_s`.
double TruncatedMean(double mu, double sigma, double max_s) {
  double z = (std::log(max_s) - mu) / sigma;
  return std::exp(mu + sigma * sigma / 2) * NormalCdf(z - sigma) / NormalCdf(z);
}

// Log-normal (mu, sigma), truncated at max_s, with median `median` and mean
// `mean` (sigma by bisection, since truncation lowers the mean).
std::pair<double, double> LogNormalParams(double median, double mean,
                                          double max_s) {
  double mu = std::log(std::max(median, 1.0));
  if (mean <= median) return {mu, 1e-6};
  double lo = 1e-6, hi = 6;
  for (int i = 0; i < 200; ++i) {
    double mid = (lo + hi) / 2;
    (TruncatedMean(mu, mid, max_s) < mean ? lo : hi) = mid;
  }
  return {mu, (lo + hi) / 2};
}

// Stratified uniforms: one in each of n equal strata, shuffled.
std::vector<double> StratifiedUniforms(size_t n, Rng& rng) {
  std::vector<double> u(n);
  for (size_t i = 0; i < n; ++i)
    u[i] = (static_cast<double>(i) + rng.Uniform()) / static_cast<double>(n);
  rng.Shuffle(u);
  return u;
}

// One duration per quantile stratum of the truncated log-normal: a random
// point in each stratum, except in the top 1 % of strata, which get the
// stratum's conditional mean — a heavy tail's mean rests on those few
// values, and random points there make the sample mean unstable.
std::vector<int64_t> SampleDurations(const ClusterProfile& p, size_t n,
                                     Rng& rng) {
  double max_s = p.max_duration_s > 0 ? p.max_duration_s : 1e12;
  const auto params = LogNormalParams(p.median_duration_s, p.mean_duration_s, max_s);
  const double mu = params.first, sigma = params.second;
  double f_max = NormalCdf((std::log(max_s) - mu) / sigma);
  // E[X; X below the q-quantile] of the untruncated law.
  auto partial = [&](double q) {
    double m = std::exp(mu + sigma * sigma / 2);
    if (q <= 0) return 0.0;
    if (q >= 1) return m;
    return m * NormalCdf(NormalQuantile(q) - sigma);
  };
  std::vector<int64_t> out;
  out.reserve(n);
  const size_t tail_from = n - std::max<size_t>(1, n / 100);
  for (double u : StratifiedUniforms(n, rng)) {
    size_t stratum = std::min(n - 1, static_cast<size_t>(u * n));
    double d;
    if (stratum >= tail_from) {
      double qa = f_max * stratum / n, qb = f_max * (stratum + 1) / n;
      d = (partial(qb) - partial(qa)) / (qb - qa);
    } else {
      double q = std::clamp(u * f_max, 1e-12, 1 - 1e-12);
      d = std::exp(mu + sigma * NormalQuantile(q));
    }
    out.push_back(std::clamp<int64_t>(std::llround(d), 1, static_cast<int64_t>(max_s)));
  }
  return out;
}

// P(gpus = 2^k): p1 for k = 0, the rest geometric with ratio r.
std::vector<double> GpuPmf(double p1, double r, int kmax) {
  std::vector<double> pmf(kmax + 1, 0.0);
  pmf[0] = kmax == 0 ? 1.0 : p1;
  double z = 0;
  for (int k = 1; k <= kmax; ++k) z += std::pow(r, k - 1);
  for (int k = 1; k <= kmax; ++k) pmf[k] = (1 - p1) * std::pow(r, k - 1) / z;
  return pmf;
}

double PmfMean(const std::vector<double>& pmf) {
  double m = 0;
  for (size_t k = 0; k < pmf.size(); ++k) m += pmf[k] * std::ldexp(1.0, k);
  return m;
}

std::vector<double> FitGpuPmf(double mean, double p1, int32_t max_gpus) {
  int kmax = 0;
  while ((2 << kmax) <= max_gpus) ++kmax;
  if (kmax == 0) return {1.0};
  // The smallest reachable mean (all non-single jobs on 2 GPUs) is 2 - p1.
  p1 = std::clamp(p1, 0.5, 1.0);
  if (mean < 2 - p1) p1 = std::clamp(2 - mean, 0.5, 1.0);
  double lo = -20, hi = 10;  // log r
  for (int i = 0; i < 200; ++i) {
    double mid = (lo + hi) / 2;
    (PmfMean(GpuPmf(p1, std::exp(mid), kmax)) < mean ? lo : hi) = mid;
  }
  return GpuPmf(p1, std::exp((lo + hi) / 2), kmax);
}

// A job name in the style of real traces ("bert_squad_ft_3f2a"): a model,
// a dataset, a task and a short project tag, so names of different projects
// are sometimes alike, as in Helios, without all being alike.
std::string ProjectName(int64_t project, uint64_t seed) {
  static const char* const kModels[] = {
      "resnet50", "bert", "gpt2", "vit", "llama", "t5", "yolov5", "unet",
      "deberta", "clip", "dlrm", "convnext", "mobilenet", "effnet", "sd"};
  static const char* const kData[] = {"imagenet", "coco", "squad", "pile",
                                      "c4", "laion", "cifar", "wiki", "alpaca",
                                      "criteo"};
  static const char* const kTask[] = {"train", "ft", "pretrain", "eval", "sweep", "debug"};
  Rng r(seed * 1000003 + static_cast<uint64_t>(project));
  char tag[8];
  std::snprintf(tag, sizeof(tag), "%04x", static_cast<unsigned>(r.Below(65536)));
  return std::string(kModels[r.Below(15)]) + "_" + kData[r.Below(10)] + "_" +
         kTask[r.Below(6)] + "_" + tag;
}

// Inverse-CDF draw from a categorical pmf.
size_t Categorical(const std::vector<double>& pmf, double u) {
  double acc = 0;
  for (size_t k = 0; k < pmf.size(); ++k) {
    acc += pmf[k];
    if (u < acc) return k;
  }
  return pmf.size() - 1;
}

// n arrival times in [0, span) from a Poisson process modulated by a
// 24-hour profile (conditioned on n arrivals they are i.i.d.).
std::vector<int64_t> SampleArrivals(size_t n, double span_s,
                                    const std::vector<double>& hourly,
                                    Rng& rng) {
  size_t hours = static_cast<size_t>(std::ceil(span_s / 3600.0));
  std::vector<double> cum(hours + 1, 0.0);
  for (size_t h = 0; h < hours; ++h) {
    double width = std::min(3600.0, span_s - 3600.0 * h);
    cum[h + 1] = cum[h] + hourly[h % 24] * width;
  }
  std::vector<int64_t> t;
  t.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    double x = rng.Uniform() * cum[hours];
    size_t h = std::upper_bound(cum.begin(), cum.end(), x) - cum.begin() - 1;
    h = std::min(h, hours - 1);
    double within = (x - cum[h]) / hourly[h % 24];
    t.push_back(static_cast<int64_t>(3600.0 * h + within));
  }
  std::sort(t.begin(), t.end());
  return t;
}

}  // namespace

const std::array<double, 24>& VenusHourlyProfile() {
  // GPU-job submissions per hour of day (UTC+8 as recorded), normalised to a
  // mean of 1, summed over 2020-04-01..09-28 from Lucid's
  // simulation/data/Venus/cluster_throughput.csv (125,214 GPU jobs).
  static const std::array<double, 24> kProfile = {
      0.897, 0.658, 0.600, 0.384, 0.268, 0.205, 0.187, 0.224,
      0.374, 0.796, 1.295, 1.474, 1.164, 1.299, 1.559, 1.656,
      1.734, 1.733, 1.282, 1.313, 1.345, 1.364, 1.149, 1.038};
  return kProfile;
}

const std::vector<ClusterProfile>& BuiltinProfiles() {
  static const std::vector<ClusterProfile> kProfiles = [] {
    const std::string acme = "AcmeTrace data/cluster_summary.csv, row ";
    const std::string helios =
        "HeliosArtifact helios_cluster_summary.csv, row ";
    const std::string hmax =
        "; max run time from the Acme summary's Helios row; max GPUs = the "
        "largest power of two within the cluster";
    std::vector<ClusterProfile> v;
    v.push_back(Make("seren", acme + "Seren", 1414.335, 122, 1209604, 5.68,
                     1024, 0.497, 0.075, 0.429, 663813, 184 * 24,
                     "663,813 GPU jobs over Mar-Aug 2023 (~184 days)"));
    v.push_back(Make("kalos", acme + "Kalos", 1259.689, 124, 625740, 26.77,
                     1024, 0.541, 0.062, 0.397, 19907, 123 * 24,
                     "19,907 GPU jobs over May-Aug 2023 (~123 days; span "
                     "assumed)"));
    v.push_back(Make("philly", acme + "Philly", 18006.055, 874, 4240676,
                     1.928, 128, 0.604, 0.090, 0.305, 112956, 137 * 24,
                     "112,956 jobs over 2017-08-07..12-22 (~137 days)"));
    v.push_back(Make("helios", acme + "Helios", 6651.681, 206, 4320009, 3.716,
                     2048, 0.624, 0.221, 0.155, 1580464, kHelios6Months,
                     "1,580,464 GPU jobs over 181 days (4 clusters)"));
    v.push_back(Make("venus", helios + "Venus" + hmax, 13040.598, 204,
                     4320009, 6.736, 512, 0.526, 0.272, 0.202, 125303,
                     kHelios6Months, "125,303 GPU jobs over 181 days"));
    v.push_back(Make("earth", helios + "Earth" + hmax, 5130.609, 234,
                     4320009, 2.101, 512, 0.735, 0.136, 0.129, 427148,
                     kHelios6Months, "427,148 GPU jobs over 181 days"));
    v.push_back(Make("saturn", helios + "Saturn" + hmax, 5252.927, 124,
                     4320009, 4.01, 2048, 0.582, 0.272, 0.145, 698896,
                     kHelios6Months, "698,896 GPU jobs over 181 days"));
    v.push_back(Make("uranus", helios + "Uranus" + hmax, 9163.725, 280,
                     4320009, 4.038, 2048, 0.607, 0.201, 0.192, 329117,
                     kHelios6Months, "329,117 GPU jobs over 181 days"));
    return v;
  }();
  return kProfiles;
}

Result<ClusterProfile> FindProfile(std::string_view name) {
  std::string names;
  for (const auto& p : BuiltinProfiles()) {
    if (p.name == name) return p;
    names += (names.empty() ? "" : ", ") + p.name;
  }
  return NotFound("no built-in cluster profile '" + std::string(name) +
                  "' (have: " + names + ")");
}

double CalibrationRow::RelativeError() const {
  if (target == 0) return generated == 0 ? 0 : 1;
  return (generated - target) / target;
}

std::string CalibrationReport::ToText() const {
  std::string out = "statistic              target     generated   rel.err\n";
  char buf[160];
  for (const auto& r : rows) {
    std::snprintf(buf, sizeof(buf), "%-20s %10.3f  %12.3f  %+7.1f%%\n",
                  r.stat.c_str(), r.target, r.generated,
                  100 * r.RelativeError());
    out += buf;
  }
  std::snprintf(buf, sizeof(buf), "span %.1f h", span_s / 3600);
  out += buf;
  if (offered_load > 0) {
    std::snprintf(buf, sizeof(buf), ", offered load %.2f", offered_load);
    out += buf;
  }
  out += "\n";
  return out;
}

Result<Trace> SynthesizeTrace(const ClusterProfile& p, const SynthOptions& o,
                              CalibrationReport* report) {
  if (o.jobs <= 0 || o.jobs > 50'000'000)
    return InvalidArgument("jobs must be in 1..50,000,000");
  if (o.target_load > 0 && o.cluster_gpus <= 0)
    return InvalidArgument("a target load needs the cluster's GPU count");
  std::vector<double> hourly(VenusHourlyProfile().begin(),
                             VenusHourlyProfile().end());
  if (!o.hourly_profile.empty()) {
    if (o.hourly_profile.size() != 24 ||
        *std::min_element(o.hourly_profile.begin(), o.hourly_profile.end()) <= 0)
      return InvalidArgument("hourly profile needs 24 positive weights");
    hourly = o.hourly_profile;
  }
  Rng rng(o.seed);
  const size_t n = static_cast<size_t>(o.jobs);
  int32_t max_gpus = p.max_gpus;
  if (o.max_gpus_cap > 0) max_gpus = std::min(max_gpus, o.max_gpus_cap);
  std::vector<int64_t> durations = SampleDurations(p, n, rng);
  std::vector<double> gpu_pmf = FitGpuPmf(p.mean_gpus, o.single_gpu_share, max_gpus);
  double total = p.complete_rate + p.fail_rate + p.cancel_rate;
  std::vector<double> state_pmf = {p.complete_rate / total, p.fail_rate / total,
                                   p.cancel_rate / total};
  const EndState kStates[] = {EndState::kCompleted, EndState::kFailed,
                              EndState::kCancelled};

  // GPU counts per job (exact marginal), then projects: order jobs by GPU
  // count and a noisy log-duration key and cut the order into runs of
  // geometric length, never across GPU counts; a run is one project (same
  // user, name and GPU count; correlated durations).
  std::vector<double> gpu_u = StratifiedUniforms(n, rng);
  std::vector<double> state_u = StratifiedUniforms(n, rng);
  std::vector<int32_t> gpus(n);
  for (size_t i = 0; i < n; ++i) gpus[i] = 1 << Categorical(gpu_pmf, gpu_u[i]);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> key(n);
  for (size_t i = 0; i < n; ++i)
    key[i] = std::log(static_cast<double>(durations[i])) +
             o.project_noise * rng.Normal();
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return gpus[a] != gpus[b] ? gpus[a] < gpus[b] : key[a] < key[b];
  });
  std::vector<JobSpec> jobs(n);
  double stop = 1.0 / std::max(1.0, o.jobs_per_project);
  int64_t project = 0;
  std::string project_user;
  for (size_t pos = 0; pos < n; ++pos) {
    size_t i = order[pos];
    if (pos == 0 || gpus[i] != gpus[order[pos - 1]] || rng.Uniform() < stop) {
      ++project;
      double uu = rng.Uniform();
      project_user = "user" + std::to_string(static_cast<int>(
                                  uu * uu * std::max(1, o.users)));
    }
    JobSpec& j = jobs[i];
    j.user = project_user;
    j.name = ProjectName(project, o.seed);
    j.gpus = gpus[i];
    j.duration_s = durations[i];
    j.state = kStates[Categorical(state_pmf, state_u[i])];
  }
  rng.Shuffle(jobs);

  double demand = 0;
  for (const auto& j : jobs) demand += static_cast<double>(j.duration_s) * j.gpus;
  double span_s;
  if (o.target_load > 0) {
    span_s = demand / (o.cluster_gpus * o.target_load);
  } else {
    double rate = o.jobs_per_hour > 0 ? o.jobs_per_hour : p.jobs_per_hour;
    span_s = static_cast<double>(n) / rate * 3600.0;
  }
  span_s = std::max(span_s, 1.0);
  std::vector<int64_t> arrivals = SampleArrivals(n, span_s, hourly, rng);
  int64_t first = arrivals.front();
  for (size_t i = 0; i < n; ++i) {
    jobs[i].submit_s = arrivals[i] - first;
    jobs[i].id = "syn-" + std::to_string(i + 1);
  }

  Trace trace;
  trace.source = "synthetic:" + p.name + ":seed=" + std::to_string(o.seed);
  trace.format = "synthetic";
  trace.synthetic = true;
  trace.jobs = std::move(jobs);

  if (report) {
    TraceStats s = ComputeTraceStats(trace);
    double target_rate = o.jobs_per_hour > 0 ? o.jobs_per_hour : p.jobs_per_hour;
    report->rows = {
        {"mean_duration_s", p.mean_duration_s, s.mean_duration_s},
        {"median_duration_s", p.median_duration_s, s.median_duration_s},
        {"mean_gpus", p.mean_gpus, s.mean_gpus},
        {"median_gpus", p.median_gpus, s.median_gpus},
        {"complete_rate", state_pmf[0], s.complete_rate},
        {"fail_rate", state_pmf[1], s.fail_rate},
        {"cancel_rate", state_pmf[2], s.cancel_rate},
    };
    if (o.target_load <= 0)
      report->rows.push_back({"jobs_per_hour", target_rate,
                              static_cast<double>(n) / (span_s / 3600.0)});
    report->span_s = span_s;
    if (o.cluster_gpus > 0)
      report->offered_load = demand / (o.cluster_gpus * span_s);
  }
  return trace;
}

}  // namespace schedmate
