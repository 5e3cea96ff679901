#include "adapters/vsphere/vsphere_client.h"

#include <charconv>

namespace vrecon::vsphere {

StatusOr<std::unique_ptr<VsphereClient>> VsphereClient::Connect(const ClientOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<HttpTransport> t, HttpTransport::Create(options.transport));
  std::unique_ptr<VsphereClient> c(new VsphereClient(options, std::move(t)));
  ASSIGN_OR_RETURN(HttpResponse r, c->transport_->Post(RetrieveServiceContentRequest()));
  if (r.status != 200) {
    return Status::Unavailable(options.transport.url + " answered HTTP " + std::to_string(r.status) +
                               " to RetrieveServiceContent; is it a vCenter or ESXi /sdk endpoint?");
  }
  auto sc = ParseServiceContent(r.body);
  if (!sc.ok()) return Status::ParseError(options.transport.url + ": " + sc.status().message());
  c->sc_ = *sc;
  RETURN_IF_ERROR(c->Login());
  return c;
}

StatusOr<std::unique_ptr<VsphereClient>> VsphereClient::Clone() const {
  ASSIGN_OR_RETURN(std::unique_ptr<HttpTransport> t, HttpTransport::Create(options_.transport));
  t->SetSessionCookie(transport_->SessionCookie());
  std::unique_ptr<VsphereClient> c(new VsphereClient(options_, std::move(t)));
  c->sc_ = sc_;
  return c;
}

std::string VsphereClient::ServerText(std::string text) const {
  // Whatever the server sends back is never trusted with the password: a server that echoes the
  // request would otherwise put it on stderr. Then at most 300 characters of it are shown.
  for (const std::string& secret : {options_.password, XmlEscape(options_.password)}) {
    if (secret.empty()) continue;
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3))
      text.replace(at, secret.size(), "***");
  }
  constexpr size_t kShown = 300;
  if (text.size() > kShown)
    text = text.substr(0, kShown) + "... (" + std::to_string(text.size() - kShown) + " more bytes)";
  return text;
}

Status VsphereClient::Unreadable(const char* what, const Status& s) const {
  const std::string m = std::string(what) + " answer from " + options_.transport.url + ": " + s.message();
  return s.code() == Status::Code::kUnavailable ? Status::Unavailable(m) : Status::ParseError(m);
}

Status VsphereClient::Login() {
  ASSIGN_OR_RETURN(HttpResponse r, transport_->Post(LoginRequest(sc_, options_.user, options_.password)));
  if (auto f = ParseFault(r.body)) {
    if (f->code == "InvalidLogin")
      return Status::InvalidArgument("login to " + options_.transport.url + " as " + options_.user +
                                     " failed: wrong user name or password");
    return Status::Unavailable("login to " + options_.transport.url + " failed: " + ServerText(f->message));
  }
  if (r.status != 200)
    return Status::Unavailable("login to " + options_.transport.url + " answered HTTP " + std::to_string(r.status));
  return Status::Ok();
}

StatusOr<std::string> VsphereClient::Call(const char* what, const std::function<std::string()>& make_request) {
  for (int attempt = 0;; ++attempt) {
    StatusOr<HttpResponse> posted = transport_->Post(make_request());
    // Transport failures (timeout, cut response, refused connection) name the URL; say which
    // call it was, too, so a failed batch reads "QueryPerf: <url> did not answer in time".
    if (!posted.ok()) return Status::Unavailable(std::string(what) + ": " + posted.status().message());
    HttpResponse r = std::move(posted).value();
    // SOAP 1.1 sends faults with HTTP 500; a 200 answer is never a fault.
    std::optional<Fault> f = r.status == 200 ? std::nullopt : ParseFault(r.body);
    if (!f) {
      if (r.status != 200)
        return Status::Unavailable(std::string(what) + " to " + options_.transport.url + " answered HTTP " +
                                   std::to_string(r.status));
      return std::move(r.body);
    }
    if (f->code == "NotAuthenticated" && attempt == 0) {
      ++relogins_;
      RETURN_IF_ERROR(Login());
      continue;
    }
    return Status::Unavailable(std::string(what) + " on " + options_.transport.url + " failed: " +
                               (f->code.empty() ? "" : ServerText(f->code) + ": ") + ServerText(f->message));
  }
}

StatusOr<TimeNs> VsphereClient::CurrentTime() {
  ASSIGN_OR_RETURN(std::string body, Call("CurrentTime", [] { return CurrentTimeRequest(); }));
  return Named("CurrentTime", ParseCurrentTime(body));
}

StatusOr<std::vector<CounterInfo>> VsphereClient::PerfCounters() {
  ASSIGN_OR_RETURN(std::string body,
                   Call("RetrievePropertiesEx(perfCounter)", [&] { return PerfCounterRequest(sc_); }));
  return Named("RetrievePropertiesEx(perfCounter)", ParsePerfCounters(body));
}

StatusOr<std::vector<PerfInterval>> VsphereClient::HistoricalIntervals() {
  ASSIGN_OR_RETURN(std::string body,
                   Call("RetrievePropertiesEx(historicalInterval)", [&] { return PerfIntervalRequest(sc_); }));
  return Named("RetrievePropertiesEx(historicalInterval)", ParsePerfIntervals(body));
}

