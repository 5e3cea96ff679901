// A SampleSink for the ETW reader tests: every value by "object(instance)\counter", with its
// row's interval, and the issues.
#ifndef VRECON_TESTS_ADAPTERS_ETW_SERIES_SINK_H_
#define VRECON_TESTS_ADAPTERS_ETW_SERIES_SINK_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "src/core/sample_sink.h"

namespace vrecon::testing {

struct SeriesSink : SampleSink {
  struct Point {
    TimeNs start, end;
    double value;
  };
  std::vector<SeriesKey> columns;
  std::map<std::string, std::vector<Point>> series;
  std::vector<ImportIssue> issues;
  int declarations = 0;

  Status DeclareColumns(const std::vector<SeriesKey>& c) override {
    columns = c;
    ++declarations;
    return Status::Ok();
  }
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override {
    EXPECT_EQ(values.size(), columns.size());
    for (size_t i = 0; i < values.size(); ++i) {
      const SeriesKey& k = columns[i];
      series[k.object + "(" + k.instance + ")\\" + k.counter].push_back({start, end, values[i]});
    }
    return Status::Ok();
  }
  void AddIssue(ImportIssue issue) override { issues.push_back(std::move(issue)); }

  std::vector<double> Values(const std::string& name) const {
    std::vector<double> v;
    if (auto it = series.find(name); it != series.end())
      for (const Point& p : it->second) v.push_back(p.value);
    return v;
  }
  bool HasIssue(const std::string& code) const {
    for (const ImportIssue& i : issues)
      if (i.code == code) return true;
    return false;
  }
};

// fixtures/etw/README.md's figures for sqlservr and w3wp in web01-cswitch.txt and
// web01-precise.csv, which hold the same runs. The dumper text also holds a DPC and an interrupt
// that took 150 us of sqlservr's first second (`with_deferred`).
inline void ExpectWeb01Processes(const SeriesSink& sink, bool with_deferred) {
  const std::vector<double> sql = sink.Values("ETW Process(sqlservr:1200)\\% Processor Time");
  ASSERT_EQ(sql.size(), 2u);
  EXPECT_DOUBLE_EQ(sql[0], with_deferred ? 79.985 : 80);
  EXPECT_EQ(sql[1], 50);
  EXPECT_EQ(sink.Values("ETW Process(sqlservr:1200)\\% Bottleneck Time"), (std::vector<double>{60, 50}));
  EXPECT_EQ(sink.Values("ETW Process(sqlservr:1200)\\% Queue Time"), (std::vector<double>{5, 0}));
  EXPECT_EQ(sink.Values("ETW Process(sqlservr:1200)\\Queued Switch-ins/sec"), (std::vector<double>{1, 0}));
  EXPECT_EQ(sink.Values("ETW Process(w3wp:2400)\\% Processor Time"), (std::vector<double>{40, 0}));
  EXPECT_EQ(sink.Values("ETW Process(w3wp:2400)\\% Queue Time"), (std::vector<double>{30, 0}));
}

// Every series of `a` is in `b`, row for row (intervals and values, missing alike); returns the
// series only `b` has.
inline std::set<std::string> ExpectWithin(const SeriesSink& a, const SeriesSink& b) {
  for (const auto& [name, points] : a.series) {
    auto it = b.series.find(name);
    if (it == b.series.end()) {
      ADD_FAILURE() << name << " only in the first";
      continue;
    }
    EXPECT_EQ(points.size(), it->second.size()) << name;
    for (size_t i = 0; i < std::min(points.size(), it->second.size()); ++i) {
      const auto &p = points[i], &q = it->second[i];
      EXPECT_EQ(p.start, q.start) << name << " row " << i;
      EXPECT_EQ(p.end, q.end) << name << " row " << i;
      if (std::isnan(p.value) || std::isnan(q.value)) {
        EXPECT_EQ(std::isnan(p.value), std::isnan(q.value)) << name << " row " << i;
      } else {
        EXPECT_EQ(p.value, q.value) << name << " row " << i;
      }
    }
  }
  std::set<std::string> only_b;
  for (const auto& [name, points] : b.series)
    if (!a.series.contains(name)) only_b.insert(name);
  return only_b;
}

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_ADAPTERS_ETW_SERIES_SINK_H_
