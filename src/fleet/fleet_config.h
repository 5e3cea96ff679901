// The fleet description `vrecon collect --config FILE` reads: vCenters, drop folders, guest-to-VM
// mappings, the store and the correction window, in TOML. docs/config.md documents every key.
#ifndef VRECON_SRC_FLEET_FLEET_CONFIG_H_
#define VRECON_SRC_FLEET_FLEET_CONFIG_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/host_counters.h"
#include "src/core/status.h"
#include "src/core/time_util.h"

namespace vrecon::fleet {

struct VcenterConfig {
  std::string id;  // `name`, else the URL: the source's name in status and logs
  std::string url, user;
  std::string password;  // resolved from password_env or password_file at load; never printed
  std::string ca;
  bool insecure = false;
  bool allow_http = false;           // allow_insecure_http = true: a plain http:// url is accepted
  std::vector<std::string> include;  // VM name globs; empty = every VM
  std::vector<std::string> exclude;
  bool historical = false;  // 300 s rollups instead of 20 s realtime
  int backfill_days = 0;    // a VM or host seen the first time: its history from the rollups
  int concurrency = 4;
  int timeout_s = 120;
};

struct DropFolderConfig {
  std::string path;
  bool recursive = false;
  std::vector<std::string> include;  // file name globs; empty = every file
  std::vector<std::string> exclude;
};

struct FleetConfig {
  std::string file;  // where it was read from
  std::string db;
  int window_s = 300;
  TimeNs since = 3600 * kNsPerSec;              // how far back a never-collected VM starts
  int parallel_sources = 4;                     // sources collected at once
  int retries = 3;                              // extra attempts of a source after a transient fault
  TimeNs retry_backoff = 2 * kNsPerSec;         // first wait; doubles per attempt
  TimeNs settle = 2 * kNsPerSec;                // a drop file must keep its size this long
  std::map<std::string, std::string> mappings;  // guest -> VM
  // Retention after each round (vrecon prune): keep samples / stored corrections this long.
  std::optional<TimeNs> retain_samples, retain_corrections;
  // vsphere_counter, esxtop_counter (as --vsphere-counter, --esxtop-counter); Hyper-V's default.
  HostCounterChoice host_counters;
  std::vector<VcenterConfig> vcenters;
  std::vector<DropFolderConfig> drop_folders;
};

// "30s", "5m", "1h", "2d"; a bare number is seconds.
std::optional<TimeNs> ParseDuration(const std::string& text);

// What a configuration refers to outside its own text: environment variables and files. The
// real ones by default; the fuzz target (fuzz/fleet_toml_fuzzer.cc) passes stand-ins so that
// checking a text touches neither the environment nor the disk.
struct ConfigLookups {
  std::function<std::optional<std::string>(const std::string& name)> env;  // nullopt when unset
  // The password in an owner-only file: its first line without the line end. An error is one
  // sentence naming the file ("cannot read F", "F is readable by group or others; ...").
  std::function<StatusOr<std::string>(const std::string& path)> password_file;
  std::function<bool(const std::string& path)> is_regular_file;
};
ConfigLookups SystemLookups();

// Checks a configuration held in `text`; `path` names it in messages and its directory anchors
// relative paths. Errors are InvalidArgument with one sentence "FILE:LINE: KEY: what is wrong".
// Passwords are resolved here: password_env must be set, password_file must be owner-only.
StatusOr<FleetConfig> ParseFleetConfig(std::string_view text, const std::string& path, const ConfigLookups& lookups);

// Reads the file and checks it as ParseFleetConfig does with SystemLookups(); IOError when the
// file cannot be read.
StatusOr<FleetConfig> LoadFleetConfig(const std::string& path);

}  // namespace vrecon::fleet

#endif  // VRECON_SRC_FLEET_FLEET_CONFIG_H_
