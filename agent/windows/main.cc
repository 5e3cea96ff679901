// vrecon-agent.exe: reads the options, wires the Win32 pieces (PDH, clock, stop signal) to the
// portable agent and runs it, in a console (Ctrl+C stops cleanly) or as a service.
#include <windows.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "agent/agent.h"
#include "agent/cycle_counters.h"
#include "agent/windows/win_cycles.h"
#include "agent/windows/win_pdh.h"
#include "agent/windows/win_text.h"

namespace vrecon::agent::win {
namespace {

WinClock* g_clock = nullptr;
SERVICE_STATUS_HANDLE g_service = nullptr;
SERVICE_STATUS g_status{};
int g_exit = 0;
std::vector<std::string> g_args;

BOOL WINAPI OnConsoleControl(DWORD type) {
  if (type == CTRL_C_EVENT || type == CTRL_BREAK_EVENT || type == CTRL_CLOSE_EVENT || type == CTRL_SHUTDOWN_EVENT) {
    if (g_clock) g_clock->RequestStop();
    return TRUE;
  }
  return FALSE;
}

StatusOr<std::string> ReadWholeFile(const std::string& path) {
  FILE* f = _wfopen(Widen(path).c_str(), L"rb");
  if (!f) return Status::IOError(path + ": cannot open");
  std::string text;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  return text;
}

// Everything after option parsing; the exit code.
int Run(const Options& o, std::ostream& log) {
  std::vector<std::string> texts;
  for (const std::string& f : o.counter_files) {
    auto t = ReadWholeFile(f);
    if (!t.ok()) {
      log << "vrecon-agent: " << t.status().message() << "\n";
      return 1;
    }
    texts.push_back(*t);
  }
  auto selection = BuildSelection(o, texts);
  if (!selection.ok()) {
    log << "vrecon-agent: " << selection.status().message() << "\n";
    return 2;
  }
  WinPdh win_pdh;
  WinCycles cycles;
  CyclePdh pdh(win_pdh, cycles, &log);  // the cycles set's counters; every other path goes to PDH
  if (o.list) {
    std::vector<std::string> notes;
    for (const CounterSpec& s : ResolveSelection(pdh, *selection, &notes)) std::cout << CounterPath(s) << "\n";
    for (const std::string& n : notes) log << "vrecon-agent: " << n << "\n";
    return 0;
  }
  DWORD attr = GetFileAttributesW(Widen(o.out_dir).c_str());
  if (attr == INVALID_FILE_ATTRIBUTES || !(attr & FILE_ATTRIBUTE_DIRECTORY)) {
    log << "vrecon-agent: " << o.out_dir << ": not a folder\n";
    return 1;
  }
  StdOutputFiles files(o.out_dir);
  RunStats stats;
  Status s = RunAgent(o, *selection, pdh, *g_clock, files, LocalComputerName(), log, &stats);
  if (!s.ok()) {
    log << "vrecon-agent: " << s.message() << "\n";
    return 1;
  }
  return 0;
}

void SetServiceState(DWORD state, DWORD exit_code) {
  g_status.dwServiceType = SERVICE_WIN32_OWN_PROCESS;
  g_status.dwCurrentState = state;
  g_status.dwControlsAccepted = state == SERVICE_RUNNING ? SERVICE_ACCEPT_STOP | SERVICE_ACCEPT_SHUTDOWN : 0;
  g_status.dwWin32ExitCode = exit_code ? ERROR_SERVICE_SPECIFIC_ERROR : NO_ERROR;
  g_status.dwServiceSpecificExitCode = exit_code;
  SetServiceStatus(g_service, &g_status);
}

DWORD WINAPI OnServiceControl(DWORD control, DWORD, void*, void*) {
  if (control == SERVICE_CONTROL_STOP || control == SERVICE_CONTROL_SHUTDOWN) {
    SetServiceState(SERVICE_STOP_PENDING, 0);
    if (g_clock) g_clock->RequestStop();
  }
  return NO_ERROR;
}

void WINAPI ServiceMain(DWORD, wchar_t**) {
  g_service = RegisterServiceCtrlHandlerExW(L"vrecon-agent", OnServiceControl, nullptr);
  if (!g_service) return;
  SetServiceState(SERVICE_RUNNING, 0);
  auto o = ParseOptions(g_args);
  // A service has no console: messages go to vrecon-agent.log in the output folder.
  std::string log_path = (o.ok() ? o->out_dir : std::string(".")) + "\\vrecon-agent.log";
  std::ofstream log(std::filesystem::path(Widen(log_path)), std::ios::app | std::ios::binary);
  log << std::unitbuf;
  g_exit = o.ok() ? Run(*o, log) : 2;
  if (!o.ok()) log << "vrecon-agent: " << o.status().message() << "\n";
  SetServiceState(SERVICE_STOPPED, static_cast<DWORD>(g_exit));
}

int Main(int argc, wchar_t** argv) {
  for (int i = 1; i < argc; ++i) g_args.push_back(Narrow(argv[i]));
  auto o = ParseOptions(g_args);
  if (!o.ok()) {
    std::cerr << "vrecon-agent: " << o.status().message() << "\n";
    return 2;
  }
  if (o->help) {
    std::cout << UsageText();
    return 0;
  }
  if (o->version) {
    std::cout << "vrecon-agent " << kAgentVersion << "\n";
    return 0;
  }
  WinClock clock;
  g_clock = &clock;
  if (o->service) {
    SERVICE_TABLE_ENTRYW table[] = {{const_cast<wchar_t*>(L"vrecon-agent"), ServiceMain}, {nullptr, nullptr}};
    if (!StartServiceCtrlDispatcherW(table)) {
      std::cerr << "vrecon-agent: --service: not started by the service control manager (use sc create)\n";
      return 1;
    }
    return g_exit;
  }
  SetConsoleCtrlHandler(OnConsoleControl, TRUE);
  return Run(*o, std::cerr);
}

}  // namespace
}  // namespace vrecon::agent::win

int wmain(int argc, wchar_t** argv) { return vrecon::agent::win::Main(argc, argv); }
