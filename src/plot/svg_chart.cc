#include "plot/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <vector>

namespace schedmate {
namespace {

constexpr double kW = 800, kH = 480, kLeft = 80, kRight = 170, kTop = 40,
                 kBottom = 60;
const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                               "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string Num(double v) {
  char buf[32];
  double a = std::fabs(v);
  if (a > 0 && a < 1e-2) std::snprintf(buf, sizeof(buf), "%.0e", v);
  else std::snprintf(buf, sizeof(buf), "%.10g", std::round(v * 1000) / 1000);
  return buf;
}

// A tick label people read: 100k, 2.5M rather than 1e+05 (coordinates use Num).
std::string TickLabel(double v) {
  double a = std::fabs(v);
  char buf[32];
  if (a >= 1e9) std::snprintf(buf, sizeof(buf), "%gG", v / 1e9);
  else if (a >= 1e6) std::snprintf(buf, sizeof(buf), "%gM", v / 1e6);
  else if (a >= 1e4) std::snprintf(buf, sizeof(buf), "%gk", v / 1e3);
  else return Num(v);
  return buf;
}

// Series are told apart by dash as well as colour: overlapping curves stay visible.
const char* const kDashes[] = {"", "6,3", "2,2", "8,3,2,3", "1,3", "10,4", "4,4", "3,6"};

struct Axis {
  double lo, hi;
  bool log;
  double Map(double v, double a, double b) const {
    double t = log ? (std::log10(std::max(v, 1e-9)) - lo) / (hi - lo)
                   : (v - lo) / (hi - lo);
    return a + (b - a) * t;
  }
};

// Tick positions: decades on a log axis, 1-2-5 steps on a linear one.
std::vector<double> Ticks(const Axis& a) {
  std::vector<double> t;
  if (a.log) {
    int step = std::max(1, static_cast<int>((a.hi - a.lo) / 8) + 1);
    for (double e = a.lo; e <= a.hi + 1e-9; e += step) t.push_back(std::pow(10.0, e));
    return t;
  }
  double raw = (a.hi - a.lo) / 5;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag * (raw / mag <= 1 ? 1 : raw / mag <= 2 ? 2 : raw / mag <= 5 ? 5 : 10);
  for (double v = std::ceil(a.lo / step) * step; v <= a.hi + step * 1e-9; v += step)
    t.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  return t;
}

Axis MakeAxis(const LineChart& c, bool x_axis) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& s : c.series)
    for (double v : x_axis ? s.x : s.y) {
      if (x_axis && c.log_x && v <= 0) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  bool log = x_axis && c.log_x;
  if (log) {
    lo = std::floor(std::log10(lo));
    hi = std::ceil(std::log10(hi));
  } else if (!x_axis) {
    lo = std::min(lo, 0.0);
  }
  if (hi <= lo) hi = lo + 1;
  return {lo, hi, log};
}

}  // namespace

Series CdfSeries(std::string name, std::vector<double> v, size_t max_points) {
  Series s;
  s.name = std::move(name);
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  if (n == 0) return s;
  size_t step = std::max<size_t>(1, n / max_points);
  for (size_t i = 0; i < n; i += step) {
    s.x.push_back(v[i]);
    s.y.push_back(static_cast<double>(i + 1) / n);
  }
  if (s.x.back() != v.back() || s.y.back() != 1.0) {
    s.x.push_back(v.back());
    s.y.push_back(1.0);
  }
  return s;
}

