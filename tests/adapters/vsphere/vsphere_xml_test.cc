// Parsing real vCenter 9.0.1 answers (fixtures/vsphere, Apache-2.0, ManageIQ) and the shapes
// govmomi's simulator sends.
#include "adapters/vsphere/vsphere_xml.h"

#include <gtest/gtest.h>

#include <map>

#include "adapters/vsphere/vsphere_units.h"
#include "tests/support/cli_runner.h"

namespace vrecon::vsphere {
namespace {

using vrecon::testing::Fixture;
using vrecon::testing::ReadText;

TEST(VsphereXmlTest, ServiceContentOfARealVcenter) {
  auto sc = ParseServiceContent(ReadText(Fixture("vsphere/vc901-service-content.xml")));
  ASSERT_TRUE(sc.ok()) << sc.status().message();
  EXPECT_EQ(sc->perf_manager.value, "PerfMgr");
  EXPECT_EQ(sc->session_manager.value, "SessionManager");
  EXPECT_EQ(sc->view_manager.value, "ViewManager");
  EXPECT_EQ(sc->setting.value, "VpxSettings");
  EXPECT_EQ(sc->full_name, "VMware vCenter Server 9.0.1 build-24957454");
}

TEST(VsphereXmlTest, PerfCountersResolveByName) {
  auto counters = ParsePerfCounters(ReadText(Fixture("vsphere/vc901-perfcounter-first40.xml")));
  ASSERT_TRUE(counters.ok()) << counters.status().message();
  auto id_of = [&](const std::string& name) {
    for (const CounterInfo& c : *counters)
      if (c.name == name) return c.key;
    return -1;
  };
  EXPECT_EQ(id_of("cpu.usage.average"), 2);
  EXPECT_EQ(id_of("cpu.ready.summation"), 12);
  EXPECT_EQ(id_of("cpu.used.summation"), 14);
  for (const CounterInfo& c : *counters) {
    if (c.key == 12) {
      EXPECT_EQ(c.unit_key, "millisecond");
    }
    // The statistics levels vCenter 9.0.1 gives: usage and ready 1, the reserved capacity 2, the
    // minimum and maximum rollups 4.
    const std::map<int, int> level = {{2, 1}, {12, 1}, {9, 2}, {3, 4}, {4, 4}};
    if (auto want = level.find(c.key); want != level.end()) {
      EXPECT_EQ(c.level, want->second) << c.name;
    }
  }
}

TEST(VsphereXmlTest, HistoricalIntervalsOfARealVcenter) {
  auto intervals = ParsePerfIntervals(ReadText(Fixture("vsphere/vc901-historical-interval.xml")));
  ASSERT_TRUE(intervals.ok()) << intervals.status().message();
  ASSERT_EQ(intervals->size(), 4u);
  const int sampling[] = {300, 1800, 7200, 86400};
  const int64_t length[] = {86400, 604800, 2592000, 31536000};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ((*intervals)[i].sampling_s, sampling[i]);
    EXPECT_EQ((*intervals)[i].length_s, length[i]);
    EXPECT_EQ((*intervals)[i].level, 1);
    EXPECT_TRUE((*intervals)[i].enabled);
  }
  EXPECT_EQ((*intervals)[0].name, "Past day");
}

TEST(VsphereXmlTest, HistoricalIntervalsNoneOrNonsense) {
  const std::string head =
      "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body>"
      "<RetrievePropertiesResponse xmlns=\"urn:vim25\"><returnval><propSet><name>historicalInterval</name><val>";
  const std::string tail =
      "</val></propSet></returnval></RetrievePropertiesResponse></soapenv:Body></soapenv:Envelope>";
  auto none = ParsePerfIntervals(head + tail);
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_TRUE(none->empty());
  auto zero = ParsePerfIntervals(head +
                                 "<PerfInterval><samplingPeriod>0</samplingPeriod><name>Past day</name>"
                                 "<length>86400</length><level>1</level><enabled>true</enabled></PerfInterval>" +
                                 tail);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.status().message().find("Past day"), std::string::npos) << zero.status().message();
  auto level9 = ParsePerfIntervals(head +
                                   "<PerfInterval><samplingPeriod>300</samplingPeriod><name>Past day</name>"
                                   "<length>86400</length><level>9</level><enabled>true</enabled></PerfInterval>" +
                                   tail);
  EXPECT_FALSE(level9.ok());
}