int VsphereClient::MaxQueryMetrics(int unlimited) {
  if (sc_.setting.value.empty()) return 64;
  auto body = Call("QueryOptions", [&] { return QueryOptionsRequest(sc_, "config.vpxd.stats.maxQueryMetrics"); });
  if (!body.ok()) return 64;  // not allowed to read settings, or not a vCenter: the documented default
  auto v = ParseOptionValue(*body);
  if (!v.ok()) return 64;
  int n = 0;
  auto r = std::from_chars(v->data(), v->data() + v->size(), n);
  if (r.ec != std::errc()) return 64;
  if (n < 0) return unlimited;
  return n == 0 ? 64 : n;
}

StatusOr<std::vector<ObjectProps>> VsphereClient::RetrieveView(std::string_view type,
                                                               const std::vector<std::string>& paths) {
  ASSIGN_OR_RETURN(std::string created,
                   Call("CreateContainerView", [&] { return CreateContainerViewRequest(sc_, type); }));
  ASSIGN_OR_RETURN(MoRef view, Named("CreateContainerView", ParseMoRefReturn(created)));
  std::vector<ObjectProps> out;
  ASSIGN_OR_RETURN(std::string body,
                   Call("RetrievePropertiesEx", [&] { return RetrieveViewRequest(sc_, view, type, paths); }));
  while (true) {
    ASSIGN_OR_RETURN(RetrieveResult page, Named("RetrievePropertiesEx", ParseRetrieveResult(body)));
    for (ObjectProps& o : page.objects) out.push_back(std::move(o));
    if (page.token.empty()) break;
    ASSIGN_OR_RETURN(body,
                     Call("ContinueRetrievePropertiesEx", [&] { return ContinueRetrieveRequest(sc_, page.token); }));
  }
  (void)Call("DestroyView", [&] { return DestroyViewRequest(view); });
  return out;
}

StatusOr<std::vector<VmInfo>> VsphereClient::VirtualMachines() {
  ASSIGN_OR_RETURN(auto objs, RetrieveView("VirtualMachine", {"name", "config.hardware.numCPU", "runtime.host",
                                                              "runtime.powerState", "guest.hostName"}));
  std::vector<VmInfo> out;
  for (ObjectProps& o : objs) {
    VmInfo v;
    v.moid = o.obj.value;
    v.name = o.props["name"];
    v.num_cpu = std::atoi(o.props["config.hardware.numCPU"].c_str());
    v.host_moid = o.props["runtime.host"];
    v.power_state = o.props["runtime.powerState"];
    v.guest_hostname = o.props["guest.hostName"];
    out.push_back(std::move(v));
  }
  return out;
}

StatusOr<std::vector<HostInfo>> VsphereClient::Hosts() {
  ASSIGN_OR_RETURN(auto objs,
                   RetrieveView("HostSystem", {"name", "summary.hardware.numCpuCores", "summary.hardware.numCpuThreads",
                                               "summary.hardware.cpuMhz", "config.hyperThread.active", "parent",
                                               "runtime.connectionState"}));
  std::vector<HostInfo> out;
  for (ObjectProps& o : objs) {
    HostInfo h;
    h.moid = o.obj.value;
    h.name = o.props["name"];
    h.cores = std::atoi(o.props["summary.hardware.numCpuCores"].c_str());
    h.threads = std::atoi(o.props["summary.hardware.numCpuThreads"].c_str());
    h.mhz = std::atoi(o.props["summary.hardware.cpuMhz"].c_str());
    if (auto ht = o.props.find("config.hyperThread.active"); ht != o.props.end() && !ht->second.empty())
      h.hyperthreading = ht->second == "true";
    if (o.props["parent#type"] == "ClusterComputeResource") h.cluster_moid = o.props["parent"];
    // disconnected or notResponding: vCenter has nothing new of it to give.
    if (auto c = o.props.find("runtime.connectionState"); c != o.props.end() && !c->second.empty())
      h.connected = c->second == "connected";
    out.push_back(std::move(h));
  }
  return out;
}

StatusOr<std::vector<ClusterInfo>> VsphereClient::Clusters() {
  ASSIGN_OR_RETURN(auto objs, RetrieveView("ClusterComputeResource", {"name", "configurationEx"}));
  std::vector<ClusterInfo> out;
  out.reserve(objs.size());
  for (ObjectProps& o : objs) out.push_back({o.obj.value, o.props["name"], ClusterHaReserve(o.props)});
  return out;
}

StatusOr<std::vector<EntityMetrics>> VsphereClient::QueryPerf(const std::vector<QuerySpec>& specs) {
  ASSIGN_OR_RETURN(std::string body, Call("QueryPerf", [&] { return QueryPerfRequest(sc_, specs); }));
  return Named("QueryPerf", ParseQueryPerf(body));
}

Status VsphereClient::Logout() {
  auto r = Call("Logout", [&] { return LogoutRequest(sc_); });
  return r.ok() ? Status::Ok() : r.status();
}

}  // namespace vrecon::vsphere