std::string RenderSvg(const LineChart& c) {
  Axis xa = MakeAxis(c, true), ya = MakeAxis(c, false);
  const double x0 = kLeft, x1 = kW - kRight, y0 = kH - kBottom, y1 = kTop;
  std::string out;
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
                "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                kW, kH);
  out += buf;
  out += "<text x=\"" + Num(kW / 2) + "\" y=\"22\" text-anchor=\"middle\" "
         "font-size=\"15\">" + Escape(c.title) + "</text>\n";
  if (!c.subtitle.empty())
    out += "<text x=\"" + Num(kW / 2) + "\" y=\"38\" text-anchor=\"middle\" font-size=\"10\" fill=\"#555\">" +
           Escape(c.subtitle.substr(0, 160)) + "</text>\n";
  // Grid line plus label at each tick of both axes.
  auto grid = [&](double lx1, double ly1, double lx2, double ly2, double tx,
                  double ty, const char* anchor, double label) {
    std::snprintf(buf, sizeof(buf),
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                  "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"%s\">",
                  lx1, ly1, lx2, ly2, tx, ty, anchor);
    out += buf + TickLabel(label) + "</text>\n";
  };
  for (double v : Ticks(xa)) {
    double gx = xa.Map(v, x0, x1);
    grid(gx, y0, gx, y1, gx, y0 + 18, "middle", v);
  }
  for (double v : Ticks(ya)) {
    double gy = ya.Map(v, y0, y1);
    grid(x0, gy, x1, gy, x0 - 6, gy + 4, "end", v);
  }
  out += "<text x=\"" + Num((x0 + x1) / 2) + "\" y=\"" + Num(kH - 15) +
         "\" text-anchor=\"middle\">" + Escape(c.x_label) + "</text>\n";
  out += "<text transform=\"translate(18," + Num((y0 + y1) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + Escape(c.y_label) +
         "</text>\n";
  for (size_t k = 0; k < c.series.size(); ++k) {
    const Series& s = c.series[k];
    const char* color = kColors[k % 8];
    const char* dash = kDashes[k % 8];
    out += "<polyline fill=\"none\" stroke-width=\"1.6\" stroke=\"";
    out += color;
    if (*dash) out += std::string("\" stroke-dasharray=\"") + dash;
    out += "\" points=\"";
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (c.log_x && s.x[i] <= 0) continue;
      std::snprintf(buf, sizeof(buf), "%.1f,%.1f ", xa.Map(s.x[i], x0, x1),
                    ya.Map(s.y[i], y0, y1));
      out += buf;
    }
    out += "\"/>\n";
    double ly = kTop + 10 + 18 * k;
    std::snprintf(buf, sizeof(buf),
                  "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
                  "stroke=\"%s\" stroke-width=\"3\" stroke-dasharray=\"%s\"/>",
                  x1 + 12, ly, x1 + 32, ly, color, dash);
    out += buf;
    out += "<text x=\"" + Num(x1 + 38) + "\" y=\"" + Num(ly + 4) + "\">" +
           Escape(s.name) + "</text>\n";
  }
  out += "</svg>\n";
  return out;
}

Status WriteSvgFile(const LineChart& chart, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return NotFound(path + ": cannot create");
  out << RenderSvg(chart);
  if (!out) return Unavailable(path + ": write failed");
  return Status::Ok();
}

