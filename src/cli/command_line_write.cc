// The options of the commands that write a store: ingest, prune, and collect with its fleet
// options and its vsphere and procfs subcommands. Each runs through its Run*Command
// (src/cli/command_options.h).
#include "src/cli/command_line.h"
#include "src/cli/commands.h"

namespace vrecon::cli {
namespace {

// `collect --config FILE --every D | --once` (the fleet): options of the `collect` command itself.
RunFn AddCollectFleetOptions(CLI::App* collect) {
  auto o = std::make_shared<CollectFleetArgs>();
  auto* config =
      collect->add_option("--config", o->config, "Fleet file (TOML, docs/config.md): collect every source it names");
  auto* every =
      collect->add_option("--every", o->every, "Run a round every DURATION (30s, 5m, 1h) until SIGINT/SIGTERM");
  auto* once = collect->add_flag("--once", o->once, "Run one round and exit (for cron or a systemd timer)");
  every->excludes(once);
  every->needs(config);
  once->needs(config);
  AddDbOption(collect, &o->db, "Store to write, instead of the file's `db`")->needs(config);
  collect->add_option("--log-level", o->log_level, "Log detail on stderr")
      ->check(CLI::IsMember({"error", "warn", "info", "debug"}))
      ->capture_default_str();
  AddListenOptions(collect, &o->listen)->needs(config);
  collect->add_option("--format", o->format, "Format of the per-round summary on stdout")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  return [o]() { return RunCollectFleetCommand(*o); };
}

// `collect procfs`, a subcommand of `collect`.
RunFn AddCollectProcfsCommand(CLI::App* collect) {
  auto o = std::make_shared<CollectProcfsArgs>();
  CLI::App* cmd = collect->add_subcommand(
      "procfs",
      "Sample this Linux machine's /proc (per-CPU % Processor Time and % Steal Time, per-process "
      "% Processor Time) into the store, or into a PDH-CSV file with --out; stops on Ctrl+C");
  AddDbOption(cmd, &o->db, "Store to write every 20 samples, one transaction each")->capture_default_str();
  cmd->add_option("--interval", o->interval, "Seconds between samples")
      ->check(CLI::Range(0.05, 86400.0))
      ->capture_default_str();
  auto* duration =
      cmd->add_option("--duration", o->duration, "Stop after this many seconds")->check(CLI::PositiveNumber);
  auto* count = cmd->add_option("--count", o->count, "Stop after this many samples (rows)")->check(CLI::PositiveNumber);
  duration->excludes(count);
  auto* out = cmd->add_option("--out", o->out, "Write a PDH-CSV 4.0 file instead of the store");
  out->excludes(cmd->get_option("--db"));
  return [o, cmd]() {
    if (!cmd->parsed()) return kExitUsage;
    return RunCollectProcfsCommand(*o);
  };
}

}  // namespace

Command AddCollectCommand(CLI::App& app) {
  auto o = std::make_shared<CollectVsphereArgs>();
  CLI::App* collect =
      app.add_subcommand("collect",
                         "Collect data from live sources into the store: the fleet of a TOML file (--config FILE "
                         "--every 5m | --once), one vCenter/ESXi (vsphere), this Linux machine's /proc (procfs)");
  collect->require_subcommand(0, 1);
  RunFn fleet = AddCollectFleetOptions(collect);
  CLI::App* cmd = collect->add_subcommand("vsphere",
                                          "One collection round from vCenter/ESXi over the vSphere API (password from "
                                          "VRECON_VSPHERE_PASSWORD or --password-file)");
  RunFn procfs = AddCollectProcfsCommand(collect);
  cmd->add_option("--url", o->url, "SDK endpoint, e.g. https://vc01.example/sdk")->required();
  cmd->add_option("--user", o->user, "User name")->required();
  cmd->add_option("--password-file", o->password_file, "File holding the password (must be owner-only, mode 600)");
  auto* ca = cmd->add_option("--ca", o->ca, "PEM file with the CA that signed the server's certificate");
  auto* insecure = cmd->add_flag("--insecure", o->insecure, "Do not verify the server's TLS certificate (not advised)");
  ca->excludes(insecure);
  cmd->add_flag("--allow-insecure-http", o->allow_http,
                "Accept a plain http:// --url: the password then crosses the network unencrypted (not advised)");
  cmd->add_option("--vm", o->vm, "Only VMs whose name matches this glob")->capture_default_str();
  cmd->add_flag("--historical", o->historical, "Use the 300 s historical rollup instead of 20 s realtime");
  cmd->add_option("--since", o->since, "How far back to start for VMs never collected (90s, 15m, 1h, 2d)")
      ->capture_default_str();
  cmd->add_option("--backfill-days", o->backfill_days,
                  "On a VM's or host's first round, also fetch this many days of vCenter's historical rollups "
                  "(5 min for a day, 30 min a week, 2 h a month, 1 day a year), so capacity forecasts start at once; "
                  "0: none")
      ->check(CLI::Range(0, 365))
      ->capture_default_str();
  cmd->add_option("--concurrency", o->concurrency, "Parallel QueryPerf requests")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--timeout", o->timeout,
                  "Seconds one request may take, its whole answer included, before it is abandoned")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  AddDbOption(cmd, &o->db, "Store to write")->capture_default_str();
  AddFormatOption(cmd, &o->format);
  return {collect, [o, cmd, procfs, fleet, collect]() {
            if (collect->got_subcommand("procfs")) return procfs();
            if (!cmd->parsed()) return fleet();
            return RunCollectVsphereCommand(*o);
          }};
}

