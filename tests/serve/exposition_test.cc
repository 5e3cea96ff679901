// The Prometheus text format as /metrics writes it: escaping, numbers, missing values left out,
// process ranking; and --listen parsing with the loopback rule.
#include "src/serve/exposition.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "src/serve/listen_address.h"
#include "src/serve/metrics_text.h"
#include "tests/serve/exposition_parse.h"

namespace vrecon::serve {
namespace {

TEST(ExpositionTest, EscapesLabelValuesAndHelpText) {
  std::string out;
  Exposition e(&out);
  e.Family("x_total", "counter", "a \\ b\nc \"q\"");
  e.Sample({{"process", "C:\\a \"b\"\nc"}}, 2);
  e.Sample({}, 0.1);
  EXPECT_EQ(out,
            "# HELP x_total a \\\\ b\\nc \"q\"\n# TYPE x_total counter\n"
            "x_total{process=\"C:\\\\a \\\"b\\\"\\nc\"} 2\nx_total 0.1\n");
}

TEST(ExpositionTest, WritesShortestExactNumbersAndPrometheusSpecials) {
  std::string out;
  Exposition e(&out);
  e.Family("v", "gauge", "h");
  e.Sample({}, 60.50000000000001);
  e.Sample({}, 1793615100);
  e.Sample({}, std::numeric_limits<double>::quiet_NaN());
  e.Sample({}, std::numeric_limits<double>::infinity());
  e.Sample({}, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(out, "# HELP v h\n# TYPE v gauge\nv 60.50000000000001\nv 1793615100\nv NaN\nv +Inf\nv -Inf\n");
}

VmMetrics Vm(const std::string& name) {
  VmMetrics m;
  m.vm.vm = name;
  m.vm.vm_key = "vsphere:vc01/" + name;
  m.window.start = 1'793'615'100LL * kNsPerSec;
  m.window.end = m.window.start + 300 * kNsPerSec;
  m.window.guest_cov = m.window.host_cov = 1;
  return m;
}

TEST(MetricsTextTest, LeavesOutWhatTheStoreDoesNotHave) {
  MetricsSnapshot s;
  VmMetrics a = Vm("A01");
  a.window.guest_util = 50;
  a.window.host_util = 60;
  a.window.w = 1.2;
  a.window.flags = {{"ready-high", Severity::kWarning, "m"}, {"ready-high", Severity::kWarning, "m2"}};
  ProcessAggregate& proc = a.processes.emplace_back();  // a guest value, no corrected one
  proc.name = "p";
  proc.n_guest = 1;
  proc.sum_guest = 10;
  a.dispatch = {{"vsphere", 150.0, std::nullopt}};
  s.vms = {a, Vm("B02")};
  SourceStatus src;
  src.source = "vc01";
  src.kind = "vcenter";
  src.failures = 2;
  src.last_attempt = 5 * kNsPerSec;
  s.sources = {src};
  std::string out;
  RenderMetrics(s, 0.5, &out);
  const auto p = testing::ParseExposition(out);
  const std::string a_labels = "{vm=\"A01\",vm_key=\"vsphere:vc01/A01\"}";
  const std::string b_labels = "{vm=\"B02\",vm_key=\"vsphere:vc01/B02\"}";
  EXPECT_EQ(p.samples.at("vrecon_vms"), 2);
  EXPECT_EQ(p.samples.at("vrecon_vm_w_ratio" + a_labels), 1.2);
  EXPECT_EQ(p.samples.at("vrecon_vm_window_start_timestamp_seconds" + b_labels), 1793615100);
  EXPECT_EQ(p.samples.count("vrecon_vm_w_ratio" + b_labels), 0u) << "missing is not zero";
  EXPECT_EQ(p.samples.count("vrecon_vm_vcpus" + a_labels), 0u);
  EXPECT_EQ(p.samples.at("vrecon_vm_flags{vm=\"A01\",vm_key=\"vsphere:vc01/A01\",code=\"ready-high\",severity="
                         "\"warning\"}"),
            2);
  EXPECT_EQ(p.samples.at("vrecon_process_guest_cpu_percent{vm=\"A01\",vm_key=\"vsphere:vc01/A01\",process=\"p\"}"), 10);
  EXPECT_EQ(p.samples.count("vrecon_process_corrected_cpu_percent{vm=\"A01\",vm_key=\"vsphere:vc01/A01\",process="
                            "\"p\"}"),
            0u);
  EXPECT_DOUBLE_EQ(
      p.samples.at("vrecon_vm_wait_per_dispatch_mean_seconds{vm=\"A01\",vm_key=\"vsphere:vc01/A01\",source="
                   "\"vsphere\"}"),
      150e-6);
  EXPECT_EQ(p.samples.at("vrecon_source_up{source=\"vc01\",kind=\"vcenter\"}"), 0);
  EXPECT_EQ(p.samples.at("vrecon_source_consecutive_failures{source=\"vc01\",kind=\"vcenter\"}"), 2);
  EXPECT_EQ(p.samples.count("vrecon_source_last_success_timestamp_seconds{source=\"vc01\",kind=\"vcenter\"}"), 0u);
  EXPECT_EQ(p.types.at("vrecon_source_rows_total"), "counter");
  // Each family is declared once, before its samples.
  for (const auto& [family, type] : p.types) {
    EXPECT_EQ(out.find("# TYPE " + family + " "), out.rfind("# TYPE " + family + " ")) << family;
  }
}

TEST(ListenAddressTest, ParsesHostsAndPortsAndKnowsLoopback) {
  auto a = ParseListenAddress("127.0.0.1:9477");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 9477);
  EXPECT_TRUE(a->loopback);
  a = ParseListenAddress("[::1]:0");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "::1");
  EXPECT_TRUE(a->loopback);
  EXPECT_TRUE(ParseListenAddress("localhost:80")->loopback);
  EXPECT_TRUE(ParseListenAddress("127.8.9.1:80")->loopback);
  EXPECT_FALSE(ParseListenAddress("0.0.0.0:9477")->loopback);
  EXPECT_FALSE(ParseListenAddress("[::]:9477")->loopback);
  EXPECT_FALSE(ParseListenAddress("db01.example:9477")->loopback);
  for (const char* bad : {"9477", ":9477", "127.0.0.1:", "127.0.0.1:70000", "127.0.0.1:x", "::1:9477", "[::1:9"}) {
    auto r = ParseListenAddress(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find(bad), std::string::npos) << r.status().message();
    }
  }
}

TEST(ListenAddressTest, BeyondLoopbackNeedsTlsOrConsent) {
  const ListenAddress any = *ParseListenAddress("0.0.0.0:9477");
  EXPECT_FALSE(CheckExposure(any, false, false).ok());
  EXPECT_NE(CheckExposure(any, false, false).message().find("--insecure-listen"), std::string::npos);
  EXPECT_TRUE(CheckExposure(any, true, false).ok());
  EXPECT_TRUE(CheckExposure(any, false, true).ok());
  EXPECT_TRUE(CheckExposure(*ParseListenAddress("127.0.0.1:1"), false, false).ok());
}

}  // namespace
}  // namespace vrecon::serve
