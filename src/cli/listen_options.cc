#include "src/cli/listen_options.h"

#include "vrecon_build_info.h"

namespace vrecon::cli {

CLI::Option* AddListenOptions(CLI::App* cmd, ListenOptions* o) {
  CLI::Option* listen =
      cmd->add_option("--listen", o->listen,
                      "Serve Prometheus /metrics on HOST:PORT ([ADDR]:PORT for IPv6; port 0 picks a "
                      "free one). Beyond loopback it needs --tls-cert/--tls-key or --insecure-listen");
  if (!o->listen.empty()) listen->capture_default_str();
  cmd->add_option("--top", o->top, "Processes exported per VM on /metrics, largest corrected CPU first")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--tls-cert", o->tls_cert, "PEM certificate: serve /metrics over HTTPS")->check(CLI::ExistingFile);
  cmd->add_option("--tls-key", o->tls_key, "PEM private key of --tls-cert")->check(CLI::ExistingFile);
  cmd->add_option("--auth-file", o->auth_file,
                  "Require HTTP basic auth: htpasswd-style lines user:hash, bcrypt (htpasswd -B) or SHA-512 crypt "
                  "(openssl passwd -6)")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--insecure-listen", o->insecure_listen,
                "Allow plain HTTP on a non-loopback address (anyone who can reach it sees the estate's VMs)");
  return listen;
}

StatusOr<serve::ServerOptions> ToServerOptions(const ListenOptions& o, const std::string& db) {
  serve::ServerOptions s;
  ASSIGN_OR_RETURN(s.listen, serve::ParseListenAddress(o.listen));
  if (o.tls_cert.empty() != o.tls_key.empty())
    return Status::InvalidArgument("--tls-cert and --tls-key go together: give both or neither");
  RETURN_IF_ERROR(serve::CheckExposure(s.listen, !o.tls_cert.empty(), o.insecure_listen));
  s.db = db;
  s.top = o.top;
  s.version = VRECON_VERSION;
  s.commit = VRECON_GIT_COMMIT;
  s.tls_cert = o.tls_cert;
  s.tls_key = o.tls_key;
  return s;
}

Status LoadAuthFile(const ListenOptions& o, serve::ServerOptions* s) {
  if (o.auth_file.empty()) return Status::Ok();
  ASSIGN_OR_RETURN(serve::AuthFile auth, serve::AuthFile::Load(o.auth_file));
  s->auth = std::make_shared<const serve::AuthFile>(std::move(auth));
  return Status::Ok();
}

}  // namespace vrecon::cli