TEST(VsphereXmlTest, RecordedCsvQueryPerfMatchesAfterUnitConversion) {
  auto r = ParseQueryPerf(ReadText(Fixture("vsphere/vc901-queryperf-csv-vm1085.xml")));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 1u);
  const EntityMetrics& m = (*r)[0];
  EXPECT_EQ(m.entity.value, "vm-1085");
  ASSERT_EQ(m.ends.size(), 180u);
  EXPECT_EQ(FormatIso(m.ends.front(), false), "2026-05-05T18:41:00Z");
  EXPECT_EQ(FormatIso(m.ends.back(), false), "2026-05-05T19:40:40Z");
  EXPECT_EQ(m.intervals_s.front(), 20);
  EXPECT_TRUE(m.problems.empty());
  const MetricSeries* ready = nullptr;
  const MetricSeries* usage = nullptr;
  for (const MetricSeries& s : m.series) {
    if (s.counter_id == 12 && s.instance.empty()) ready = &s;
    if (s.counter_id == 2 && s.instance.empty()) usage = &s;
  }
  ASSERT_TRUE(ready && usage);
  // The recorded CSV: cpu.ready "" = 26,26,25,30,33,... ms per 20 s; cpu.usage "" = 171,164,...
  const double expect_ready[] = {26, 26, 25, 30, 33};
  const double expect_usage[] = {171, 164, 251, 217, 204};
  for (int i = 0; i < 5; ++i) {
    auto rv = Convert("cpu.ready.summation", ready->values[i], RawUnit::kMillisecond, m.intervals_s[i]);
    EXPECT_DOUBLE_EQ(rv->value, expect_ready[i] / 200.0);  // realtime: divide ms by 200 for %
    EXPECT_EQ(rv->unit, "percent");
    auto uv = Convert("cpu.usage.average", usage->values[i], RawUnit::kHundredthsPercent, 20);
    EXPECT_DOUBLE_EQ(uv->value, expect_usage[i] / 100.0);
  }
  EXPECT_DOUBLE_EQ(ready->values.back(), 24);
}

TEST(VsphereXmlTest, NormalFormatNewestFirstAndDroppedZeros) {
  // govmomi's simulator: normal format whatever was asked, newest first, zero values dropped
  // (so a series can be shorter than its timestamps), XMLSchema-instance:type prefixes.
  const std::string body =
      "<?xml version=\"1.0\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" "
      "xmlns:XMLSchema-instance=\"http://www.w3.org/2001/XMLSchema-instance\"><soapenv:Body>"
      "<QueryPerfResponse xmlns=\"urn:vim25\"><returnval XMLSchema-instance:type=\"PerfEntityMetric\">"
      "<entity type=\"VirtualMachine\">vm-42</entity>"
      "<sampleInfo><timestamp>2026-11-02T10:00:40Z</timestamp><interval>20</interval></sampleInfo>"
      "<sampleInfo><timestamp>2026-11-02T10:00:20Z</timestamp><interval>20</interval></sampleInfo>"
      "<value XMLSchema-instance:type=\"PerfMetricIntSeries\"><id><counterId>2</counterId><instance></instance></id>"
      "<value>500</value><value>400</value></value>"
      "<value XMLSchema-instance:type=\"PerfMetricIntSeries\"><id><counterId>12</counterId><instance>0</instance></id>"
      "<value>100</value></value>"
      "</returnval></QueryPerfResponse></soapenv:Body></soapenv:Envelope>";
  auto r = ParseQueryPerf(body);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const EntityMetrics& m = (*r)[0];
  ASSERT_EQ(m.ends.size(), 2u);
  EXPECT_LT(m.ends[0], m.ends[1]);
  ASSERT_EQ(m.series.size(), 1u);
  EXPECT_EQ(m.series[0].values, (std::vector<double>{400, 500}));
  ASSERT_EQ(m.problems.size(), 1u);
  EXPECT_NE(m.problems[0].find("never paired"), std::string::npos);
}

TEST(VsphereXmlTest, FaultsAreRecognised) {
  const std::string body =
      "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body><soapenv:Fault>"
      "<faultcode>ServerFaultCode</faultcode><faultstring>The session is not authenticated.</faultstring><detail>"
      "<NotAuthenticatedFault xmlns=\"urn:vim25\" xsi:type=\"NotAuthenticated\" "
      "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"></NotAuthenticatedFault></detail>"
      "</soapenv:Fault></soapenv:Body></soapenv:Envelope>";
  auto f = ParseFault(body);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->code, "NotAuthenticated");
  EXPECT_EQ(f->message, "The session is not authenticated.");
  EXPECT_FALSE(ParseFault(ReadText(Fixture("vsphere/vc901-service-content.xml"))));
  EXPECT_FALSE(ParseQueryPerf("<not xml").ok());
}

TEST(VsphereXmlTest, RequestsEscapeWhatTheyCarry) {
  ServiceContent sc;
  sc.session_manager = {"SessionManager", "SessionManager"};
  const std::string login = LoginRequest(sc, "svc<perf>", "p&ss\"word");
  EXPECT_NE(login.find("<userName>svc&lt;perf&gt;</userName>"), std::string::npos);
  EXPECT_NE(login.find("<password>p&amp;ss&quot;word</password>"), std::string::npos);
  sc.perf_manager = {"PerformanceManager", "PerfMgr"};
  QuerySpec q;
  q.entity = "vm-1";
  q.counter_ids = {2, 12};
  q.max_sample = 15;
  const std::string qp = QueryPerfRequest(sc, {q});
  EXPECT_NE(qp.find("<maxSample>15</maxSample>"), std::string::npos);
  EXPECT_NE(qp.find("<metricId><counterId>12</counterId><instance>*</instance></metricId>"), std::string::npos);
  EXPECT_NE(qp.find("<entity type=\"VirtualMachine\">vm-1</entity>"), std::string::npos);
  // A host is asked for its aggregate only.
  q.entity = "host-10";
  q.entity_type = "HostSystem";
  q.instance = "";
  const std::string host = QueryPerfRequest(sc, {q});
  EXPECT_NE(host.find("<entity type=\"HostSystem\">host-10</entity>"), std::string::npos);
  EXPECT_NE(host.find("<metricId><counterId>2</counterId><instance></instance></metricId>"), std::string::npos);
  EXPECT_EQ(host.find("<instance>*</instance>"), std::string::npos);
}

