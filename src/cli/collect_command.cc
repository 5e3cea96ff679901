// `vrecon collect vsphere`: one collection round from a vCenter or ESXi host into the store
// (src/collect/vsphere_collect.h).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/collect/vsphere_collect.h"
#include "src/core/text_util.h"
#include "src/fleet/fleet_config.h"

namespace vrecon::cli {
namespace {

// "90s", "15m", "1h", "2d"; a bare number is seconds.
// The password comes from a file only its owner can read, or from the environment; never
// from the command line, where other users could see it.
StatusOr<std::string> ReadPassword(const std::string& file) {
  if (file.empty()) {
    const char* env = std::getenv("VRECON_VSPHERE_PASSWORD");
    if (!env || !*env)
      return Status::InvalidArgument("no password: set VRECON_VSPHERE_PASSWORD or pass --password-file FILE");
    return std::string(env);
  }
  struct stat st {};
  if (stat(file.c_str(), &st) != 0) return Status::IOError("cannot read password file " + file);
  if (st.st_mode & (S_IRWXG | S_IRWXO))
    return Status::InvalidArgument("password file " + file +
                                   " is readable by group or others; chmod 600 it (refused to use it)");
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  if (line.empty()) return Status::InvalidArgument("password file " + file + " is empty");
  return line;
}

// Before the password is read or a connection made: plain HTTP would hand the password to
// anyone on the path, so it takes the user's explicit consent.
Status CheckUrlScheme(const std::string& url, bool allow_http) {
  if (IsHttpsUrl(url)) return Status::Ok();
  if (IsPlainHttpUrl(url)) {
    if (allow_http) return Status::Ok();
    return Status::InvalidArgument("--url " + url + " is plain HTTP: the password would cross the network to " +
                                   UrlHost(url) +
                                   " unencrypted; use https://, or pass --allow-insecure-http to accept that");
  }
  return Status::InvalidArgument("--url " + url + " must start with https:// (e.g. https://vc01.example/sdk)");
}

VsphereCollectOptions CollectOptions(const CollectVsphereArgs& o, TimeNs since, std::string password) {
  VsphereCollectOptions opt;
  opt.client.transport.url = o.url;
  opt.client.transport.ca_file = o.ca;
  opt.client.transport.insecure = o.insecure;
  opt.client.transport.allow_http = o.allow_http;
  opt.client.transport.timeout_s = o.timeout;
  opt.client.user = o.user;
  opt.client.password = std::move(password);
  opt.vm_glob = o.vm;
  opt.historical = o.historical;
  opt.since = since;
  opt.backfill = static_cast<TimeNs>(o.backfill_days) * 86400 * kNsPerSec;
  opt.concurrency = o.concurrency;
  if (isatty(STDERR_FILENO)) {
    opt.progress = [](int done, int total) {
      std::cerr << "\rQueryPerf batches " << done << "/" << total << (done == total ? "\r\033[K" : "") << std::flush;
    };
  }
  return opt;
}

// JSON and CSV count the issues; the first ten that are not info go to stderr, so that a script's
// user sees them.
void PrintVsphereIssues(const VsphereCollectResult& r) {
  size_t shown = 0;
  for (const ImportIssue& i : r.issues)
    if (i.severity != Severity::kInfo && shown++ < 10)
      std::cerr << "vrecon: " << SeverityName(i.severity) << ": " << i.code << ": " << i.message << "\n";
  if (shown > 10) std::cerr << "vrecon: warning: and " << shown - 10 << " more\n";
}

void PrintVsphereJson(const CollectVsphereArgs& o, const VsphereCollectResult& r) {
  std::cout << "{\"url\": " << JsonString(o.url) << ", \"server\": " << JsonString(r.server)
            << ", \"vms_selected\": " << r.vms_selected << ", \"vms_collected\": " << r.vms_collected
            << ", \"vms_skipped_powered_off\": " << r.vms_skipped << ", \"interval_s\": " << r.interval_s
            << ", \"from\": " << JsonString(FormatIso(r.from, false))
            << ", \"to\": " << JsonString(FormatIso(r.to, false)) << ", \"samples\": " << r.samples
            << ", \"batches\": " << r.batches << ", \"batches_failed\": " << r.batches_failed
            << ", \"batch_limit\": " << r.batch_limit << ", \"requests\": " << r.transport.requests
            << ", \"bytes_sent\": " << r.transport.bytes_sent << ", \"bytes_received\": " << r.transport.bytes_received
            << ", \"relogins\": " << r.relogins << ", \"issues\": " << r.issues.size()
            << ", \"hosts_selected\": " << r.hosts_selected << ", \"hosts_collected\": " << r.hosts_collected
            << ", \"vms_backfilled\": " << r.vms_backfilled << ", \"hosts_backfilled\": " << r.hosts_backfilled
            << ", \"backfill_failed\": " << r.backfill_failed << "}\n";
}

void PrintVsphereCsv(const CollectVsphereArgs& o, const VsphereCollectResult& r) {
  std::cout << "url,server,vms_selected,vms_collected,vms_skipped_powered_off,interval_s,from,to,samples,"
               "batches,batches_failed,requests,bytes_received,relogins,issues,hosts_selected,hosts_collected,"
               "vms_backfilled,hosts_backfilled,backfill_failed\n"
            << CsvCell(o.url) << "," << CsvCell(r.server) << "," << r.vms_selected << "," << r.vms_collected << ","
            << r.vms_skipped << "," << r.interval_s << "," << FormatIso(r.from, false) << "," << FormatIso(r.to, false)
            << "," << r.samples << "," << r.batches << "," << r.batches_failed << "," << r.transport.requests << ","
            << r.transport.bytes_received << "," << r.relogins << "," << r.issues.size() << "," << r.hosts_selected
            << "," << r.hosts_collected << "," << r.vms_backfilled << "," << r.hosts_backfilled << ","
            << r.backfill_failed << "\n";
}

// The table lists the issues too.
void PrintVsphereTable(const CollectVsphereArgs& o, const VsphereCollectResult& r) {
  const std::string range = FormatIso(r.from, false) + " .. " + FormatIso(r.to, false);
  std::cout << o.url << " (" << r.server << ")\n"
            << "  VMs: " << r.vms_collected << " of " << r.vms_selected << " collected"
            << (r.vms_skipped ? ", " + std::to_string(r.vms_skipped) + " powered off skipped" : "") << "\n"
            << "  hosts (their own counters): " << r.hosts_collected << " of " << r.hosts_selected << " collected\n"
            << (r.vms_backfilled + r.hosts_backfilled + r.backfill_failed
                    ? "  backfilled from the rollups: " + std::to_string(r.vms_backfilled) + " VMs, " +
                          std::to_string(r.hosts_backfilled) + " hosts" +
                          (r.backfill_failed ? ", " + std::to_string(r.backfill_failed) + " failed" : "") + "\n"
                    : "")
            << "  range (server time): " << range << ", " << r.interval_s << " s samples\n"
            << "  samples stored: " << r.samples << "\n"
            << "  requests: " << r.transport.requests << " (" << r.batches << " QueryPerf batches of up to "
            << r.batch_limit << " metrics), " << r.transport.bytes_received << " bytes received\n";
  if (r.relogins) std::cout << "  session expired and renewed " << r.relogins << " time(s)\n";
  for (size_t i = 0; i < r.issues.size() && i < 10; ++i)
    std::cout << "  " << SeverityName(r.issues[i].severity) << " " << r.issues[i].code << ": " << r.issues[i].message
              << "\n";
  if (r.issues.size() > 10) std::cout << "  ... " << r.issues.size() - 10 << " more issues\n";
}

}  // namespace

int RunCollectVsphereCommand(const CollectVsphereArgs& o) {
  // The fleet file's durations: bounded, so "1e7d" is refused rather than overflowing.
  auto since = fleet::ParseDuration(o.since);
  if (!since) return FailUsage("--since \"" + o.since + "\" is not a duration (90s, 15m, 1h, 2d)");
  if (Status s = CheckUrlScheme(o.url, o.allow_http); !s.ok()) return FailUsage(s);
  auto password = ReadPassword(o.password_file);
  if (!password.ok())
    return password.status().IsInvalidArgument() ? FailUsage(password.status()) : Fail(password.status());
  if (o.insecure) std::cerr << "vrecon: warning: --insecure: the server's certificate is not verified\n";
  if (IsPlainHttpUrl(o.url))
    std::cerr << "vrecon: warning: --allow-insecure-http: the password is sent unencrypted to " << UrlHost(o.url)
              << "\n";
  auto store = Store::Open(o.db);
  if (!store.ok()) return Fail(store.status());
  auto r = CollectVsphere(store->get(), CollectOptions(o, *since, std::move(password).value()));
  if (!r.ok()) return Fail(r.status());
  for (const std::string& e : r->errors) PrintError(e);
  switch (ToFormat(o.format)) {
    case OutputFormat::kJson:
      PrintVsphereIssues(*r);
      PrintVsphereJson(o, *r);
      break;
    case OutputFormat::kCsv:
      PrintVsphereIssues(*r);
      PrintVsphereCsv(o, *r);
      break;
    default: PrintVsphereTable(o, *r);
  }
  return r->batches_failed == 0 && r->vms_collected == r->vms_selected ? kExitOk : kExitFailure;
}

}  // namespace vrecon::cli
