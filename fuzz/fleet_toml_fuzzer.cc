// The fleet file of `vrecon collect --config` (src/fleet/fleet_config): TOML (toml++, compiled
// into this target so that coverage reaches into it) and every check of docs/config.md. The
// environment and the disk are stand-ins (ConfigLookups): a checked text touches neither.
// Properties: a configuration accepted is within the documented ranges and names a source; the
// password never appears in an error message, whatever the text around it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_check.h"
#include "src/fleet/fleet_config.h"

using namespace vrecon;

namespace {

constexpr const char* kSecret = "s3cr3t-Pa55";  // what every password lookup answers

fleet::ConfigLookups FakeLookups() {
  fleet::ConfigLookups l;
  l.env = [](const std::string& name) -> std::optional<std::string> {
    if (name.starts_with("UNSET")) return std::nullopt;
    return std::string(kSecret);
  };
  l.password_file = [](const std::string& path) -> StatusOr<std::string> {
    if (path.find("missing") != std::string::npos) return Status::IOError("cannot read " + path);
    return std::string(kSecret);
  };
  l.is_regular_file = [](const std::string& path) { return path.find("missing") == std::string::npos; };
  return l;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fleet::ConfigLookups lookups = FakeLookups();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto cfg = fleet::ParseFleetConfig(text, "/fuzz/fleet.toml", lookups);
  if (!cfg.ok()) {
    // (Unless the text itself holds that string: quoting the file's own text is no leak.)
    FUZZ_CHECK(
        text.find(kSecret) != std::string_view::npos || cfg.status().message().find(kSecret) == std::string::npos,
        "an error message never shows the password");
    return 0;
  }
  const fleet::FleetConfig& c = *cfg;
  FUZZ_CHECK(!c.vcenters.empty() || !c.drop_folders.empty(), "an accepted file names a source");
  FUZZ_CHECK(c.window_s >= 20 && c.window_s <= 86400, "window within its range");
  FUZZ_CHECK(c.parallel_sources >= 1 && c.parallel_sources <= 64, "parallel_sources within its range");
  FUZZ_CHECK(c.retries >= 0 && c.retries <= 10, "retries within its range");
  FUZZ_CHECK(c.since > 0 && c.retry_backoff > 0 && c.settle > 0, "durations are positive");
  for (const fleet::VcenterConfig& v : c.vcenters) {
    FUZZ_CHECK(!v.url.empty() && !v.user.empty() && v.password == kSecret,
               "a vCenter has a url, a user and its password");
    FUZZ_CHECK(v.concurrency >= 1 && v.concurrency <= 64 && v.timeout_s >= 1 && v.timeout_s <= 3600,
               "vCenter limits within their ranges");
  }
  return 0;
}
