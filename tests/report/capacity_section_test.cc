// The report's Capacity section (src/report/html_capacity_section.cc, capacity_report.cc) from
// answers made by hand: what each table lists and in what order, and what a forecast chart draws.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "src/report/capacity_report.h"
#include "src/report/html_report.h"

namespace vrecon::report {
namespace {

constexpr int64_t kDay0 = 20362;  // 2025-10-01

CapacityEntity Host() {
  CapacityEntity e;
  e.scope = "host";
  e.name = e.key = "esx01";
  e.source = "esxtop";
  e.capacity_cores = 8;
  e.usable_cores = 7.2;
  e.demand_p95_cores = 5;
  e.time_remaining_days = 100;
  e.history_days = 40;
  e.model = "level, trend";
  for (int64_t d = 0; d < 40; ++d) e.history.push_back({kDay0 + d, 4 + 0.03 * static_cast<double>(d)});
  for (int64_t d = 40; d < 40 + 365; ++d) {
    const double mid = 4 + 0.03 * static_cast<double>(d);
    e.forecast.push_back({kDay0 + d, mid - 0.5, mid, mid + 0.5});
  }
  return e;
}

CapacityEntity Vm(const std::string& name, int vcpus, int recommended, std::optional<int> days_left) {
  CapacityEntity e;
  e.scope = "vm";
  e.name = e.label = name;
  e.key = "esxtop:" + name;
  e.host = "esx01";
  e.vcpus = vcpus;
  e.recommended_vcpus = recommended;
  e.time_remaining_days = days_left;
  e.demand_p95_cores = 0.5 * recommended;
  if (recommended < vcpus) e.flags.push_back({"fewer-vcpus", Severity::kInfo, "4 vCPUs, 1 would do"});
  if (recommended > vcpus) e.flags.push_back({"more-vcpus", Severity::kWarning, "needs more"});
  return e;
}

std::string Render(const CapacityReport& c, const std::map<std::string, std::string>& links) {
  std::ostringstream out;
  SvgDefs defs;
  {
    Sink s(out);
    WriteCapacitySection(s, c, links, HtmlOptions{}, &defs);
  }
  return out.str() + defs.Block();  // the legends are drawn from the page's shared parts
}

TEST(CapacitySectionTest, ListsHostsVmsToResizeAndGrowthDrivers) {
  CapacityReport c;
  c.as_of = (kDay0 + 40) * kNsPerDay;
  c.entities = {Host(), Vm("WEB02", 2, 3, 30), Vm("DB02", 4, 1, std::nullopt), Vm("APP03", 2, 2, std::nullopt)};
  c.entities[1].growth_drivers = {{"app", 0.55, 0.3}};
  const std::map<std::string, std::string> links = {{"esxtop:DB02", "#vm-0"}};

  EXPECT_EQ(HostsAndClusters(c).size(), 1u);
  const std::vector<const CapacityEntity*> resize = VmsToResize(c);
  ASSERT_EQ(resize.size(), 2u) << "APP03 keeps its size and does not run out";
  EXPECT_EQ(resize[0]->name, "WEB02") << "the one that runs out first";
  EXPECT_EQ(resize[1]->name, "DB02");

  const std::string html = Render(c, links);
  EXPECT_EQ(html.rfind("<section id=\"capacity\"><h2>Capacity</h2>", 0), 0u);
  EXPECT_NE(html.find("As of 2025-11-10T00:00:00Z."), std::string::npos);
  EXPECT_NE(html.find("<td>host</td><td>esx01</td><td>esxtop</td><td class=\"n\">8.0</td><td class=\"n\">7.2</td>"
                      "<td class=\"n\">5.00</td><td class=\"n\">100</td>"),
            std::string::npos);
  // The VM the report has a section for links to it; the others are named only.
  EXPECT_NE(html.find("<a href=\"#vm-0\">DB02</a>"), std::string::npos);
  EXPECT_NE(html.find("<tr><td>WEB02</td><td>esx01</td><td class=\"n\">2</td><td class=\"n\">3</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<code>fewer-vcpus</code> 4 vCPUs, 1 would do"), std::string::npos);
  EXPECT_EQ(html.find(">APP03<"), std::string::npos);
  EXPECT_NE(html.find("<td>WEB02</td><td>app</td><td class=\"n\">0.55</td><td class=\"n\">0.300</td>"),
            std::string::npos);

  // One chart: the history's line, the forecast's dashed line, its band as a shaded area with no
  // line of its own, and the usable capacity drawn across.
  const std::regex chart("<svg class=\"chart\"");
  EXPECT_EQ(std::distance(std::sregex_iterator(html.begin(), html.end(), chart), std::sregex_iterator()), 1);
  EXPECT_NE(html.find("<path class=\"line\" stroke=\"#1f77b4\""), std::string::npos);
  EXPECT_NE(html.find("<path class=\"line dash\" stroke=\"#d62728\""), std::string::npos);
  EXPECT_NE(html.find("<path class=\"env\" fill=\"#d62728\""), std::string::npos);
  EXPECT_EQ(html.find("<path class=\"line\" stroke=\"#d62728\""), std::string::npos);
  EXPECT_NE(html.find("<line class=\"thr\""), std::string::npos);
  EXPECT_NE(html.find("usable 7.2 cores"), std::string::npos);
}

TEST(CapacitySectionTest, SaysWhatIsMissing) {
  CapacityReport c;
  c.notes = {"no host-side CPU data (vSphere, esxtop or Hyper-V) to forecast from"};
  const std::string html = Render(c, {});
  EXPECT_NE(html.find("As of the end of the data."), std::string::npos);
  EXPECT_NE(html.find("<p class=\"note\">no host-side CPU data (vSphere, esxtop or Hyper-V) to forecast from.</p>"),
            std::string::npos);
  EXPECT_NE(html.find("No host or cluster with capacity data."), std::string::npos);
  EXPECT_NE(html.find("No VM needs another size"), std::string::npos);
  EXPECT_EQ(html.find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace vrecon::report
