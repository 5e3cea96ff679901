#include "tests/support/fake_vcenter.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>

#include "tests/support/cli_runner.h"
#include "tests/support/fake_vcenter_wire.h"

namespace vrecon::testing {

using Clock = std::chrono::steady_clock;

namespace {

constexpr int kInterval = 20;

const char* Reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
  }
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The text of the first <tag ...>text</tag> at or after `from` (prefix-free tags, as our
// client writes them).
std::optional<std::string> Text(const std::string& s, const std::string& tag, size_t from = 0,
                                size_t* after = nullptr) {
  size_t pos = from;
  while (true) {
    pos = s.find("<" + tag, pos);
    if (pos == std::string::npos) return std::nullopt;
    const char next = pos + 1 + tag.size() < s.size() ? s[pos + 1 + tag.size()] : '\0';
    if (next == '>' || next == ' ') break;
    pos += 1;
  }
  const size_t open_end = s.find('>', pos);
  if (open_end == std::string::npos) return std::nullopt;
  const size_t close = s.find("</" + tag + ">", open_end);
  if (close == std::string::npos) return std::nullopt;
  if (after) *after = close + tag.size() + 3;
  return s.substr(open_end + 1, close - open_end - 1);
}

// Local name of the first element inside the SOAP Body.
std::string Operation(const std::string& body) {
  size_t pos = body.find("Body");
  if (pos == std::string::npos) return "";
  pos = body.find('<', pos);
  if (pos == std::string::npos) return "";
  size_t end = body.find_first_of(" />", pos + 1);
  if (end == std::string::npos) return "";
  std::string name = body.substr(pos + 1, end - pos - 1);
  const size_t colon = name.find(':');
  return colon == std::string::npos ? name : name.substr(colon + 1);
}

std::string FormatTime(int64_t unix_s) {
  const time_t t = static_cast<time_t>(unix_s);
  tm c{};
  gmtime_r(&t, &c);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &c);
  return buf;
}

std::optional<int64_t> ParseTime(const std::string& s) {
  tm c{};
  if (std::sscanf(s.c_str(), "%d-%d-%dT%d:%d:%d", &c.tm_year, &c.tm_mon, &c.tm_mday, &c.tm_hour, &c.tm_min,
                  &c.tm_sec) != 6)
    return std::nullopt;
  c.tm_year -= 1900;
  c.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&c));
}

std::string Envelope(const std::string& body) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<soapenv:Envelope xmlns:soapenc=\"http://schemas.xmlsoap.org/soap/encoding/\"\n"
         " xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"\n"
         " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"\n"
         " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n<soapenv:Body>\n" +
         body + "\n</soapenv:Body>\n</soapenv:Envelope>";
}

std::string FaultBody(const std::string& type, const std::string& message, const std::string& detail = "") {
  return Envelope("<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>" + message +
                  "</faultstring><detail><" + type + "Fault xmlns=\"urn:vim25\" xsi:type=\"" + type + "\">" + detail +
                  "</" + type + "Fault></detail></soapenv:Fault>");
}

std::string PropSet(const std::string& name, const std::string& val) {
  return "<propSet><name>" + name + "</name>" + val + "</propSet>";
}

}  // namespace

const char* PerfModeName(PerfMode mode) {
  switch (mode) {
    case PerfMode::kOk: return "Ok";
    case PerfMode::kHttp500: return "Http500";
    case PerfMode::kHttp503: return "Http503";
    case PerfMode::kCut: return "Cut";
    case PerfMode::kHang: return "Hang";
    case PerfMode::kMalformedXml: return "MalformedXml";
    case PerfMode::kSoapFault: return "SoapFault";
    case PerfMode::kNotAuthenticatedOnce: return "NotAuthenticatedOnce";
    case PerfMode::kNotAuthenticated: return "NotAuthenticated";
    case PerfMode::kTrickle: return "Trickle";
    case PerfMode::kSlowEndless: return "SlowEndless";
    case PerfMode::kHugeBody: return "HugeBody";
    case PerfMode::kEndlessBody: return "EndlessBody";
    case PerfMode::kBillionLaughs: return "BillionLaughs";
    case PerfMode::kDeepNesting: return "DeepNesting";
    case PerfMode::kManyElements: return "ManyElements";
  }
  return "?";
}

