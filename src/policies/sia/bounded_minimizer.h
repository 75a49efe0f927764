// Minimises a smooth function of a few variables inside a box: projected
// gradient descent with Barzilai-Borwein steps and Armijo backtracking on a
// function that also returns its gradient. Stands in for scipy's bounded L-BFGS-B that
// Pollux/Sia call to fit the throughput model (see README.md).
#ifndef SCHEDMATE_POLICIES_SIA_BOUNDED_MINIMIZER_H_
#define SCHEDMATE_POLICIES_SIA_BOUNDED_MINIMIZER_H_

#include <functional>
#include <vector>

namespace schedmate::sia {

struct MinimizeOptions {
  int max_iterations = 2000;
  double tolerance = 1e-9;  // Stop when the objective improves by less (relative).
};

// Returns f(x) and, when `gradient` is non-null, writes ∇f(x) into it (the
// minimiser asks for the gradient only at accepted points).
using ObjectiveFn = std::function<double(const std::vector<double>& x, std::vector<double>* gradient)>;

// REQUIRES: x0, lower, upper of one size; lower[i] <= upper[i]. Variables with
// lower == upper stay fixed. Returns the best point found.
std::vector<double> MinimizeInBox(const ObjectiveFn& f,
                                  std::vector<double> x0, const std::vector<double>& lower,
                                  const std::vector<double>& upper, const MinimizeOptions& o = {});

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_BOUNDED_MINIMIZER_H_
