// vrecon's command line: the app, its commands (src/cli/command_line_*.cc), and the options
// several commands share.
#include "src/cli/cli.h"

#include <iostream>

#include "src/cli/command_line.h"
#include "src/cli/commands.h"
#include "src/core/host_counters.h"
#include "src/store/store_location.h"
#include "vrecon_build_info.h"

namespace vrecon::cli {

void AddFormatOption(CLI::App* cmd, std::string* format) {
  cmd->add_option("--format", *format, "Output format")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
}

CLI::Option* AddDbOption(CLI::App* cmd, std::string* db, const std::string& what) {
  auto check = [](const std::string& value) -> std::string {
    if (!IsPostgresUri(value)) return {};
    Status s = CheckPostgresUri(value);
    return s.ok() ? std::string() : s.message();
  };
  return cmd->add_option("--db", *db, what + " (a SQLite file or a postgresql:// URI)")
      ->check(CLI::Validator(check, "PATH|URI"));
}

void AddCorrectionOptions(CLI::App* cmd, CorrectionOptions* o) {
  cmd->add_option("--vm", o->vm,
                  "Only this VM: its vm_key, or a VM or guest name or glob (every VM of that name; domain suffix "
                  "ignored)");
  cmd->add_option("--window", o->window, "Window length in seconds")
      ->check(CLI::Range(15, 86400))
      ->capture_default_str();
  cmd->add_option("--from", o->from, "Start of the range, ISO 8601 (UTC unless an offset is given)");
  cmd->add_option("--to", o->to, "End of the range, ISO 8601");
  // One value per --map (repeat it for more), as for `vrecon ingest`, where a list option would
  // take the log files after it.
  cmd->add_option("--map", o->maps, "Guest computer name to VM name (GUEST=VM; repeatable); wins over name matching")
      ->allow_extra_args(false);
  cmd->add_option("--hyperv-counter", o->hyperv_counter,
                  "Hyper-V VP counter for host utilization: total = % Total Run Time, guest = % Guest Run Time")
      ->check(CLI::IsMember(HyperVCounterWords()))
      ->capture_default_str();
  cmd->add_option("--vsphere-counter", o->vsphere_counter,
                  "vSphere host utilization: usage = cpu.usage.average (frequency-scaled: turbo and hyper-threading "
                  "move it), run = cpu.run.summation (time, as the guest's ticks count it)")
      ->check(CLI::IsMember(VsphereCounterWords()))
      ->capture_default_str();
  cmd->add_option("--esxtop-counter", o->esxtop_counter,
                  "esxtop host utilization: used = the group's % Used (frequency-scaled, with its % System), run = "
                  "% Run (time, as the guest's ticks count it)")
      ->check(CLI::IsMember(EsxtopCounterWords()))
      ->capture_default_str();
  cmd->add_flag("--no-align", o->no_align,
                "Use guest timestamps as they are instead of estimating the guest clock's offset and drift "
                "against the host (to compare; no clock offset is reported, rates keep the guest's interval)");
}

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

int Main(int argc, char** argv) {
  CLI::App app{
      "vrecon: reconcile what a VM's guest says about its CPU with what the hypervisor measured, and turn the "
      "guest's per-process CPU into real CPU."};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "vrecon " VRECON_VERSION " (commit " VRECON_GIT_COMMIT ")");
  // Each subcommand once, in the order --help lists them: its options now, its run once parsed.
  const Command commands[] = {AddIngestCommand(app),  AddCorrectCommand(app), AddSamplesCommand(app),
                              AddCollectCommand(app), AddReadyCommand(app),   AddCapacityCommand(app),
                              AddReportCommand(app),  AddStatusCommand(app),  AddCountersCommand(app),
                              AddPruneCommand(app),   AddServeCommand(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? kExitOk : kExitUsage;  // --help, --version
    // A usage error reads like every other error: "vrecon: error: ..." and where to look.
    std::string command;
    for (const CLI::App* sub : app.get_subcommands()) command = " " + sub->get_name();
    std::cerr << "vrecon: error: " << e.what() << "\nRun `vrecon" << command << " --help` for the options.\n";
    return kExitUsage;
  }
  for (const Command& c : commands)
    if (c.app->parsed()) return c.run();
  std::cerr << app.help();
  return kExitUsage;
}

}  // namespace vrecon::cli
