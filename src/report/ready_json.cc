#include "src/report/ready_json.h"

#include <string>

#include "src/core/text_util.h"
#include "src/report/output.h"

namespace vrecon::report {
namespace {

using models::Summary;
using models::VmReadySummary;

std::string JsonSummary(const Summary& s, const std::vector<std::string>& names) {
  std::string o = "{\"mean\": " + JsonNumber(s.mean) + ", \"p95\": " + JsonNumber(s.p95);
  for (size_t i = 0; i < names.size(); ++i) o += ", \"share_above_" + names[i] + "\": " + JsonNumber(ShareAbove(s, i));
  return o + "}";
}

}  // namespace

std::optional<double> ShareAbove(const Summary& s, size_t i) {
  if (s.samples == 0 || i >= s.share_above.size()) return std::nullopt;
  return s.share_above[i];
}

void WriteReadyJson(std::ostream& os, const std::vector<VmReadySummary>& vms) {
  os << "{\"vms\": [";
  for (size_t i = 0; i < vms.size(); ++i) {
    const VmReadySummary& v = vms[i];
    os << (i ? ",\n  " : "\n  ") << "{\"vm\": " << JsonString(v.vm) << ", \"source\": " << JsonString(v.source)
       << ", \"host\": " << (v.host.empty() ? "null" : JsonString(v.host))
       << ", \"vcpus\": " << JsonNumber(v.vcpus ? std::optional<double>(*v.vcpus) : std::nullopt)
       << ", \"samples\": " << v.samples << ", \"ready_pct_per_vcpu\": " << JsonSummary(v.ready, {"5", "10"})
       << ", \"costop_pct_per_vcpu\": " << JsonSummary(v.costop, {"3"})
       << ", \"state_pct_per_vcpu\": {\"run\": " << JsonNumber(v.run_mean)
       << ", \"ready\": " << JsonNumber(v.ready.mean) << ", \"costop\": " << JsonNumber(v.costop.mean)
       << ", \"wait\": " << JsonNumber(v.wait_mean) << ", \"usage\": " << JsonNumber(v.usage_mean) << "}"
       << ", \"wait_per_dispatch_us\": "
       << (v.wait_per_dispatch_us ? JsonSummary(*v.wait_per_dispatch_us, {"60", "100"}) : "null")
       << ", \"host_load_pct\": " << (v.host_load ? JsonSummary(*v.host_load, {"75", "90"}) : "null")
       << ", \"hints\": [";
    for (size_t j = 0; j < v.hints.size(); ++j) {
      const auto& h = v.hints[j];
      os << (j ? ", " : "") << "{\"code\": " << JsonString(h.code)
         << ", \"severity\": " << JsonString(SeverityName(h.severity)) << ", \"message\": " << JsonString(h.message)
         << "}";
    }
    os << "], \"vm_key\": " << JsonString(v.vm_key) << ", \"vm_source\": " << JsonString(v.vm_source) << "}";
  }
  os << (vms.empty() ? "]}\n" : "\n]}\n");
}

}  // namespace vrecon::report