Command AddIngestCommand(CLI::App& app) {
  auto o = std::make_shared<IngestArgs>();
  CLI::App* cmd = app.add_subcommand(
      "ingest",
      "Read Perfmon CSV/TSV logs (guest, VMware Tools, Hyper-V host, esxtop batch), PowerCLI Get-Stat "
      "exports, sar text, ETW context switches (xperf dumper text, WPA CPU Usage (Precise) CSV) and WPA CPU Usage "
      "(Sampled) profiles into the store");
  AddDbOption(cmd, &o->db, "Store to write, :memory: allowed")->capture_default_str();
  cmd->add_option("--tz-bias", o->tz_bias,
                  "UTC minus local time in minutes, for logs whose header has no readable bias (EST = 300)");
  cmd->add_option("--encoding", o->encoding, "Force the text encoding instead of detecting it")
      ->check(CLI::IsMember({"utf-8", "utf-16le", "utf-16be", "windows-1251", "windows-1252"}));
  cmd->add_option("--date", o->date, "YYYY-MM-DD of the first row, for sar text without its header line");
  cmd->add_option("--machine", o->machine,
                  "Computer the files are from where they do not say (ETW traces; sar text without its header)");
  cmd->add_option("--trace-start", o->trace_start,
                  "Absolute start of an ETW trace whose text does not carry it (a WPA export never does): ISO 8601 "
                  "with its offset (2026-11-02T10:00:00+01:00)");
  // One value per --map (repeat it for more): a list option would take the log files after it.
  cmd->add_option("--map", o->maps, "Store a mapping from a guest computer name to its VM name (GUEST=VM; repeatable)")
      ->allow_extra_args(false);
  AddFormatOption(cmd, &o->format);
  // A missing file is reported and skipped by the run (exit 1), not a usage error that drops the rest.
  cmd->add_option("files", o->files, "Log files to read")->required();
  return {cmd, [o]() { return RunIngestCommand(*o); }};
}

Command AddPruneCommand(CLI::App& app) {
  auto o = std::make_shared<PruneArgs>();
  CLI::App* cmd = app.add_subcommand(
      "prune", "Retention: remove samples and stored corrections older than what is kept (both backends)");
  cmd->footer(
      "A duration to keep counts back from now to the start of that UTC day: --samples 35d on 2026-11-25 removes "
      "the sample blocks that ended before 2026-10-21T00:00:00Z. Ingested files stay recorded (they are not "
      "ingested again), collectors do not fetch pruned data again, Ready-Time summaries and capacity day digests "
      "stay (the digests take in the samples first), and reports over "
      "the pruned range use the stored corrections and say so.");
  AddDbOption(cmd, &o->db, "Store to prune")->capture_default_str();
  cmd->add_option("--samples", o->samples, "Keep the samples of this long (35d, 12h); older sample blocks go");
  cmd->add_option("--corrections", o->corrections,
                  "Keep the stored corrections of this long (400d); at least as long as --samples");
  cmd->add_flag("--dry-run", o->dry_run, "Count what would be removed; change nothing");
  AddFormatOption(cmd, &o->format);
  return {cmd, [o]() { return RunPruneCommand(*o); }};
}

}  // namespace vrecon::cli
