// Answer parsing with pugixml. Servers differ in prefixes and in how they mark types, so
// elements are found by local name and formats are told apart by which children exist.
#include <pugixml.hpp>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <numeric>

#include "adapters/vsphere/answer_xml.h"
#include "adapters/vsphere/vsphere_xml.h"
#include "src/core/text_util.h"

namespace vrecon::vsphere {
namespace {

std::string_view Local(const char* name) {
  std::string_view n(name);
  const size_t colon = n.find(':');
  return colon == std::string_view::npos ? n : n.substr(colon + 1);
}

pugi::xml_node Child(pugi::xml_node n, std::string_view local) {
  for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element && Local(c.name()) == local) return c;
  return {};
}

template <typename F>
void ForChildren(pugi::xml_node n, std::string_view local, F f) {
  for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element && Local(c.name()) == local) f(c);
}

pugi::xml_node Find(pugi::xml_node n, std::string_view local) {
  return n.find_node([&](pugi::xml_node c) { return c.type() == pugi::node_element && Local(c.name()) == local; });
}

struct Doc {
  pugi::xml_document doc;
  pugi::xml_node body;
};

Status Load(std::string_view text, Doc* d) {
  RETURN_IF_ERROR(LoadAnswer(text, &d->doc));
  d->body = Find(d->doc, "Body");
  if (!d->body) return Status::ParseError("the server's answer is not a SOAP envelope");
  if (auto f = Find(d->body, "Fault")) {
    std::string msg = Child(f, "faultstring").text().get();
    return Status::Unavailable("SOAP fault: " + msg);
  }
  return Status::Ok();
}

MoRef ReadMoRef(pugi::xml_node n) { return MoRef{n.attribute("type").value(), n.text().get()}; }

bool HasElements(pugi::xml_node n) {
  for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element) return true;
  return false;
}

// A data object's fields as dotted paths under `path` ("configurationEx.dasConfig.enabled"): a
// field's text, its xsi:type as "PATH#type", and how many times a repeated field came as
// "PATH#count". At most `*budget` fields: a large cluster's per-VM settings are not needed whole.
void Flatten(pugi::xml_node n, const std::string& path, int* budget, std::map<std::string, std::string>* props) {
  for (pugi::xml_node c = n.first_child(); c && *budget > 0; c = c.next_sibling()) {
    if (c.type() != pugi::node_element) continue;
    --*budget;
    const std::string p = path + "." + std::string(Local(c.name()));
    std::string& count = (*props)[p + "#count"];
    count = std::to_string(std::atoi(count.c_str()) + 1);
    if (pugi::xml_attribute t = c.attribute("xsi:type")) (*props)[p + "#type"] = t.value();
    if (HasElements(c)) {
      Flatten(c, p, budget, props);
    } else {
      (*props)[p] = c.text().get();
    }
  }
}

std::optional<TimeNs> ParseTime(std::string_view s) { return ParseIso(Trim(s)); }

}  // namespace

std::optional<Fault> ParseFault(std::string_view body) {
  pugi::xml_document doc;
  if (!LoadAnswer(body, &doc).ok()) return std::nullopt;
  pugi::xml_node f = Find(doc, "Fault");
  if (!f) return std::nullopt;
  Fault out;
  out.message = Trim(Child(f, "faultstring").text().get());
  if (pugi::xml_node detail = Child(f, "detail")) {
    for (pugi::xml_node c = detail.first_child(); c; c = c.next_sibling()) {
      if (c.type() != pugi::node_element) continue;
      std::string_view name = Local(c.name());
      // <NotAuthenticatedFault xsi:type="NotAuthenticated"> or a bare <InvalidLoginFault/>.
      for (pugi::xml_attribute a = c.first_attribute(); a; a = a.next_attribute())
        if (Local(a.name()) == "type") name = Local(a.value());
      if (name.ends_with("Fault")) name.remove_suffix(5);
      out.code = std::string(name);
      break;
    }
  }
  return out;
}

