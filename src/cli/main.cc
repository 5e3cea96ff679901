#include "src/cli/cli.h"

int main(int argc, char** argv) { return vrecon::cli::Main(argc, argv); }
