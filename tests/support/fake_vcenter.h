// A tiny vCenter of our own for fault tests: plain HTTP/1.1 on 127.0.0.1 with a free port, one
// server thread (poll loop, keep-alive connections, Content-Length bodies), SOAP answers chosen
// by the operation element of the request body. It knows two powered-on VMs (vm-101 "WEB01",
// vm-102 "WEB02", 2 vCPUs each) on one host, the real vCenter 9.0.1 service content and the
// first 40 perf counters from fixtures/vsphere/, and a server clock the test sets.
//
//   auto vc = FakeVcenter::Start({.max_query_metrics = 4});   // one QueryPerf batch per VM
//   ASSERT_NE(vc, nullptr);
//   vc->SetPerfMode(PerfMode::kHttp503, "vm-102");           // only QueryPerf naming vm-102 fails
//   ... RunVrecon({"collect", "vsphere", "--url", vc->url(), ...});
//   EXPECT_EQ(vc->Count("Login"), 1);
#ifndef VRECON_TESTS_SUPPORT_FAKE_VCENTER_H_
#define VRECON_TESTS_SUPPORT_FAKE_VCENTER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace vrecon::testing {

// How QueryPerf is answered.
enum class PerfMode {
  kOk,                    // 200 with samples (normal or CSV format)
  kHttp500,               // 500 with a plain-text body (a proxy or a crashed service, not SOAP)
  kHttp503,               // 503 Service Unavailable, plain text
  kCut,                   // headers announce the whole body, half of it is written, connection closed
  kHang,                  // no answer for hang_s seconds, then the connection is closed
  kMalformedXml,          // 200 whose XML is broken (a mismatched end tag)
  kSoapFault,             // 500 with a SOAP fault (InvalidArgument)
  kNotAuthenticatedOnce,  // the next matching QueryPerf gets 500 + NotAuthenticated, then kOk again
  kNotAuthenticated,      // every matching QueryPerf gets 500 + NotAuthenticated
  // Hostile servers (issue 15). The streamed ones are generated as they are sent, never held.
  kTrickle,        // 200 announcing 1 MiB, then trickle_bytes_per_s bytes a second, for ever
  kSlowEndless,    // 200, chunked, 8 KiB/s of XML that never ends (above any pace floor)
  kHugeBody,       // 200 announcing 2 GiB (Content-Length), streamed as fast as the socket takes
  kEndlessBody,    // 200, chunked, no length: up to 2 GiB as fast as the socket takes
  kBillionLaughs,  // 200 whose DOCTYPE nests entities 10 x 9 deep (3 GB if expanded)
  kDeepNesting,    // 200 with 1,000,000 nested elements inside QueryPerfResponse (7 MB)
  kManyElements,   // 200 with 12 M empty elements (48 MB: about 770 MB of parser nodes)
};
const char* PerfModeName(PerfMode mode);

struct FakeVcenterOptions {
  std::string user = "svc-perf";
  std::string password = "Fake-Secret-7";  // anything else: InvalidLogin
  int max_query_metrics = 0;               // > 0: QueryOptions answers it; 0: QueryOptions faults
  bool csv = false;                        // answer QueryPerf as PerfEntityMetricCSV whatever was asked
  int hang_s = 5;                          // kHang: how long the connection stays silent
  int trickle_bytes_per_s = 1;             // kTrickle
  int64_t now_s = 1778010007;              // server clock (CurrentTime), Unix seconds: 2026-05-05T19:40:07Z
  // Login answers a SystemError fault whose text echoes the whole request (password included),
  // 500 times over: a hostile or broken server.
  bool echo_login_fault = false;
};

struct FakeResponse;  // fake_vcenter_wire.h
struct FakeConnection;

class FakeVcenter {
 public:
  struct Vm {
    std::string moid, name;
  };

  // Listens on 127.0.0.1:<free port> and serves from a background thread; nullptr on failure.
  static std::unique_ptr<FakeVcenter> Start(const FakeVcenterOptions& options = {});
  ~FakeVcenter();  // stops the thread, closes every connection
  FakeVcenter(const FakeVcenter&) = delete;
  FakeVcenter& operator=(const FakeVcenter&) = delete;

  std::string url() const;  // http://127.0.0.1:PORT/sdk
  const FakeVcenterOptions& options() const { return options_; }
  static const std::vector<Vm>& vms();  // vm-101 WEB01, vm-102 WEB02
  // Counter ids of the fixture's vrecon counters: cpu.usage.average 2, cpu.wait.summation 11,
  // cpu.ready.summation 12, cpu.used.summation 14 (costop and run are not among the first 40).
  static std::map<std::string, int> counter_ids();

  // The QueryPerf behaviour; with `only_entity` non-empty only requests naming that VM moid get
  // it, the others are answered normally.
  // only_entity: QueryPerf naming that VM; only_interval > 0: QueryPerf asking that intervalId.
  void SetPerfMode(PerfMode mode, const std::string& only_entity = "", int only_interval = 0);
  void SetNow(int64_t unix_s);
  void Advance(int64_t seconds);
  int64_t now() const;

  // Requests seen per operation element ("Login", "QueryPerf", "RetrievePropertiesEx", ...).
  int Count(const std::string& operation) const;
  int unauthenticated() const;  // requests that needed a session but carried no session cookie
  void ResetCounts();
  // Bytes written to sockets by the streamed modes, headers included.
  int64_t StreamedBytes() const;

  // The raw value the fake reports for a sample (what a test converts and compares).
  static int64_t RawValue(const std::string& entity, int counter_id, const std::string& instance, int64_t end_s);

 private:
  // Writes what the socket takes of a streamed answer; false when the connection is done.
  bool Pump(FakeConnection& c);
  explicit FakeVcenter(FakeVcenterOptions o) : options_(std::move(o)) {}
  void Serve();
  FakeResponse Handle(const std::string& headers, const std::string& body);
  std::string QueryPerfBody(const std::string& request) const;

  FakeVcenterOptions options_;
  std::string service_content_, perf_counters_;
  int listen_fd_ = -1, wake_[2] = {-1, -1}, port_ = 0;
  std::thread thread_;
  mutable std::mutex mu_;
  PerfMode mode_ = PerfMode::kOk;
  std::string mode_entity_;
  int mode_interval_ = 0;
  int64_t now_s_ = 0;
  std::map<std::string, int> counts_;
  int unauthenticated_ = 0;
  int views_ = 0;
  int64_t streamed_ = 0;
};

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_FAKE_VCENTER_H_