StatusOr<ServiceContent> ParseServiceContent(std::string_view body) {
  Doc d;
  RETURN_IF_ERROR(Load(body, &d));
  pugi::xml_node rv = Find(d.body, "returnval");
  if (!rv) return Status::ParseError("RetrieveServiceContent answer holds no returnval");
  ServiceContent sc;
  sc.root_folder = ReadMoRef(Child(rv, "rootFolder"));
  sc.property_collector = ReadMoRef(Child(rv, "propertyCollector"));
  sc.view_manager = ReadMoRef(Child(rv, "viewManager"));
  sc.session_manager = ReadMoRef(Child(rv, "sessionManager"));
  sc.perf_manager = ReadMoRef(Child(rv, "perfManager"));
  sc.setting = ReadMoRef(Child(rv, "setting"));
  sc.full_name = Child(Child(rv, "about"), "fullName").text().get();
  sc.instance_uuid = Trim(Child(Child(rv, "about"), "instanceUuid").text().get());
  if (sc.session_manager.value.empty() || sc.perf_manager.value.empty() || sc.property_collector.value.empty())
    return Status::ParseError("the server's ServiceContent lacks a session, performance or property manager");
  return sc;
}

StatusOr<TimeNs> ParseCurrentTime(std::string_view body) {
  Doc d;
  RETURN_IF_ERROR(Load(body, &d));
  auto t = ParseTime(Find(d.body, "returnval").text().get());
  if (!t) return Status::ParseError("CurrentTime answer holds no readable time");
  return *t;
}

StatusOr<MoRef> ParseMoRefReturn(std::string_view body) {
  Doc d;
  RETURN_IF_ERROR(Load(body, &d));
  pugi::xml_node rv = Find(d.body, "returnval");
  if (!rv) return Status::ParseError("answer holds no returnval");
  return ReadMoRef(rv);
}

StatusOr<std::string> ParseOptionValue(std::string_view body) {
  Doc d;
  RETURN_IF_ERROR(Load(body, &d));
  pugi::xml_node rv = Find(d.body, "returnval");
  if (!rv) return Status::NotFound("option not set");
  return std::string(Trim(Child(rv, "value").text().get()));
}

StatusOr<std::vector<CounterInfo>> ParsePerfCounters(std::string_view body) {
  Doc d;
  RETURN_IF_ERROR(Load(body, &d));
  std::vector<CounterInfo> out;
  for (const pugi::xpath_node& x : d.body.select_nodes(".//*[local-name()='PerfCounterInfo']")) {
    pugi::xml_node n = x.node();
    CounterInfo c;
    c.key = Child(n, "key").text().as_int();
    const std::string group = Child(Child(n, "groupInfo"), "key").text().get();
    const std::string name = Child(Child(n, "nameInfo"), "key").text().get();
    const std::string rollup = Child(n, "rollupType").text().get();
    c.name = group + "." + name + "." + rollup;
    c.unit_key = Child(Child(n, "unitInfo"), "key").text().get();
    c.level = std::clamp(Child(n, "level").text().as_int(), 0, 4);
    out.push_back(std::move(c));
  }
  if (out.empty()) return Status::ParseError("the PerformanceManager's perfCounter list is empty");
  return out;
}

