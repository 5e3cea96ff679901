// Every vSphere SOAP answer the client reads (adapters/vsphere/vsphere_responses.cc): faults,
// RetrieveServiceContent, CurrentTime, the perfCounter list, RetrievePropertiesEx pages, a
// returned MoRef, QueryOptions, QueryPerf in both formats (PerfEntityMetric and ...CSV). Each
// input is offered to every parser, as a server may send any answer to any request.
// Properties: a QueryPerf answer is oldest first with one interval per timestamp and one value
// per timestamp in every series kept; parsed ServiceContent names its managers; and the request
// side: any text a user or server supplies (valid UTF-8 an XML document can hold) goes through
// XmlEscape into a request and an XML parser reads back exactly that text, in element content
// and in attributes.
#include <pugixml.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "adapters/vsphere/vsphere_xml.h"
#include "fuzz/fuzz_check.h"
#include "src/core/text_decode.h"

using namespace vrecon;
using namespace vrecon::vsphere;

namespace {

// Text XML 1.0 can carry: no C0 control other than tab, LF and CR.
bool XmlCanHold(std::string_view s) {
  if (!IsValidUtf8(s)) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r';
  });
}

pugi::xml_node Named(const pugi::xml_document& doc, const char* name) {
  return doc.find_node([&](pugi::xml_node n) {
    const std::string_view full(n.name());
    return full == name || full.ends_with(std::string(":") + name);
  });
}

void CheckEscapeRoundTrip(std::string_view text) {
  if (!XmlCanHold(text)) return;
  const std::string s(text);
  ServiceContent sc;
  sc.session_manager = MoRef{s, s};
  for (const std::string& request : {LoginRequest(sc, s, s), LogoutRequest(sc)}) {
    pugi::xml_document doc;
    // parse_ws_pcdata: a password of blanks is still a password; end-of-line handling stays on,
    // as in every XML parser a server runs.
    FUZZ_CHECK(doc.load_string(request.c_str(), pugi::parse_default | pugi::parse_ws_pcdata),
               "a request is well-formed XML");
    const pugi::xml_node self = Named(doc, "_this");
    FUZZ_CHECK(self.attribute("type").value() == s, "a MoRef type reads back as sent");
    FUZZ_CHECK(self.text().get() == s, "a MoRef value reads back as sent");
    if (const pugi::xml_node pw = Named(doc, "password")) {
      FUZZ_CHECK(pw.text().get() == s, "a password reads back as sent");
      FUZZ_CHECK(Named(doc, "userName").text().get() == s, "a user name reads back as sent");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  (void)ParseFault(body);
  if (auto sc = ParseServiceContent(body); sc.ok()) {
    FUZZ_CHECK(
        !sc->session_manager.value.empty() && !sc->perf_manager.value.empty() && !sc->property_collector.value.empty(),
        "a ServiceContent read names its managers");
  }
  (void)ParseCurrentTime(body);
  if (auto counters = ParsePerfCounters(body); counters.ok()) {
    FUZZ_CHECK(!counters->empty(), "a counter list is not empty");
    for (const CounterInfo& c : *counters) FUZZ_CHECK(c.level >= 0 && c.level <= 4, "a counter's level is 0 to 4");
  }
  if (auto intervals = ParsePerfIntervals(body); intervals.ok())
    for (const PerfInterval& i : *intervals)
      FUZZ_CHECK(i.sampling_s > 0 && i.length_s > 0 && i.level >= 1 && i.level <= 4,
                 "a historical interval read has a positive period and length and a level of 1 to 4");
  (void)ParseRetrieveResult(body);
  (void)ParseMoRefReturn(body);
  (void)ParseOptionValue(body);
  if (auto perf = ParseQueryPerf(body); perf.ok()) {
    for (const EntityMetrics& em : *perf) {
      FUZZ_CHECK(std::is_sorted(em.ends.begin(), em.ends.end()), "QueryPerf samples are oldest first");
      FUZZ_CHECK(em.intervals_s.size() == em.ends.size(), "one interval per timestamp");
      for (const MetricSeries& ms : em.series)
        FUZZ_CHECK(ms.values.size() == em.ends.size(), "one value per timestamp");
    }
  }
  CheckEscapeRoundTrip(body.substr(0, 256));
  return 0;
}
