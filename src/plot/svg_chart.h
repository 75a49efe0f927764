// Line charts written as self-contained SVG files (no plotting toolchain
// needed): JCT CDFs and cluster time series, and grouped bars with error
// bars (one group per setting, one bar per run).
#ifndef SCHEDMATE_PLOT_SVG_CHART_H_
#define SCHEDMATE_PLOT_SVG_CHART_H_

#include <limits>
#include <string>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct Series {
  std::string name;
  std::vector<double> x, y;  // same length; x ascending
};

struct LineChart {
  std::string title;
  std::string subtitle;  // the setting (trace, cluster, load): a plot read alone says what it shows
  std::string x_label, y_label;
  bool log_x = false;
  std::vector<Series> series;
};

// Renders to an SVG document string.
std::string RenderSvg(const LineChart& chart);
Status WriteSvgFile(const LineChart& chart, const std::string& path);

struct BarSeries {
  std::string name;
  std::vector<double> values;  // one per group; NaN: no bar
  std::vector<double> errors;  // empty, or one per group: the whisker's half-length (NaN/0: none)
};

struct BarChart {
  std::string title, subtitle, y_label;
  std::vector<std::string> groups;  // x-axis categories (settings)
  std::vector<BarSeries> series;    // bars within each group (runs)
  // A dashed horizontal line across the plot (e.g. 1.0 for a ratio); NaN: none.
  double reference = std::numeric_limits<double>::quiet_NaN();
};

std::string RenderBarSvg(const BarChart& chart);
Status WriteBarSvgFile(const BarChart& chart, const std::string& path);

// An empirical CDF of `values` (at most `max_points` points).
Series CdfSeries(std::string name, std::vector<double> values,
                 size_t max_points = 400);

}  // namespace schedmate

#endif  // SCHEDMATE_PLOT_SVG_CHART_H_