const std::vector<FakeVcenter::Vm>& FakeVcenter::vms() {
  static const std::vector<Vm> v = {{"vm-101", "WEB01"}, {"vm-102", "WEB02"}};
  return v;
}

std::map<std::string, int> FakeVcenter::counter_ids() {
  return {
      {"cpu.usage.average", 2}, {"cpu.wait.summation", 11}, {"cpu.ready.summation", 12}, {"cpu.used.summation", 14}};
}

int64_t FakeVcenter::RawValue(const std::string& entity, int counter_id, const std::string& instance, int64_t end_s) {
  const int64_t vm = entity == "vm-102" ? 7 : 0;
  const int64_t inst = instance.empty() ? 0 : 1 + std::atoi(instance.c_str());
  const int64_t k = (end_s / kInterval + vm + 3 * inst) % 50;
  if (counter_id == 2) return 1500 + 20 * k;   // hundredths of a percent: 15.00 .. 24.80
  return 100 * (counter_id % 5 + 1) + 10 * k;  // milliseconds of a 20 s interval
}

std::unique_ptr<FakeVcenter> FakeVcenter::Start(const FakeVcenterOptions& options) {
  std::unique_ptr<FakeVcenter> f(new FakeVcenter(options));
  f->now_s_ = options.now_s;
  f->service_content_ = ReadText(Fixture("vsphere/vc901-service-content.xml"));
  f->perf_counters_ = ReadText(Fixture("vsphere/vc901-perfcounter-first40.xml"));
  if (f->service_content_.empty() || f->perf_counters_.empty()) return nullptr;
  f->listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (f->listen_fd_ < 0) return nullptr;
  const int one = 1;
  setsockopt(f->listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (bind(f->listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return nullptr;
  if (listen(f->listen_fd_, 64) != 0) return nullptr;
  socklen_t len = sizeof addr;
  if (getsockname(f->listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return nullptr;
  f->port_ = ntohs(addr.sin_port);
  if (pipe2(f->wake_, O_CLOEXEC) != 0) return nullptr;
  f->thread_ = std::thread([p = f.get()] { p->Serve(); });
  return f;
}

FakeVcenter::~FakeVcenter() {
  if (thread_.joinable()) {
    const char c = 'x';
    (void)!write(wake_[1], &c, 1);
    thread_.join();
  }
  for (int fd : {listen_fd_, wake_[0], wake_[1]})
    if (fd >= 0) close(fd);
}

std::string FakeVcenter::url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/sdk"; }

void FakeVcenter::SetPerfMode(PerfMode mode, const std::string& only_entity, int only_interval) {
  std::lock_guard<std::mutex> lock(mu_);
  mode_ = mode;
  mode_entity_ = only_entity;
  mode_interval_ = only_interval;
}

void FakeVcenter::SetNow(int64_t unix_s) {
  std::lock_guard<std::mutex> lock(mu_);
  now_s_ = unix_s;
}

void FakeVcenter::Advance(int64_t seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  now_s_ += seconds;
}

int64_t FakeVcenter::now() const {
  std::lock_guard<std::mutex> lock(mu_);
  return now_s_;
}

int FakeVcenter::Count(const std::string& operation) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = counts_.find(operation);
  return it == counts_.end() ? 0 : it->second;
}

int64_t FakeVcenter::StreamedBytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return streamed_;
}

bool FakeVcenter::Pump(FakeConnection& c) {
  constexpr int64_t kPiece = 64 * 1024;
  while (true) {
    if (c.pending.empty()) {
      if (c.body_sent >= c.stream->total) return false;  // all sent: close
      int64_t allowed = kPiece;
      if (c.stream->bytes_per_s > 0) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - c.stream_start).count();
        allowed = std::min<int64_t>(kPiece, 1 + static_cast<int64_t>(elapsed * c.stream->bytes_per_s) - c.body_sent);
      }
      if (allowed <= 0) return true;  // the pace says wait
      MakeStreamBytes(*c.stream, allowed, &c.body_sent, &c.pending);
    }
    const ssize_t w = send(c.fd, c.pending.data(), c.pending.size(), MSG_NOSIGNAL);
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    if (w <= 0) return false;  // the client hung up
    c.pending.erase(0, static_cast<size_t>(w));
    std::lock_guard<std::mutex> lock(mu_);
    streamed_ += w;
  }
}

int FakeVcenter::unauthenticated() const {
  std::lock_guard<std::mutex> lock(mu_);
  return unauthenticated_;
}

void FakeVcenter::ResetCounts() {
  std::lock_guard<std::mutex> lock(mu_);
  counts_.clear();
  unauthenticated_ = 0;
}

// One thread, many connections: poll() over the listening socket, a wake-up pipe and every
// open connection. A "hanging" connection is simply not answered until its deadline; a streamed
// answer is made and written a piece at a time as the socket takes it (and its pace allows).
void FakeVcenter::Serve() {
  std::vector<FakeConnection> conns;
  auto send_all = [](int fd, const char* p, size_t n) {
    while (n > 0) {
      const ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
      if (w <= 0) return false;
      p += w;
      n -= static_cast<size_t>(w);
    }
    return true;
  };
  while (true) {
    std::vector<pollfd> fds;
    fds.push_back({wake_[0], POLLIN, 0});
    fds.push_back({listen_fd_, POLLIN, 0});
    for (const FakeConnection& c : conns)
      fds.push_back({c.fd, static_cast<short>(c.pending.empty() ? POLLIN : POLLIN | POLLOUT), 0});
    if (poll(fds.data(), fds.size(), 50) < 0 && errno != EINTR) break;
    if (fds[0].revents) break;
    if (fds[1].revents & POLLIN) {
      const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd >= 0) {
        FakeConnection c;
        c.fd = fd;
        conns.push_back(std::move(c));
      }
    }
    const auto now = Clock::now();
    for (size_t i = 0; i < conns.size(); ++i) {
      FakeConnection& c = conns[i];
      bool close_it = c.hang_until && now >= *c.hang_until;
      // A connection accepted in this round has no poll entry yet.
      const bool readable = i + 2 < fds.size() && (fds[i + 2].revents & (POLLIN | POLLHUP | POLLERR));
      if (!close_it && readable) {
        char buf[16384];
        const ssize_t n = recv(c.fd, buf, sizeof buf, 0);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
          // a streaming (non-blocking) connection with nothing to read
        } else if (n <= 0) {
          close_it = true;
        } else if (!c.hang_until && !c.stream) {
          c.in.append(buf, static_cast<size_t>(n));
        }
      }
      if (!close_it && c.stream && !Pump(c)) close_it = true;
      // Every complete request in the buffer, in order (keep-alive).
      while (!close_it && !c.hang_until && !c.stream) {
        const size_t head_end = c.in.find("\r\n\r\n");
        if (head_end == std::string::npos) break;
        const std::string head = c.in.substr(0, head_end);
        size_t length = 0;
        const std::string lower = Lower(head);
        const size_t cl = lower.find("\r\ncontent-length:");
        if (cl != std::string::npos) length = std::strtoul(head.c_str() + cl + 17, nullptr, 10);
        if (c.in.size() < head_end + 4 + length) break;
        const std::string body = c.in.substr(head_end + 4, length);
        c.in.erase(0, head_end + 4 + length);
        FakeResponse r = Handle(head, body);
        if (r.hang) {
          c.hang_until = now + std::chrono::seconds(options_.hang_s);
          break;
        }
        if (r.stream) {
          c.pending = "HTTP/1.1 200 OK\r\nContent-Type: " + r.content_type + "\r\n" +
                      (r.stream->chunked ? "Transfer-Encoding: chunked\r\n"
                                         : "Content-Length: " + std::to_string(r.stream->announced) + "\r\n") +
                      "Connection: close\r\n\r\n";
          c.stream = std::move(r.stream);
          c.stream_start = now;
          fcntl(c.fd, F_SETFL, fcntl(c.fd, F_GETFL) | O_NONBLOCK);  // the loop must not block on one client
          if (!Pump(c)) close_it = true;
          break;
        }
        std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + Reason(r.status) +
                          "\r\nContent-Type: " + r.content_type +
                          "\r\nContent-Length: " + std::to_string(r.body.size()) + "\r\n" + r.extra_headers +
                          (r.cut ? "Connection: close\r\n" : "Connection: keep-alive\r\n") + "\r\n";
        out += r.cut ? r.body.substr(0, r.body.size() / 2) : r.body;
        if (!send_all(c.fd, out.data(), out.size()) || r.cut) close_it = true;
      }
      if (close_it) {
        close(c.fd);
        c.fd = -1;
      }
    }
    // Keep the pollfd indices of the next round simple: drop closed connections now.
    conns.erase(std::remove_if(conns.begin(), conns.end(), [](const FakeConnection& c) { return c.fd < 0; }),
                conns.end());
  }
  for (FakeConnection& c : conns) close(c.fd);
}

