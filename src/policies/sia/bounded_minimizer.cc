#include "policies/sia/bounded_minimizer.h"

#include <algorithm>
#include <cmath>

namespace schedmate::sia {
namespace {

using Vec = std::vector<double>;

Vec Project(Vec x, const Vec& lo, const Vec& hi) {
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::clamp(x[i], lo[i], hi[i]);
  return x;
}

// The value at x and its gradient, zero along the fixed variables.
double ValueAndGradient(const ObjectiveFn& f, const Vec& x, const Vec& lo, const Vec& hi, Vec& g) {
  g.assign(x.size(), 0.0);
  double fx = f(x, &g);
  for (size_t i = 0; i < x.size(); ++i)
    if (lo[i] == hi[i]) g[i] = 0;
  return fx;
}

double Dot(const Vec& a, const Vec& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

Vec Step(const Vec& x, const Vec& g, double t, const Vec& lo, const Vec& hi) {
  Vec y = x;
  for (size_t i = 0; i < x.size(); ++i) y[i] -= t * g[i];
  return Project(y, lo, hi);
}

}  // namespace

Vec MinimizeInBox(const ObjectiveFn& f, Vec x, const Vec& lo, const Vec& hi, const MinimizeOptions& o) {
  x = Project(x, lo, hi);
  Vec g;
  double fx = ValueAndGradient(f, x, lo, hi, g);
  double step = 1e-2;
  for (int it = 0; it < o.max_iterations; ++it) {
    double t = step;
    Vec xn;
    double fn = fx;
    // Armijo backtracking along the projected path.
    for (; t > 1e-20; t *= 0.5) {
      xn = Step(x, g, t, lo, hi);
      fn = f(xn, nullptr);
      Vec d(x.size());
      for (size_t i = 0; i < x.size(); ++i) d[i] = x[i] - xn[i];
      if (fn <= fx - 1e-4 * Dot(g, d)) break;
    }
    if (t <= 1e-20 || !(fn < fx)) break;
    Vec gn, s(x.size()), y(x.size());
    ValueAndGradient(f, xn, lo, hi, gn);
    for (size_t i = 0; i < x.size(); ++i) s[i] = xn[i] - x[i], y[i] = gn[i] - g[i];
    double sy = Dot(s, y);
    step = sy > 0 ? std::clamp(Dot(s, s) / sy, 1e-12, 1e12) : 2 * t;
    bool converged = fx - fn <= o.tolerance * std::max(1.0, std::abs(fx));
    x = std::move(xn), fx = fn, g = std::move(gn);
    if (converged) break;
  }
  return x;
}

}  // namespace schedmate::sia