StatusOr<std::vector<PerfInterval>> ParsePerfIntervals(std::string_view body) {
  Doc d;
  RETURN_IF_ERROR(Load(body, &d));
  std::vector<PerfInterval> out;
  for (const pugi::xpath_node& x : d.body.select_nodes(".//*[local-name()='PerfInterval']")) {
    pugi::xml_node n = x.node();
    PerfInterval i;
    i.sampling_s = Child(n, "samplingPeriod").text().as_int();
    i.length_s = Child(n, "length").text().as_llong();
    i.level = Child(n, "level").text().as_int();
    i.enabled = std::string_view(Child(n, "enabled").text().get()) == "true";
    i.name = Child(n, "name").text().get();
    // Ten years: no vCenter keeps a rollup longer, and TimeNs holds it with room to spare.
    if (i.sampling_s <= 0 || i.length_s <= 0 || i.length_s > 10 * 366 * 86400LL || i.level < 1 || i.level > 4)
      return Status::ParseError("historical interval \"" + i.name + "\" has sampling period " +
                                std::to_string(i.sampling_s) + " s, length " + std::to_string(i.length_s) +
                                " s, level " + std::to_string(i.level) + ": not a rollup vCenter keeps");
    out.push_back(std::move(i));
  }
  return out;
}

StatusOr<RetrieveResult> ParseRetrieveResult(std::string_view body) {
  Doc d;
  RETURN_IF_ERROR(Load(body, &d));
  RetrieveResult r;
  pugi::xml_node rv = Find(d.body, "returnval");
  if (!rv) return r;  // no objects at all
  r.token = Trim(Child(rv, "token").text().get());
  ForChildren(rv, "objects", [&](pugi::xml_node o) {
    ObjectProps p;
    p.obj = ReadMoRef(Child(o, "obj"));
    ForChildren(o, "propSet", [&](pugi::xml_node ps) {
      const std::string name = Child(ps, "name").text().get();
      pugi::xml_node val = Child(ps, "val");
      p.props[name] = val.text().get();
      // A reference's type beside its value ("parent#type": a host's cluster or standalone resource).
      if (pugi::xml_attribute type = val.attribute("type")) p.props[name + "#type"] = type.value();
      // A data object's fields as paths under its name.
      int budget = 4096;
      if (HasElements(val)) Flatten(val, name, &budget, &p.props);
    });
    r.objects.push_back(std::move(p));
  });
  return r;
}

namespace {

bool SplitCsvNumbers(std::string_view s, std::vector<double>* out) {
  out->clear();
  s = Trim(s);
  if (s.empty()) return true;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t comma = s.find(',', pos);
    if (comma == std::string_view::npos) comma = s.size();
    auto v = ParseDouble(s.substr(pos, comma - pos));
    if (!v) return false;
    out->push_back(*v);
    pos = comma + 1;
  }
  return true;
}

}  // namespace