FakeResponse FakeVcenter::Handle(const std::string& head, const std::string& body) {
  const std::string op = Operation(body);
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_[op];
  FakeResponse r;
  auto fault = [&](const std::string& type, const std::string& message, const std::string& detail = "") {
    r.status = 500;
    r.body = FaultBody(type, message, detail);
  };
  const bool has_session = Lower(head).find("\r\ncookie:") != std::string::npos &&
                           head.find("vmware_soap_session=\"abc\"") != std::string::npos;
  if (op != "RetrieveServiceContent" && op != "Login" && !has_session) {
    ++unauthenticated_;
    fault("NotAuthenticated", "The session is not authenticated.");
    return r;
  }

  if (op == "RetrieveServiceContent") {
    r.body = service_content_;
  } else if (op == "Login") {
    const std::string user = Text(body, "userName").value_or("");
    std::string password = Text(body, "password").value_or("");
    if (options_.echo_login_fault) {
      std::string escaped;  // as a server puts text into XML
      for (char ch : body)
        escaped += ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : ch == '&' ? "&amp;" : std::string(1, ch);
      std::string echo;
      for (int i = 0; i < 500; ++i) echo += "you sent password " + password + " in: " + escaped + " ";
      fault("SystemError", echo);
    } else if (user != options_.user || password != options_.password) {
      fault("InvalidLogin", "Cannot complete login due to an incorrect user name or password.");
    } else {
      r.extra_headers = "Set-Cookie: vmware_soap_session=\"abc\"; Path=/; HttpOnly\r\n";
      r.body = Envelope("<LoginResponse xmlns=\"urn:vim25\"><returnval><key>52a1-fake</key><userName>" + user +
                        "</userName><fullName>" + user + "</fullName><loginTime>" + FormatTime(now_s_) +
                        "</loginTime><lastActiveTime>" + FormatTime(now_s_) +
                        "</lastActiveTime><locale>en</locale><messageLocale>en</messageLocale>"
                        "<extensionSession>false</extensionSession><ipAddress>127.0.0.1</ipAddress>"
                        "<userAgent>vrecon</userAgent><callCount>0</callCount></returnval></LoginResponse>");
    }
  } else if (op == "CurrentTime") {
    r.body = Envelope("<CurrentTimeResponse xmlns=\"urn:vim25\"><returnval>" +
                      FormatTime(now_s_).insert(19, ".356684") + "</returnval></CurrentTimeResponse>");
  } else if (op == "QueryOptions") {
    if (options_.max_query_metrics > 0) {
      r.body = Envelope(
          "<QueryOptionsResponse xmlns=\"urn:vim25\"><returnval><key>config.vpxd.stats.maxQueryMetrics</key>"
          "<value xsi:type=\"xsd:int\">" +
          std::to_string(options_.max_query_metrics) + "</value></returnval></QueryOptionsResponse>");
    } else {
      fault("InvalidName", "A specified parameter was not correct: name",
            "<name>config.vpxd.stats.maxQueryMetrics</name>");
    }
  } else if (op == "CreateContainerView") {
    r.body =
        Envelope("<CreateContainerViewResponse xmlns=\"urn:vim25\"><returnval type=\"ContainerView\">session[52a1]" +
                 std::to_string(++views_) + "</returnval></CreateContainerViewResponse>");
  } else if (op == "DestroyView") {
    r.body = Envelope("<DestroyViewResponse xmlns=\"urn:vim25\"></DestroyViewResponse>");
  } else if (op == "RetrievePropertiesEx" && body.find("<pathSet>perfCounter</pathSet>") != std::string::npos) {
    r.body = perf_counters_;  // a RetrieveProperties answer; the client matches by local name
  } else if (op == "RetrievePropertiesEx" && body.find("<type>VirtualMachine</type>") != std::string::npos) {
    std::string objects;
    for (const Vm& vm : vms()) {
      objects += "<objects><obj type=\"VirtualMachine\">" + vm.moid + "</obj>" +
                 PropSet("config.hardware.numCPU", "<val xsi:type=\"xsd:int\">2</val>") +
                 PropSet("guest.hostName", "<val xsi:type=\"xsd:string\">" + Lower(vm.name) + ".lab.example</val>") +
                 PropSet("name", "<val xsi:type=\"xsd:string\">" + vm.name + "</val>") +
                 PropSet("runtime.host", "<val type=\"HostSystem\" xsi:type=\"ManagedObjectReference\">host-10</val>") +
                 PropSet("runtime.powerState", "<val xsi:type=\"VirtualMachinePowerState\">poweredOn</val>") +
                 "</objects>";
    }
    r.body = Envelope("<RetrievePropertiesExResponse xmlns=\"urn:vim25\"><returnval>" + objects +
                      "</returnval></RetrievePropertiesExResponse>");
  } else if (op == "RetrievePropertiesEx" && body.find("<type>HostSystem</type>") != std::string::npos) {
    r.body = Envelope(
        "<RetrievePropertiesExResponse xmlns=\"urn:vim25\"><returnval><objects>"
        "<obj type=\"HostSystem\">host-10</obj>" +
        PropSet("name", "<val xsi:type=\"xsd:string\">esx01.lab.example</val>") +
        PropSet("summary.hardware.cpuMhz", "<val xsi:type=\"xsd:int\">2600</val>") +
        PropSet("summary.hardware.numCpuCores", "<val xsi:type=\"xsd:short\">16</val>") +
        PropSet("summary.hardware.numCpuThreads", "<val xsi:type=\"xsd:short\">32</val>") +
        PropSet("config.hyperThread.active", "<val xsi:type=\"xsd:boolean\">true</val>") +
        PropSet("parent", "<val type=\"ClusterComputeResource\" xsi:type=\"ManagedObjectReference\">domain-c7</val>") +
        "</objects></returnval></RetrievePropertiesExResponse>");
  } else if (op == "RetrievePropertiesEx" && body.find("<type>ClusterComputeResource</type>") != std::string::npos) {
    r.body = Envelope(
        "<RetrievePropertiesExResponse xmlns=\"urn:vim25\"><returnval><objects>"
        "<obj type=\"ClusterComputeResource\">domain-c7</obj>" +
        PropSet("configurationEx",
                "<val xsi:type=\"ClusterConfigInfoEx\"><dasConfig><enabled>true</enabled><admissionControlEnabled>"
                "true</admissionControlEnabled><admissionControlPolicy "
                "xsi:type=\"ClusterFailoverResourcesAdmissionControlPolicy\"><cpuFailoverResourcesPercent>25</"
                "cpuFailoverResourcesPercent></admissionControlPolicy></dasConfig></val>") +
        PropSet("name", "<val xsi:type=\"xsd:string\">Cluster01</val>") +
        "</objects></returnval></RetrievePropertiesExResponse>");
  } else if (op == "QueryPerf") {
    const bool matches = (mode_entity_.empty() || body.find(">" + mode_entity_ + "</entity>") != std::string::npos) &&
                         (mode_interval_ == 0 || body.find("<intervalId>" + std::to_string(mode_interval_) +
                                                           "</intervalId>") != std::string::npos);
    const PerfMode mode = matches ? mode_ : PerfMode::kOk;
    if (mode == PerfMode::kNotAuthenticatedOnce) mode_ = PerfMode::kOk;
    switch (mode) {
      case PerfMode::kOk: r.body = QueryPerfBody(body); break;
      case PerfMode::kHttp500:
        r.status = 500;
        r.content_type = "text/plain";
        r.body = "Internal Server Error\n";
        break;
      case PerfMode::kHttp503:
        r.status = 503;
        r.content_type = "text/plain";
        r.body = "Service Unavailable\n";
        break;
      case PerfMode::kCut:
        r.body = QueryPerfBody(body);
        r.cut = true;
        break;
      case PerfMode::kHang: r.hang = true; break;
      case PerfMode::kMalformedXml: {
        r.body = QueryPerfBody(body);
        const size_t end = r.body.find("</QueryPerfResponse>");
        r.body.replace(end, 20, "</QueryPerfAnswer>");
        break;
      }
      case PerfMode::kSoapFault:
        fault("InvalidArgument", "A specified parameter was not correct: querySpec.interval",
              "<invalidProperty>querySpec.interval</invalidProperty>");
        break;
      case PerfMode::kNotAuthenticatedOnce:
      case PerfMode::kNotAuthenticated:
        fault("NotAuthenticated", "The session is not authenticated.",
              "<object type=\"PerformanceManager\">PerfMgr</object><privilegeId>System.View</privilegeId>");
        break;
      default: HostileAnswer(mode, options_, &r); break;
    }
  } else if (op == "Logout") {
    r.body = Envelope("<LogoutResponse xmlns=\"urn:vim25\"></LogoutResponse>");
  } else {
    fault("MethodFault", "The fake vCenter does not implement " + op);
  }
  return r;
}

