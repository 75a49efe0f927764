// Order statistics shared by the simulator's metrics, trace statistics, the
// Tracker's steady state and the evaluations.
#ifndef SCHEDMATE_CORE_STATS_H_
#define SCHEDMATE_CORE_STATS_H_

#include <vector>

namespace schedmate {

// The q-th percentile (q in 0..100), linear between neighbours (numpy's default); 0 when empty.
double Percentile(std::vector<double> values, double q);

// The middle value (the mean of the two middle ones for an even count, as numpy); 0 when empty.
double Median(std::vector<double> values);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_STATS_H_
