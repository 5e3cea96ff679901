// The vrecon command line. Exit codes: 0 success, 1 failure, 2 bad usage.
#ifndef VRECON_SRC_CLI_CLI_H_
#define VRECON_SRC_CLI_CLI_H_

namespace vrecon::cli {

int Main(int argc, char** argv);

}  // namespace vrecon::cli

#endif  // VRECON_SRC_CLI_CLI_H_
