// packaging/grafana/vrecon.json queries only what /metrics serves: every vrecon_* name in its
// queries is a family RenderMetrics declares, and every label it selects or groups by is one
// those families carry (docs/metrics.md).
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "src/serve/metrics_text.h"
#include "tests/support/cli_runner.h"

namespace vrecon::serve {
namespace {

std::set<std::string> Matches(const std::string& text, const std::regex& re, int group = 1) {
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.insert((*it)[group]);
  return out;
}

TEST(GrafanaDashboardTest, QueriesOnlyMetricsAndLabelsThatAreServed) {
  const std::string dashboard =
      testing::ReadText(std::string(VRECON_FIXTURES_DIR) + "/../packaging/grafana/vrecon.json");
  ASSERT_FALSE(dashboard.empty());
  // The queries: panels' "expr" and the variable's "definition", JSON-escaped quotes and all.
  std::string queries;
  for (const std::string& q : Matches(dashboard, std::regex(R"re("(expr|definition)": "((?:[^"\\]|\\.)*)")re"), 2))
    queries += q + "\n";
  ASSERT_FALSE(queries.empty());

  std::string exposition;
  SourceStatus source;
  source.source = "vc01";
  MetricsSnapshot snapshot;
  snapshot.sources = {source};
  snapshot.capacity = std::make_shared<const std::vector<CapacityMetric>>();
  RenderMetrics(snapshot, 0, &exposition);
  const std::set<std::string> families = Matches(exposition, std::regex(R"(# TYPE (\S+) )"));

  const std::set<std::string> used = Matches(queries, std::regex(R"(\b(vrecon_[a-z0-9_]+))"));
  EXPECT_GE(used.size(), 18u) << "the dashboard covers the estate, a VM, the sources and capacity";
  for (const std::string& name : used) EXPECT_EQ(families.count(name), 1u) << name << " is not served on /metrics";

  const std::set<std::string> labels = {
      "vm",   "vm_key",   "vm_source", "guest_machine", "host_source", "host_counter", "process",
      "code", "severity", "source",    "kind",          "scope",       "name",         "key"};
  std::set<std::string> selected = Matches(queries, std::regex(R"(([a-z_]+)=\\")"));
  for (const std::string& by : Matches(queries, std::regex(R"(by \(([a-z_, ]+)\))"))) {
    for (const std::string& l : Matches(by, std::regex(R"(([a-z_]+))"))) selected.insert(l);
  }
  for (const std::string& l : Matches(dashboard, std::regex(R"(\{\{([a-z_]+)\}\})"))) selected.insert(l);
  for (const std::string& l : Matches(queries, std::regex(R"(label_values\([a-z_]+, ([a-z_]+)\))"))) selected.insert(l);
  EXPECT_FALSE(selected.empty());
  for (const std::string& l : selected) EXPECT_EQ(labels.count(l), 1u) << "label " << l << " is not on /metrics";
}

}  // namespace
}  // namespace vrecon::serve
