// `vrecon serve --db D --listen 127.0.0.1:9477`: Prometheus /metrics from the stored corrections
// of each VM's latest complete window (docs/metrics.md), until SIGINT/SIGTERM.
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/listen_options.h"

namespace vrecon::cli {
namespace {

struct Opts {
  std::string db = "vrecon.db";
  ListenOptions listen = [] {
    ListenOptions l;
    l.listen = "127.0.0.1:9477";
    return l;
  }();
};

int Run(const Opts& o) {
  StatusOr<serve::ServerOptions> s = ToServerOptions(o.listen, o.db);
  if (!s.ok()) {
    PrintError(s.status().message());
    return kExitUsage;
  }
  if (Status a = LoadAuthFile(o.listen, &*s); !a.ok()) {
    PrintError(a.message());
    return kExitFailure;
  }
  // The store must exist and be readable before the port opens: a typo in --db is an error now,
  // not a 503 at every scrape.
  if (StatusOr<std::unique_ptr<Store>> store = OpenExistingStore(o.db); !store.ok()) {
    PrintError(store.status().message());
    return kExitFailure;
  }
  Status st = serve::RunServer(*s, [&](const std::string& url) {
    std::cerr << "vrecon serve: " << url << " (store " << o.db << ")" << std::endl;
  });
  if (!st.ok()) {
    PrintError(st.message());
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

RunFn AddServeCommand(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand(
      "serve",
      "Serve the stored corrections over HTTP until SIGINT/SIGTERM: a web view (/ is the HTML report of "
      "?from=&to=&vm=, /api/vms and /api/vms/{vm_key}/windows their JSON) and Prometheus /metrics (each VM's "
      "latest complete window, its top processes' corrected CPU, flags, each source's status; docs/metrics.md)");
  AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  AddListenOptions(cmd, &o->listen);
  return [o] { return Run(*o); };
}

}  // namespace vrecon::cli
