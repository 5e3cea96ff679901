// A vSphere API session: log in, read inventory and counters, query performance data, log
// out. A NotAuthenticated fault (expired session) logs in again and retries the call once.
// One client = one connection; Clone() opens another connection on the same session for
// parallel queries. Not thread-safe itself: one client per thread.
#ifndef VRECON_ADAPTERS_VSPHERE_VSPHERE_CLIENT_H_
#define VRECON_ADAPTERS_VSPHERE_VSPHERE_CLIENT_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adapters/vsphere/http_transport.h"
#include "adapters/vsphere/vsphere_xml.h"

namespace vrecon::vsphere {

struct ClientOptions {
  TransportOptions transport;
  std::string user;
  std::string password;  // from the environment or an owner-only file; never printed
};

struct VmInfo {
  std::string moid, name, host_moid, power_state, guest_hostname;
  int num_cpu = 0;
};

struct HostInfo {
  std::string moid, name;
  int cores = 0;
  int threads = 0;  // logical processors; 0 when the server does not say
  int mhz = 0;
  std::optional<bool> hyperthreading;  // active, as config.hyperThread says; unset when it does not
  std::string cluster_moid;            // its ClusterComputeResource; "" for a standalone host
  bool connected = true;               // runtime.connectionState; true when the server does not say
};
struct ClusterInfo {
  std::string moid, name;
  HaReserve ha;  // its HA admission control's reserve, when it says
};

class VsphereClient {
 public:
  // RetrieveServiceContent + Login. A wrong password is InvalidArgument naming user and URL.
  static StatusOr<std::unique_ptr<VsphereClient>> Connect(const ClientOptions& options);
  StatusOr<std::unique_ptr<VsphereClient>> Clone() const;

  StatusOr<TimeNs> CurrentTime();
  StatusOr<std::vector<CounterInfo>> PerfCounters();
  StatusOr<std::vector<PerfInterval>> HistoricalIntervals();
  // config.vpxd.stats.maxQueryMetrics through the OptionManager; 64 when it cannot be read,
  // `unlimited` when the server says -1 (no limit).
  int MaxQueryMetrics(int unlimited);
  StatusOr<std::vector<VmInfo>> VirtualMachines();
  StatusOr<std::vector<HostInfo>> Hosts();
  StatusOr<std::vector<ClusterInfo>> Clusters();
  StatusOr<std::vector<EntityMetrics>> QueryPerf(const std::vector<QuerySpec>& specs);
  Status Logout();

  const ServiceContent& service_content() const { return sc_; }
  const TransportStats& stats() const { return transport_->stats(); }
  int relogins() const { return relogins_; }

 private:
  // A server's fault text as shown to people: the password masked, at most 300 characters.
  std::string ServerText(std::string text) const;
  // An answer that could not be read, said with the call and the server it came from.
  Status Unreadable(const char* what, const Status& s) const;
  template <typename T>
  StatusOr<T> Named(const char* what, StatusOr<T> r) const {
    if (!r.ok()) return Unreadable(what, r.status());
    return r;
  }
  VsphereClient(ClientOptions o, std::unique_ptr<HttpTransport> t) : options_(std::move(o)), transport_(std::move(t)) {}
  Status Login();
  // Posts a request; on NotAuthenticated logs in again and posts it once more. Faults become
  // errors naming the call and the server's message.
  StatusOr<std::string> Call(const char* what, const std::function<std::string()>& make_request);
  StatusOr<std::vector<ObjectProps>> RetrieveView(std::string_view type, const std::vector<std::string>& paths);

  ClientOptions options_;
  std::unique_ptr<HttpTransport> transport_;
  ServiceContent sc_;
  int relogins_ = 0;
};

}  // namespace vrecon::vsphere

#endif  // VRECON_ADAPTERS_VSPHERE_VSPHERE_CLIENT_H_
