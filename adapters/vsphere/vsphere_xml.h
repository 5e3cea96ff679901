// The vSphere Web Services (SOAP, urn:vim25) messages vrecon sends and the answers it reads.
// Pure: strings in, structs out. Element names are matched by local name, so the namespace
// prefixes real servers and govmomi's simulator use ("soapenv:", "XMLSchema-instance:type")
// do not matter.
#ifndef VRECON_ADAPTERS_VSPHERE_VSPHERE_XML_H_
#define VRECON_ADAPTERS_VSPHERE_VSPHERE_XML_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/status.h"
#include "src/core/time_util.h"

namespace vrecon::vsphere {

struct MoRef {
  std::string type, value;
};

struct ServiceContent {
  MoRef root_folder, property_collector, view_manager, session_manager, perf_manager, setting;
  std::string full_name;      // "VMware vCenter Server 9.0.1 build-24957454"
  std::string instance_uuid;  // about.instanceUuid: the server's own id, whatever URL reaches it ("" when absent)
};

// A SOAP fault: code is the fault's detail type without "Fault" ("NotAuthenticated",
// "InvalidLogin", "RestrictedByAdministrator", ...), or "" when the server gave none.
struct Fault {
  std::string code;
  std::string message;
};

struct CounterInfo {
  int key = 0;
  std::string name;      // group.name.rollup, e.g. "cpu.ready.summation"
  std::string unit_key;  // unitInfo.key: percent, millisecond, megaHertz, ...
  // The statistics level (1-4) from which vCenter keeps the counter's aggregate in its rollups
  // (cpu.usage.average 1, cpu.run.summation 2 on vCenter 9.0.1); 0: not said.
  int level = 0;
};

// One of vCenter's historical intervals (PerformanceManager.historicalInterval): rollups of
// `sampling_s` seconds kept `length_s`, of the counters whose level is at most `level`.
struct PerfInterval {
  int sampling_s = 0;
  int64_t length_s = 0;
  int level = 0;
  bool enabled = false;
  std::string name;  // "Past day", "Past week", ...
};

struct ObjectProps {
  MoRef obj;
  // property path -> text (a MoRef's value for references; "PATH#type" its managed object type)
  std::map<std::string, std::string> props;
};
struct RetrieveResult {
  std::vector<ObjectProps> objects;
  std::string token;  // non-empty: more pages via ContinueRetrievePropertiesEx
};

struct MetricSeries {
  int counter_id = 0;
  std::string instance;        // "" = the VM aggregate, "0".."n" = per vCPU
  std::vector<double> values;  // aligned with EntityMetrics::ends; -1 = no data
};
struct EntityMetrics {
  MoRef entity;
  std::vector<TimeNs> ends;      // sample timestamps (the END of each interval), oldest first
  std::vector<int> intervals_s;  // each sample's interval
  std::vector<MetricSeries> series;
  std::vector<std::string> problems;  // series dropped, with the reason
};

// ---- requests ----
std::string RetrieveServiceContentRequest();
std::string LoginRequest(const ServiceContent& sc, std::string_view user, std::string_view password);
std::string LogoutRequest(const ServiceContent& sc);
std::string CurrentTimeRequest();
std::string PerfCounterRequest(const ServiceContent& sc);
std::string PerfIntervalRequest(const ServiceContent& sc);
std::string QueryOptionsRequest(const ServiceContent& sc, std::string_view name);
std::string CreateContainerViewRequest(const ServiceContent& sc, std::string_view type);
std::string DestroyViewRequest(const MoRef& view);
std::string RetrieveViewRequest(const ServiceContent& sc, const MoRef& view, std::string_view type,
                                const std::vector<std::string>& paths);
std::string ContinueRetrieveRequest(const ServiceContent& sc, std::string_view token);

struct QuerySpec {
  std::string entity;                          // MoRef value
  std::string entity_type = "VirtualMachine";  // or "HostSystem"
  std::vector<int> counter_ids;
  // "*": the aggregate and every instance (a VM's vCPUs); "": the aggregate alone (a host's
  // threads are not needed, and would be 64 series a counter on a large host).
  std::string instance = "*";
  int interval_id = 20;
  std::optional<TimeNs> start, end;  // start exclusive, end inclusive (server time)
  int max_sample = 0;                // always set: the simulator returns nothing without it
  bool csv = false;
};
std::string QueryPerfRequest(const ServiceContent& sc, const std::vector<QuerySpec>& specs);

// ---- responses ----
std::optional<Fault> ParseFault(std::string_view body);
StatusOr<ServiceContent> ParseServiceContent(std::string_view body);
StatusOr<TimeNs> ParseCurrentTime(std::string_view body);
StatusOr<std::vector<CounterInfo>> ParsePerfCounters(std::string_view body);
// Every interval listed, enabled or not; an empty list is not an error (an ESXi host keeps no
// rollups). A sampling period, length or level that is not a positive number refuses the answer.
StatusOr<std::vector<PerfInterval>> ParsePerfIntervals(std::string_view body);
StatusOr<RetrieveResult> ParseRetrieveResult(std::string_view body);
// What a cluster's HA admission control holds back for host failures, from its retrieved
// `configurationEx` (dasConfig): a number of hosts (failover level, dedicated failover hosts, or a
// percentage computed from a host count; 0 with HA or admission control off) or a percentage of
// CPU; neither when it does not say.
struct HaReserve {
  std::optional<int> hosts;
  std::optional<double> cpu_pct;
};
HaReserve ClusterHaReserve(const std::map<std::string, std::string>& props);
StatusOr<MoRef> ParseMoRefReturn(std::string_view body);
// The value of the first OptionValue in a QueryOptions answer.
StatusOr<std::string> ParseOptionValue(std::string_view body);
// Both formats: PerfEntityMetric (normal) and PerfEntityMetricCSV.
StatusOr<std::vector<EntityMetrics>> ParseQueryPerf(std::string_view body);

std::string XmlEscape(std::string_view s);

}  // namespace vrecon::vsphere

#endif  // VRECON_ADAPTERS_VSPHERE_VSPHERE_XML_H_