StatusOr<std::vector<EntityMetrics>> ParseQueryPerf(std::string_view body) {
  Doc d;
  RETURN_IF_ERROR(Load(body, &d));
  pugi::xml_node resp = Find(d.body, "QueryPerfResponse");
  if (!resp) return Status::ParseError("answer is not a QueryPerfResponse");
  std::vector<EntityMetrics> out;
  for (pugi::xml_node rv = resp.first_child(); rv; rv = rv.next_sibling()) {
    if (rv.type() != pugi::node_element || Local(rv.name()) != "returnval") continue;
    EntityMetrics em;
    em.entity = ReadMoRef(Child(rv, "entity"));
    const pugi::xml_node csv = Child(rv, "sampleInfoCSV");
    if (csv) {
      // "interval,date,interval,date,..."
      std::string_view s = Trim(csv.text().get());
      size_t pos = 0;
      while (pos < s.size()) {
        size_t c1 = s.find(',', pos);
        if (c1 == std::string_view::npos)
          return Status::ParseError("sampleInfoCSV of " + em.entity.value + " is cut off");
        size_t c2 = s.find(',', c1 + 1);
        if (c2 == std::string_view::npos) c2 = s.size();
        int interval = 0;
        std::from_chars(s.data() + pos, s.data() + c1, interval);
        auto t = ParseTime(s.substr(c1 + 1, c2 - c1 - 1));
        if (!t) return Status::ParseError("sampleInfoCSV of " + em.entity.value + " holds an unreadable time");
        em.ends.push_back(*t);
        em.intervals_s.push_back(interval);
        pos = c2 + 1;
      }
    } else {
      ForChildren(rv, "sampleInfo", [&](pugi::xml_node si) {
        em.ends.push_back(ParseTime(Child(si, "timestamp").text().get()).value_or(0));
        em.intervals_s.push_back(Child(si, "interval").text().as_int());
      });
    }
    ForChildren(rv, "value", [&](pugi::xml_node v) {
      MetricSeries ms;
      pugi::xml_node id = Child(v, "id");
      ms.counter_id = Child(id, "counterId").text().as_int();
      ms.instance = Trim(Child(id, "instance").text().get());
      // A real server expands the "*" wildcard into "" (aggregate) and "0".."n"; govmomi's
      // simulator echoes "*" with the VM's values, which are the aggregate.
      if (ms.instance == "*") ms.instance.clear();
      bool ok = true;
      if (csv) {
        ok = SplitCsvNumbers(Child(v, "value").text().get(), &ms.values);  // "v1,v2,..."
      } else {
        ForChildren(v, "value", [&](pugi::xml_node x) {
          auto n = ParseDouble(x.text().get());
          if (!n) ok = false;
          ms.values.push_back(n.value_or(-1));
        });
      }
      const std::string what =
          "counter " + std::to_string(ms.counter_id) + " instance \"" + ms.instance + "\" of " + em.entity.value;
      if (!ok) {
        em.problems.push_back(what + " holds a value that is not a number; the series is skipped");
      } else if (ms.values.size() != em.ends.size()) {
        em.problems.push_back(what + " has " + std::to_string(ms.values.size()) + " values for " +
                              std::to_string(em.ends.size()) +
                              " timestamps; values are never paired with times by position, so the series is skipped");
      } else {
        em.series.push_back(std::move(ms));
      }
    });
    // Oldest first (the simulator answers newest first).
    std::vector<size_t> order(em.ends.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return em.ends[a] < em.ends[b]; });
    auto permute = [&](auto& v) {
      auto copy = v;
      for (size_t i = 0; i < order.size(); ++i) v[i] = copy[order[i]];
    };
    permute(em.ends);
    permute(em.intervals_s);
    for (MetricSeries& ms : em.series) permute(ms.values);
    out.push_back(std::move(em));
  }
  return out;
}

HaReserve ClusterHaReserve(const std::map<std::string, std::string>& props) {
  const auto get = [&props](const std::string& path) {
    auto it = props.find("configurationEx.dasConfig." + path);
    return it == props.end() ? std::string() : std::string(Trim(it->second));
  };
  HaReserve r;
  const std::string enabled = get("enabled"), admission = get("admissionControlEnabled");
  if (enabled == "false" || (enabled == "true" && admission == "false")) {
    r.hosts = 0;  // nothing held back
    return r;
  }
  if (enabled != "true") return r;
  const std::string type = get("admissionControlPolicy#type"), level = get("admissionControlPolicy.failoverLevel");
  const std::string pct = get("admissionControlPolicy.cpuFailoverResourcesPercent");
  if (type == "ClusterFailoverLevelAdmissionControlPolicy" && !level.empty()) {
    r.hosts = std::atoi(level.c_str());
  } else if (type == "ClusterFailoverHostAdmissionControlPolicy") {
    r.hosts = std::atoi(get("admissionControlPolicy.failoverHosts#count").c_str());
  } else if (type == "ClusterFailoverResourcesAdmissionControlPolicy") {
    // vSphere 6.5 on computes the percentage from a host count it is given.
    if (get("admissionControlPolicy.autoComputePercentages") == "true" && !level.empty()) {
      r.hosts = std::atoi(level.c_str());
    } else if (!pct.empty()) {
      r.cpu_pct = std::clamp(std::atof(pct.c_str()), 0.0, 100.0);
    }
  }
  if (r.hosts && *r.hosts < 0) r.hosts.reset();
  return r;
}

}  // namespace vrecon::vsphere
