// govmomi's vCenter simulator (tests/vcsim/main.go) as a child process for integration tests:
// HTTPS on 127.0.0.1 with a free port, a private CA, one required user/password.
//
//   TEST(Vsphere, Something) {
//     VRECON_REQUIRE_VCSIM();                       // GTEST_SKIP when go was not found at build
//     auto sim = vrecon::testing::Vcsim::Start({.vms = 3});
//     ASSERT_NE(sim, nullptr) << vrecon::testing::Vcsim::last_error();
//     ... sim->url(), sim->ca_file(), sim->user(), sim->password() ...
//     sim->ExpireSessions();                        // next call with an old cookie: NotAuthenticated
//   }                                               // destructor: SIGTERM, wait
#ifndef VRECON_TESTS_SUPPORT_VCSIM_H_
#define VRECON_TESTS_SUPPORT_VCSIM_H_

#include <sys/types.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "src/core/time_util.h"
#include "src/store/vsphere_marks.h"
#include "tests/support/cli_runner.h"

namespace vrecon::testing {

struct VcsimOptions {
  int vms = 3;                              // total VMs, exactly
  std::string user = "vrecon";              // the only user Login accepts...
  std::string password = "vcsim-Secret-1";  // ...with this password (else InvalidLogin)
  int hosts = 1;                            // standalone hosts (each gets a share of the VMs)
  int clusters = 1;                         // clusters of 3 hosts (each gets a share of the VMs)
  int max_query_metrics = 0;                // > 0: OptionManager publishes config.vpxd.stats.maxQueryMetrics
  // > 0: PerformanceManager lists vCenter's four default historical intervals at this statistics
  // level (the simulator's counters carry a real vCenter's levels: cpu.usage 1, cpu.run 2, ...),
  // the 5-minute one kept `day_keep_s`; 0: it lists none, as the simulator does.
  int stats_level = 0;
  int day_keep_s = 86400;
  int port = 0;  // HTTPS port on 127.0.0.1; 0 = a free one (note: each start makes a new CA)
  int start_timeout_s = 20;
};

class Vcsim {
 public:
  // True when the build found `go` and built the simulator (VRECON_VCSIM_BIN non-empty).
  static bool Available();
  static std::string BinaryPath();

  // Starts the simulator and waits until it serves; nullptr on failure (see last_error()).
  static std::unique_ptr<Vcsim> Start(const VcsimOptions& options = {});
  static const std::string& last_error();

  ~Vcsim();  // SIGTERM, wait (SIGKILL after 5 s)
  Vcsim(const Vcsim&) = delete;
  Vcsim& operator=(const Vcsim&) = delete;

  const std::string& url() const { return url_; }          // https://127.0.0.1:PORT/sdk
  const std::string& ca_file() const { return ca_file_; }  // PEM of the CA that signed the server
  const std::string& user() const { return options_.user; }
  const std::string& password() const { return options_.password; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string log() const;  // what the simulator printed (for failure messages)

  // Terminates every session now (synchronously, over a loopback admin port). Calls with an old
  // vmware_soap_session cookie then fault with NotAuthenticated. Returns false on failure.
  bool ExpireSessions();
  // Moves the server's clock (its CurrentTime answer) `seconds` forward from now on, so that the
  // next round asks for, and gets, that many seconds of new samples. Returns false on failure.
  bool AdvanceClock(int seconds);

 private:
  bool AdminPost(const std::string& path);
  Vcsim() = default;
  VcsimOptions options_;
  TempDir dir_;
  pid_t pid_ = -1;
  std::string url_, ca_file_, admin_host_;
  int port_ = 0, admin_port_ = 0;
};

// A fleet file's [[vcenter]] table for `sim`: its URL, user and CA, the password from the
// environment variable VRECON_TEST_VC_PW, and the VMs matching the glob `vms`.
std::string VcenterToml(const std::string& name, const Vcsim& sim, int concurrency = 2, const std::string& vms = "*");

// `vrecon collect vsphere` against `sim` into the store `db`, for the last 5 minutes, as JSON, with
// `extra` options after; the password goes through the environment, as a user's would.
CliResult CollectVsphere(const Vcsim& sim, const std::string& db, const std::vector<std::string>& extra = {});

// How many of a vCenter's high-water marks (VsphereMarks) are its VMs': the simulator's VM
// moids start "vm-"; the rest are its hosts' own counters'.
size_t VmMarks(const std::map<MarkKey, TimeNs>& marks);

}  // namespace vrecon::testing

// Skips the current test with a clear message when the simulator was not built.
#define VRECON_REQUIRE_VCSIM()                                                              \
  do {                                                                                      \
    if (!::vrecon::testing::Vcsim::Available())                                             \
      GTEST_SKIP() << "vCenter simulator not built: `go` (golang-go) or govmomi sources "   \
                      "(golang-github-vmware-govmomi-dev) were not found when configuring"; \
  } while (0)

#endif  // VRECON_TESTS_SUPPORT_VCSIM_H_
