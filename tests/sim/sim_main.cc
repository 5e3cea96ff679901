// vrecon-sim: the ground-truth simulator's command line, for tests and bench/accuracy_bench.sh
// (not installed).
//   vrecon-sim generate --scenario NAME [--seed N] --out DIR   -> DIR/guest.csv host.csv truth.csv
//       [--etw FILE [--etw-from MIN] [--etw-minutes MIN]]       -> and the guest's xperf dumper text
//   vrecon-sim score --truth DIR/truth.csv --correct correct.json  -> one line of metrics
//       [--windows-of other.json]   only the windows other.json has on the events basis
//   vrecon-sim score-events --truth DIR/truth.csv --samples samples.csv  -> event CPU's errors
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "tests/sim/accuracy.h"
#include "tests/sim/event_cpu.h"
#include "tests/sim/simulator.h"

namespace {

bool Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

bool Read(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

int Run(int argc, char** argv) {
  CLI::App app{"vrecon-sim: guest and host logs with known true per-process CPU (docs/accuracy.md)"};
  app.require_subcommand(1);
  std::string scenario, out_dir, truth_path, correct_path, etw_path, samples_path, windows_of;
  uint64_t seed = 1;
  int run_ticks = 1, slices = 1, run_slices = 0;
  double etw_from = 0, etw_minutes = 30, esxtop_turbo = 0;
  CLI::App* gen = app.add_subcommand(
      "generate", "write guest.csv, host.csv and truth.csv (with --etw also a trace) for one scenario");
  gen->add_option("--scenario", scenario, "calm, contention, lost-ticks, resync, dst, mixed or batch")->required();
  CLI::Option* ticks_opt = gen->add_option("--run-ticks", run_ticks,
                                           "mean ticks a thread keeps its vCPU (1 with --slices 1: each tick "
                                           "drawn afresh)")
                               ->check(CLI::Range(1, 1000));
  gen->add_option("--slices", slices,
                  "slices a tick is cut into: thread runs end inside ticks and the trace switches at slice "
                  "boundaries (default 1: threads switch only on ticks)")
      ->check(CLI::Range(1, 64));
  gen->add_option("--run-slices", run_slices,
                  "mean slices a thread keeps its vCPU, instead of --run-ticks: with fewer than --slices, threads "
                  "run for less than a tick (1: each slice drawn afresh)")
      ->check(CLI::Range(1, 64000))
      ->excludes(ticks_opt);
  gen->add_option("--seed", seed, "random seed");
  gen->add_option("--esxtop-turbo", esxtop_turbo,
                  "write the host log as an esxtop capture whose % Used is % Run x this factor plus 2 points of "
                  "% System (default: a Hyper-V log)")
      ->check(CLI::Range(0.5, 3.0));
  gen->add_option("--out", out_dir, "directory to write into (created)")->required();
  gen->add_option("--etw", etw_path,
                  "also write the guest's context switches as `xperf -a dumper` text to FILE (vrecon ingest "
                  "--machine GUEST01 FILE); an hour is about 80 MB at --run-ticks 1, 7 MB at 12");
  gen->add_option("--etw-from", etw_from, "minute of true time the trace starts at (default 0)")
      ->check(CLI::Range(0.0, 360.0));
  gen->add_option("--etw-minutes", etw_minutes, "minutes the trace lasts (default 30)")->check(CLI::Range(0.0, 360.0));
  CLI::App* score = app.add_subcommand("score", "score vrecon correct --format json output against truth.csv");
  score->add_option("--truth", truth_path, "truth.csv from generate")->required();
  score->add_option("--correct", correct_path, "vrecon correct --format json output")->required();
  score->add_option("--windows-of", windows_of,
                    "score only the windows this other vrecon correct --format json output has on the events basis "
                    "(the same run without its trace, against the run with it)");
  CLI::App* score_events = app.add_subcommand(
      "score-events", "score stored ETW Process % Processor Time (vrecon samples --format csv) against truth.csv");
  score_events->add_option("--truth", truth_path, "truth.csv from generate")->required();
  score_events->add_option("--samples", samples_path, "vrecon samples --object 'ETW Process' --format csv output")
      ->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  using namespace vrecon::sim;
  if (gen->parsed()) {
    Scenario s = MakeScenario(scenario, seed, run_ticks);
    s.slices_per_tick = slices;
    s.run_slices = run_slices;
    s.esxtop_turbo = esxtop_turbo;
    if (!etw_path.empty()) {
      s.etw_from_s = etw_from * 60;
      s.etw_minutes = etw_minutes;
    }
    if (s.name.empty()) {
      std::cerr << "vrecon-sim: unknown scenario \"" << scenario << "\"\n";
      return 2;
    }
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    const SimOutput o = Simulate(s);
    if (!Write(out_dir + "/guest.csv", o.guest_csv) || !Write(out_dir + "/host.csv", o.host_csv) ||
        !Write(out_dir + "/truth.csv", TruthCsv(o))) {
      std::cerr << "vrecon-sim: cannot write into " << out_dir << "\n";
      return 1;
    }
    if (!etw_path.empty() && !Write(etw_path, o.etw_dumper)) {
      std::cerr << "vrecon-sim: cannot write " << etw_path << "\n";
      return 1;
    }
    return 0;
  }
  // score reads vrecon correct's JSON, score-events vrecon samples' CSV.
  const std::string& input = score_events->parsed() ? samples_path : correct_path;
  std::string truth_text, json;
  if (!Read(truth_path, &truth_text) || !Read(input, &json)) {
    std::cerr << "vrecon-sim: cannot read " << truth_path << " or " << input << "\n";
    return 1;
  }
  std::vector<TruthWindow> windows;
  std::vector<TruthEvent> events;
  if (!ParseTruthCsv(truth_text, &windows, &events)) {
    std::cerr << "vrecon-sim: " << truth_path << " is not a truth file\n";
    return 1;
  }
  if (score_events->parsed()) {
    const EventAccuracy e = ScoreEventCpu(EventCpuFromSamplesCsv(json), windows);
    std::printf(
        "windows=%d occupancy_mae=%.3f occupancy_worst=%.3f occupancy_worst_process=%.3f demand_mae=%.3f "
        "demand_worst=%.3f demand_worst_process=%.3f\n",
        e.windows, e.occupancy_mae, e.occupancy_worst, e.occupancy_worst_process, e.demand_mae, e.demand_worst,
        e.demand_worst_process);
    return 0;
  }
  AccuracyTargets targets;
  if (!windows_of.empty()) {
    std::string other;
    if (!Read(windows_of, &other)) {
      std::cerr << "vrecon-sim: cannot read " << windows_of << "\n";
      return 1;
    }
    targets.only_windows = EventWindowStarts(other);
    if (targets.only_windows.empty()) {
      std::cerr << "vrecon-sim: " << windows_of << " has no window on the events basis\n";
      return 1;
    }
  }
  const Accuracy a = Score(json, windows, events, targets);
  std::printf(
      "windows=%d corrected=%d naive_mae=%.2f corrected_mae=%.2f hard=%d hard_missed=%d hard_worst=%.2f "
      "clock_events=%d/%d idle_queue=%d/%d flagged_share=%.3f ci_n=%d ci_coverage=%.4f ci_median_width=%.2f "
      "ci_missing=%d job_windows=%d job_naive_mae=%.2f job_corrected_mae=%.2f job_floor_mae=%.2f "
      "corrected_occupancy_mae=%.3f event_windows=%d event_naive_mae=%.3f event_corrected_mae=%.3f "
      "event_corrected_occupancy_mae=%.3f event_ci_n=%d event_ci_coverage=%.4f\n",
      a.windows, a.corrected, a.naive_mae, a.corrected_mae, a.hard, a.hard_missed, a.hard_worst, a.clock_events_flagged,
      a.clock_events, a.idle_queue_flagged, a.idle_queue_events,
      a.windows ? static_cast<double>(a.flagged_windows) / a.windows : 0.0, a.ci_n,
      a.ci_n ? static_cast<double>(a.ci_covered) / a.ci_n : 0.0, a.ci_median_width, a.ci_missing, a.job_windows,
      a.job_naive_mae, a.job_corrected_mae, a.job_floor_mae, a.corrected_occupancy_mae, a.event_windows,
      a.event_naive_mae, a.event_corrected_mae, a.event_corrected_occupancy_mae, a.event_ci_n,
      a.event_ci_n ? static_cast<double>(a.event_ci_covered) / a.event_ci_n : 0.0);
  for (const std::string& m : a.misses) std::printf("  miss: %s\n", m.c_str());
  return 0;
}

}  // namespace

// CLI11 throws on a wrong option declaration (a bug, but one that should print, not terminate).
int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "vrecon-sim: " << e.what() << "\n";
    return 1;
  }
}
