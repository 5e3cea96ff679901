#include "src/cli/listen_options.h"

#include "vrecon_build_info.h"

namespace vrecon::cli {

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