std::string RenderBarSvg(const BarChart& c) {
  // Value axis: 0 (or the lowest whisker) to the highest whisker.
  double lo = 0, hi = -INFINITY;
  for (const auto& s : c.series)
    for (size_t g = 0; g < s.values.size(); ++g) {
      const double v = s.values[g];
      if (!std::isfinite(v)) continue;
      const double e = g < s.errors.size() && std::isfinite(s.errors[g]) ? std::fabs(s.errors[g]) : 0;
      lo = std::min(lo, v - e);
      hi = std::max(hi, v + e);
    }
  if (std::isfinite(c.reference)) lo = std::min(lo, c.reference), hi = std::max(hi, c.reference);
  if (!std::isfinite(hi)) hi = 1;
  if (hi <= lo) hi = lo + 1;
  hi += (hi - lo) * 0.05;
  const Axis ya{lo, hi, false};
  const bool slanted = c.groups.size() > 4;
  const double bottom = slanted ? kBottom + 60 : kBottom;
  const double height = kH + (slanted ? 60 : 0);
  const double x0 = kLeft, x1 = kW - kRight, y0 = height - bottom, y1 = kTop;
  std::string out;
  char buf[320];
  std::snprintf(buf, sizeof(buf),
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
                "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                kW, height);
  out += buf;
  out += "<text x=\"" + Num(kW / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" + Escape(c.title) +
         "</text>\n";
  if (!c.subtitle.empty())
    out += "<text x=\"" + Num(kW / 2) + "\" y=\"38\" text-anchor=\"middle\" font-size=\"10\" fill=\"#555\">" +
           Escape(c.subtitle.substr(0, 160)) + "</text>\n";
  for (double v : Ticks(ya)) {
    const double gy = ya.Map(v, y0, y1);
    std::snprintf(buf, sizeof(buf),
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n<text x=\"%.1f\" "
                  "y=\"%.1f\" text-anchor=\"end\">",
                  x0, gy, x1, gy, x0 - 6, gy + 4);
    out += buf + TickLabel(v) + "</text>\n";
  }
  out += "<text transform=\"translate(18," + Num((y0 + y1) / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         Escape(c.y_label) + "</text>\n";
  const size_t groups = std::max<size_t>(1, c.groups.size()), bars = std::max<size_t>(1, c.series.size());
  const double slot = (x1 - x0) / static_cast<double>(groups), bar = slot * 0.8 / static_cast<double>(bars);
  const double base = ya.Map(std::max(lo, 0.0), y0, y1);
  for (size_t g = 0; g < c.groups.size(); ++g) {
    const double gx = x0 + slot * (static_cast<double>(g) + 0.5);
    std::string label = c.groups[g].size() > 28 ? c.groups[g].substr(0, 27) + "…" : c.groups[g];
    if (slanted)
      std::snprintf(buf, sizeof(buf), "<text transform=\"translate(%.1f,%.1f) rotate(-35)\" text-anchor=\"end\">", gx,
                    y0 + 14);
    else
      std::snprintf(buf, sizeof(buf), "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", gx, y0 + 18);
    out += buf + Escape(label) + "</text>\n";
  }
  for (size_t k = 0; k < c.series.size(); ++k) {
    const BarSeries& s = c.series[k];
    const char* color = kColors[k % 8];
    for (size_t g = 0; g < s.values.size() && g < c.groups.size(); ++g) {
      const double v = s.values[g];
      if (!std::isfinite(v)) continue;
      const double bx = x0 + slot * static_cast<double>(g) + slot * 0.1 + bar * static_cast<double>(k);
      const double top = ya.Map(v, y0, y1);
      std::snprintf(buf, sizeof(buf),
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %s</title>"
                    "</rect>\n",
                    bx, std::min(top, base), std::max(0.5, bar - 1), std::fabs(base - top), color,
                    Escape(s.name).c_str(), Num(v).c_str());
      out += buf;
      const double e = g < s.errors.size() && std::isfinite(s.errors[g]) ? std::fabs(s.errors[g]) : 0;
      if (e > 0) {
        const double cx = bx + (bar - 1) / 2, ya0 = ya.Map(v - e, y0, y1), ya1 = ya.Map(v + e, y0, y1);
        std::snprintf(buf, sizeof(buf),
                      "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" stroke=\"#222\" fill=\"none\"/>\n",
                      cx, ya0, ya1, cx - 3, ya0, cx + 3, cx - 3, ya1, cx + 3);
        out += buf;
      }
    }
    const double ly = kTop + 10 + 18 * static_cast<double>(k);
    std::snprintf(buf, sizeof(buf), "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"10\" fill=\"%s\"/>", x1 + 12,
                  ly - 6, color);
    out += buf;
    out += "<text x=\"" + Num(x1 + 32) + "\" y=\"" + Num(ly + 4) + "\">" + Escape(s.name.substr(0, 22)) + "</text>\n";
  }
  if (std::isfinite(c.reference)) {
    const double ry = ya.Map(c.reference, y0, y1);
    std::snprintf(buf, sizeof(buf),
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" stroke-dasharray=\"5,4\"/>\n",
                  x0, ry, x1, ry);
    out += buf;
  }
  std::snprintf(buf, sizeof(buf), "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n", x0, base,
                x1, base);
  out += buf;
  out += "</svg>\n";
  return out;
}

Status WriteBarSvgFile(const BarChart& chart, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return NotFound(path + ": cannot create");
  out << RenderBarSvg(chart);
  if (!out) return Unavailable(path + ": write failed");
  return Status::Ok();
}

}  // namespace schedmate