// Samples at boundaries of the asked interval (20 s unless intervalId says otherwise) in
// (startTime, endTime], the newest maxSample of them, oldest
// first, for every asked counter as the aggregate ("") and per vCPU ("0", "1").
std::string FakeVcenter::QueryPerfBody(const std::string& request) const {
  std::string out;
  size_t pos = 0, after = 0;
  while (auto spec = Text(request, "querySpec", pos, &after)) {
    pos = after;
    const std::string entity = Text(*spec, "entity").value_or("");
    if (std::none_of(vms().begin(), vms().end(), [&](const Vm& v) { return v.moid == entity; })) continue;
    const std::optional<int64_t> start = ParseTime(Text(*spec, "startTime").value_or(""));
    const int64_t end = ParseTime(Text(*spec, "endTime").value_or("")).value_or(now_s_);
    const int max_sample = std::atoi(Text(*spec, "maxSample").value_or("0").c_str());
    // The interval asked (20 s realtime, 300 s rollup); samples on its boundaries.
    int step = std::atoi(Text(*spec, "intervalId").value_or("0").c_str());
    if (step <= 0) step = kInterval;
    const bool csv = options_.csv || Text(*spec, "format").value_or("normal") == "csv";
    std::vector<int> ids;
    size_t ipos = 0, iafter = 0;
    while (auto id = Text(*spec, "counterId", ipos, &iafter)) {
      ids.push_back(std::atoi(id->c_str()));
      ipos = iafter;
    }
    std::vector<int64_t> ends;
    for (int64_t t = end / step * step; (!start || t > *start) && (max_sample <= 0 || (int)ends.size() < max_sample);
         t -= step)
      ends.push_back(t);
    if (ends.empty()) continue;
    std::reverse(ends.begin(), ends.end());
    out += std::string("<returnval xsi:type=\"") + (csv ? "PerfEntityMetricCSV" : "PerfEntityMetric") +
           "\"><entity type=\"VirtualMachine\">" + entity + "</entity>";
    if (csv) {
      out += "<sampleInfoCSV>";
      for (size_t i = 0; i < ends.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(step) + "," + FormatTime(ends[i]);
      }
      out += "</sampleInfoCSV>";
    } else {
      for (int64_t t : ends)
        out += "<sampleInfo><timestamp>" + FormatTime(t) + "</timestamp><interval>" + std::to_string(step) +
               "</interval></sampleInfo>";
    }
    for (int id : ids) {
      for (const std::string instance : {"", "0", "1"}) {
        out +=
            std::string(csv ? "<value xsi:type=\"PerfMetricSeriesCSV\">" : "<value xsi:type=\"PerfMetricIntSeries\">") +
            "<id><counterId>" + std::to_string(id) + "</counterId><instance>" + instance + "</instance></id>";
        if (csv) {
          out += "<value>";
          for (size_t i = 0; i < ends.size(); ++i) {
            if (i) out += ',';
            out += std::to_string(RawValue(entity, id, instance, ends[i]));
          }
          out += "</value>";
        } else {
          for (int64_t t : ends) out += "<value>" + std::to_string(RawValue(entity, id, instance, t)) + "</value>";
        }
        out += "</value>";
      }
    }
    out += "</returnval>";
  }
  return Envelope("<QueryPerfResponse xmlns=\"urn:vim25\">" + out + "</QueryPerfResponse>");
}

}  // namespace vrecon::testing
