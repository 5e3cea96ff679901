// Request envelopes. Every value a user or server supplies goes through XmlEscape.
#include <string>

#include "adapters/vsphere/vsphere_xml.h"

namespace vrecon::vsphere {
namespace {

std::string Envelope(const std::string& body) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
         "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" "
         "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">"
         "<soapenv:Body>" +
         body + "</soapenv:Body></soapenv:Envelope>";
}

std::string This(const MoRef& m) {
  return "<_this type=\"" + XmlEscape(m.type) + "\">" + XmlEscape(m.value) + "</_this>";
}

}  // namespace

std::string XmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      // A server's XML parser turns a raw CR (and CRLF) into LF, and tab, CR and LF in an
      // attribute into spaces: as character references they reach it unchanged.
      case '\t': out += "&#9;"; break;
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string RetrieveServiceContentRequest() {
  return Envelope(
      "<RetrieveServiceContent xmlns=\"urn:vim25\"><_this type=\"ServiceInstance\">ServiceInstance</_this>"
      "</RetrieveServiceContent>");
}

std::string CurrentTimeRequest() {
  return Envelope(
      "<CurrentTime xmlns=\"urn:vim25\"><_this type=\"ServiceInstance\">ServiceInstance</_this></CurrentTime>");
}

std::string LoginRequest(const ServiceContent& sc, std::string_view user, std::string_view password) {
  return Envelope("<Login xmlns=\"urn:vim25\">" + This(sc.session_manager) + "<userName>" + XmlEscape(user) +
                  "</userName><password>" + XmlEscape(password) + "</password></Login>");
}

std::string LogoutRequest(const ServiceContent& sc) {
  return Envelope("<Logout xmlns=\"urn:vim25\">" + This(sc.session_manager) + "</Logout>");
}

namespace {
std::string PerfManagerProperty(const ServiceContent& sc, std::string_view path) {
  return Envelope("<RetrievePropertiesEx xmlns=\"urn:vim25\">" + This(sc.property_collector) +
                  "<specSet><propSet><type>PerformanceManager</type><pathSet>" + std::string(path) +
                  "</pathSet></propSet><objectSet><obj type=\"PerformanceManager\">" +
                  XmlEscape(sc.perf_manager.value) +
                  "</obj></objectSet></specSet><options></options>"
                  "</RetrievePropertiesEx>");
}
}  // namespace

std::string PerfCounterRequest(const ServiceContent& sc) { return PerfManagerProperty(sc, "perfCounter"); }

std::string PerfIntervalRequest(const ServiceContent& sc) { return PerfManagerProperty(sc, "historicalInterval"); }

std::string QueryOptionsRequest(const ServiceContent& sc, std::string_view name) {
  return Envelope("<QueryOptions xmlns=\"urn:vim25\">" + This(sc.setting) + "<name>" + XmlEscape(name) +
                  "</name></QueryOptions>");
}

std::string CreateContainerViewRequest(const ServiceContent& sc, std::string_view type) {
  return Envelope("<CreateContainerView xmlns=\"urn:vim25\">" + This(sc.view_manager) + "<container type=\"Folder\">" +
                  XmlEscape(sc.root_folder.value) + "</container><type>" + XmlEscape(type) +
                  "</type><recursive>true</recursive></CreateContainerView>");
}

std::string DestroyViewRequest(const MoRef& view) {
  return Envelope("<DestroyView xmlns=\"urn:vim25\">" + This(view) + "</DestroyView>");
}

std::string RetrieveViewRequest(const ServiceContent& sc, const MoRef& view, std::string_view type,
                                const std::vector<std::string>& paths) {
  std::string props = "<propSet><type>" + XmlEscape(type) + "</type>";
  for (const std::string& p : paths) props += "<pathSet>" + XmlEscape(p) + "</pathSet>";
  props += "</propSet>";
  return Envelope("<RetrievePropertiesEx xmlns=\"urn:vim25\">" + This(sc.property_collector) + "<specSet>" + props +
                  "<objectSet><obj type=\"ContainerView\">" + XmlEscape(view.value) +
                  "</obj><skip>true</skip><selectSet xsi:type=\"TraversalSpec\"><name>traverseEntities</name>"
                  "<type>ContainerView</type><path>view</path><skip>false</skip></selectSet></objectSet>"
                  "</specSet><options><maxObjects>1000</maxObjects></options></RetrievePropertiesEx>");
}

std::string ContinueRetrieveRequest(const ServiceContent& sc, std::string_view token) {
  return Envelope("<ContinueRetrievePropertiesEx xmlns=\"urn:vim25\">" + This(sc.property_collector) + "<token>" +
                  XmlEscape(token) + "</token></ContinueRetrievePropertiesEx>");
}

std::string QueryPerfRequest(const ServiceContent& sc, const std::vector<QuerySpec>& specs) {
  std::string body = "<QueryPerf xmlns=\"urn:vim25\">" + This(sc.perf_manager);
  for (const QuerySpec& q : specs) {
    body += "<querySpec><entity type=\"" + XmlEscape(q.entity_type) + "\">" + XmlEscape(q.entity) + "</entity>";
    if (q.start) body += "<startTime>" + FormatIso(*q.start, false) + "</startTime>";
    if (q.end) body += "<endTime>" + FormatIso(*q.end, false) + "</endTime>";
    body += "<maxSample>" + std::to_string(q.max_sample) + "</maxSample>";
    for (int id : q.counter_ids)
      body += "<metricId><counterId>" + std::to_string(id) + "</counterId><instance>" + XmlEscape(q.instance) +
              "</instance></metricId>";
    body += "<intervalId>" + std::to_string(q.interval_id) + "</intervalId>";
    body += q.csv ? "<format>csv</format>" : "<format>normal</format>";
    body += "</querySpec>";
  }
  return Envelope(body + "</QueryPerf>");
}

}  // namespace vrecon::vsphere
