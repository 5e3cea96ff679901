// The options of the HTTP server, shared by `vrecon serve` and `vrecon collect --listen`:
// --listen, --top, --tls-cert, --tls-key, --auth-file, --insecure-listen (docs/serve.md),
// registered by AddListenOptions (src/cli/command_line.h).
#ifndef VRECON_SRC_CLI_LISTEN_OPTIONS_H_
#define VRECON_SRC_CLI_LISTEN_OPTIONS_H_

#include <string>

#include "src/core/status.h"
#include "src/serve/http_server.h"

namespace vrecon::cli {

struct ListenOptions {
  std::string listen, tls_cert, tls_key, auth_file;
  int top = 10;
  bool insecure_listen = false;
};

// Checks them (a usage error when they do not fit together) and fills the server's options but
// the users of --auth-file.
StatusOr<serve::ServerOptions> ToServerOptions(const ListenOptions& o, const std::string& db);
// Reads --auth-file, when given, into `s` (an error names the file and line).
Status LoadAuthFile(const ListenOptions& o, serve::ServerOptions* s);

}  // namespace vrecon::cli

#endif  // VRECON_SRC_CLI_LISTEN_OPTIONS_H_
