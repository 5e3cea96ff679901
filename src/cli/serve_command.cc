// `vrecon serve --db D --listen 127.0.0.1:9477`: Prometheus /metrics from the stored corrections
// of each VM's latest complete window (docs/metrics.md), until SIGINT/SIGTERM.
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"

namespace vrecon::cli {

int RunServeCommand(const ServeArgs& o) {
  StatusOr<serve::ServerOptions> s = ToServerOptions(o.listen, o.db);
  if (!s.ok()) return FailUsage(s.status());
  if (Status a = LoadAuthFile(o.listen, &*s); !a.ok()) return Fail(a);
  // The store must exist and be readable before the port opens: a typo in --db is an error now,
  // not a 503 at every scrape.
  if (StatusOr<std::unique_ptr<Store>> store = OpenExistingStore(o.db); !store.ok()) return Fail(store.status());
  Status st = serve::RunServer(*s, [&](const std::string& url) {
    std::cerr << "vrecon serve: " << url << " (store " << o.db << ")" << std::endl;
  });
  if (!st.ok()) return Fail(st);
  return kExitOk;
}

}  // namespace vrecon::cli
