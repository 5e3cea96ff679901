#include "adapters/perfmon/pdh_csv_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace vrecon::perfmon {
namespace {

void AppendQuoted(std::string* out, const std::string& cell) {
  out->push_back('"');
  for (char c : cell) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

}  // namespace

std::string FormatHeader(const TimeZone& zone, const std::vector<std::string>& counter_paths) {
  std::string out;
  AppendQuoted(&out, "(PDH-CSV 4.0) (" + zone.name + ")(" + std::to_string(zone.bias_minutes) + ")");
  for (const std::string& p : counter_paths) {
    out.push_back(',');
    AppendQuoted(&out, p);
  }
  out += "\r\n";
  return out;
}

std::string FormatTimestamp(const LocalTime& t) {
  char b[40];
  std::snprintf(b, sizeof b, "%02d/%02d/%04d %02d:%02d:%02d.%03d", t.month, t.day, t.year, t.hour, t.minute, t.second,
                t.millisecond);
  return b;
}

std::string FormatValue(double v) {
  if (!std::isfinite(v)) return " ";
  char b[64];
  auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

std::string FormatRow(const LocalTime& t, const std::vector<std::optional<double>>& values) {
  std::string out;
  out.reserve(32 + values.size() * 12);
  AppendQuoted(&out, FormatTimestamp(t));
  for (const auto& v : values) {
    out.push_back(',');
    AppendQuoted(&out, v ? FormatValue(*v) : std::string(" "));
  }
  out += "\r\n";
  return out;
}

}  // namespace vrecon::perfmon
