// `vrecon serve --db D --listen 127.0.0.1:9477`: Prometheus /metrics from the stored corrections
// of each VM's latest complete window (docs/metrics.md), until SIGINT/SIGTERM.
#include <iostream>

#include "src/cli/commands.h"
#include "src/serve/metrics_server.h"

namespace vrecon::cli {
namespace {

struct Opts {
  std::string db = "vrecon.db", listen = "127.0.0.1:9477", tls_cert, tls_key;
  int top = 10;
  bool insecure_listen = false;
};

StatusOr<serve::ServerOptions> Check(const Opts& o) {
  serve::ServerOptions s;
  ASSIGN_OR_RETURN(s.listen, serve::ParseListenAddress(o.listen));
  if (o.tls_cert.empty() != o.tls_key.empty())
    return Status::InvalidArgument("--tls-cert and --tls-key go together: give both or neither");
  RETURN_IF_ERROR(serve::CheckExposure(s.listen, !o.tls_cert.empty(), o.insecure_listen));
  s.db = o.db;
  s.top = o.top;
  s.tls_cert = o.tls_cert;
  s.tls_key = o.tls_key;
  return s;
}

int Run(const Opts& o) {
  StatusOr<serve::ServerOptions> s = Check(o);
  if (!s.ok()) {
    PrintError(s.status().message());
    return kExitUsage;
  }
  // The store must exist and be readable before the port opens: a typo in --db is an error now,
  // not a 503 at every scrape.
  if (StatusOr<std::unique_ptr<Store>> store = OpenExistingStore(o.db); !store.ok()) {
    PrintError(store.status().message());
    return kExitFailure;
  }
  const std::string scheme = s->tls_cert.empty() ? "http" : "https";
  Status st = serve::RunServer(*s, [&](int port) {
    const std::string host =
        s->listen.host.find(':') == std::string::npos ? s->listen.host : "[" + s->listen.host + "]";
    std::cerr << "vrecon serve: " << scheme << "://" << host << ":" << port << "/metrics (store " << o.db << ")"
              << std::endl;
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
      "Serve Prometheus /metrics from the stored corrections: each VM's latest complete window (guest and host "
      "CPU, w, ready, co-stop, clock offset, top processes' corrected CPU, flags) and each collection source's "
      "status (docs/metrics.md); until SIGINT/SIGTERM");
  AddDbOption(cmd, &o->db, "Store to read")->capture_default_str();
  cmd->add_option("--listen", o->listen,
                  "HOST:PORT to listen on ([ADDR]:PORT for IPv6; port 0 picks a free one). Beyond loopback it "
                  "needs --tls-cert/--tls-key or --insecure-listen")
      ->capture_default_str();
  cmd->add_option("--top", o->top, "Processes exported per VM, largest corrected CPU first")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--tls-cert", o->tls_cert, "PEM certificate: serve HTTPS")->check(CLI::ExistingFile);
  cmd->add_option("--tls-key", o->tls_key, "PEM private key of --tls-cert")->check(CLI::ExistingFile);
  cmd->add_flag("--insecure-listen", o->insecure_listen,
                "Allow plain HTTP on a non-loopback address (anyone who can reach it sees the estate's VMs)");
  return [o] { return Run(*o); };
}

}  // namespace vrecon::cli