// RetrievePropertiesEx of a cluster's configurationEx (the shape vSphere sends: a data object
// with xsi:type on the value and its policy) and of a host's parent: a reference keeps its type,
// a data object its fields as dotted paths, and HA admission control's reserve is read from them.
std::string ClusterAnswer(const std::string& das) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soapenv:Envelope "
         "xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" "
         "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"><soapenv:Body><RetrievePropertiesExResponse "
         "xmlns=\"urn:vim25\"><returnval><objects><obj type=\"ClusterComputeResource\">domain-c7</obj>"
         "<propSet><name>configurationEx</name><val xsi:type=\"ClusterConfigInfoEx\"><dasConfig>" +
         das +
         "</dasConfig><drsConfig><enabled>true</enabled></drsConfig></val></propSet>"
         "<propSet><name>name</name><val xsi:type=\"xsd:string\">Cluster01</val></propSet></objects>"
         "<objects><obj type=\"HostSystem\">host-10</obj><propSet><name>parent</name><val "
         "type=\"ClusterComputeResource\" xsi:type=\"ManagedObjectReference\">domain-c7</val></propSet></objects>"
         "</returnval></RetrievePropertiesExResponse></soapenv:Body></soapenv:Envelope>";
}

TEST(VsphereXmlTest, AClustersHaReserveAndAHostsClusterAreRead) {
  auto r = ParseRetrieveResult(ClusterAnswer(
      "<enabled>true</enabled><admissionControlEnabled>true</admissionControlEnabled><admissionControlPolicy "
      "xsi:type=\"ClusterFailoverResourcesAdmissionControlPolicy\"><cpuFailoverResourcesPercent>25</"
      "cpuFailoverResourcesPercent><memoryFailoverResourcesPercent>25</memoryFailoverResourcesPercent></"
      "admissionControlPolicy>"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->objects.size(), 2u);
  auto& cluster = r->objects[0].props;
  EXPECT_EQ(cluster["name"], "Cluster01");
  EXPECT_EQ(cluster["configurationEx.dasConfig.enabled"], "true");
  EXPECT_EQ(cluster["configurationEx.dasConfig.admissionControlPolicy#type"],
            "ClusterFailoverResourcesAdmissionControlPolicy");
  EXPECT_EQ(cluster["configurationEx.drsConfig.enabled"], "true");
  HaReserve ha = ClusterHaReserve(cluster);
  EXPECT_FALSE(ha.hosts.has_value());
  EXPECT_EQ(ha.cpu_pct, std::optional<double>(25));
  auto& host = r->objects[1].props;
  EXPECT_EQ(host["parent"], "domain-c7");
  EXPECT_EQ(host["parent#type"], "ClusterComputeResource");

  auto level = [](const std::string& das) {
    auto r = ParseRetrieveResult(ClusterAnswer(das));
    return r.ok() ? ClusterHaReserve(r->objects[0].props) : HaReserve{};
  };
  EXPECT_EQ(
      level("<enabled>true</enabled><admissionControlPolicy xsi:type=\"ClusterFailoverLevelAdmissionControlPolicy\">"
            "<failoverLevel>2</failoverLevel></admissionControlPolicy>")
          .hosts,
      2);
  EXPECT_EQ(
      level("<enabled>true</enabled><admissionControlPolicy xsi:type=\"ClusterFailoverHostAdmissionControlPolicy\">"
            "<failoverHosts type=\"HostSystem\">host-1</failoverHosts><failoverHosts "
            "type=\"HostSystem\">host-2</failoverHosts></admissionControlPolicy>")
          .hosts,
      2);
  EXPECT_EQ(level("<enabled>true</enabled><admissionControlPolicy "
                  "xsi:type=\"ClusterFailoverResourcesAdmissionControlPolicy\"><cpuFailoverResourcesPercent>33</"
                  "cpuFailoverResourcesPercent><autoComputePercentages>true</autoComputePercentages><failoverLevel>1<"
                  "/failoverLevel></admissionControlPolicy>")
                .hosts,
            1);
  EXPECT_EQ(level("<enabled>false</enabled>").hosts, 0) << "HA off holds nothing back";
  EXPECT_EQ(level("<enabled>true</enabled><admissionControlEnabled>false</admissionControlEnabled>").hosts, 0);
  const HaReserve unknown = level("");
  EXPECT_FALSE(unknown.hosts || unknown.cpu_pct) << "a cluster that does not say";
}

}  // namespace
}  // namespace vrecon::vsphere
