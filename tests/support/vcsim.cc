#include "tests/support/vcsim.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#ifndef VRECON_VCSIM_BIN
#define VRECON_VCSIM_BIN ""
#endif

namespace vrecon::testing {
namespace {

std::string& LastError() {
  static std::string e;
  return e;
}

// One TCP connection to host:port, -1 when refused.
int Connect(const std::string& host, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, host.c_str(), &a.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// "scheme://host:port/..." or "host:port" -> host, port.
bool SplitHostPort(std::string s, std::string* host, int* port) {
  if (auto p = s.find("://"); p != std::string::npos) s = s.substr(p + 3);
  s = s.substr(0, s.find('/'));
  const auto colon = s.rfind(':');
  if (colon == std::string::npos) return false;
  *host = s.substr(0, colon);
  *port = std::atoi(s.c_str() + colon + 1);
  return *port > 0;
}

}  // namespace

bool Vcsim::Available() { return !BinaryPath().empty() && access(BinaryPath().c_str(), X_OK) == 0; }
std::string Vcsim::BinaryPath() { return VRECON_VCSIM_BIN; }
const std::string& Vcsim::last_error() { return LastError(); }

std::string Vcsim::log() const { return ReadText(dir_.File("vcsim.log")); }

std::unique_ptr<Vcsim> Vcsim::Start(const VcsimOptions& options) {
  LastError().clear();
  if (!Available()) {
    LastError() = "vcsim binary not available: '" + BinaryPath() + "'";
    return nullptr;
  }
  std::unique_ptr<Vcsim> sim(new Vcsim());
  sim->options_ = options;
  const std::string info = sim->dir_.File("info");
  std::vector<std::string> args = {BinaryPath(),
                                   "-vms=" + std::to_string(options.vms),
                                   "-hosts=" + std::to_string(options.hosts),
                                   "-clusters=" + std::to_string(options.clusters),
                                   "-user=" + options.user,
                                   "-password=" + options.password,
                                   "-max-query-metrics=" + std::to_string(options.max_query_metrics),
                                   "-stats-level=" + std::to_string(options.stats_level),
                                   "-day-keep=" + std::to_string(options.day_keep_s),
                                   "-port=" + std::to_string(options.port),
                                   "-info=" + info};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string log_path = sim->dir_.File("vcsim.log");

  const pid_t pid = fork();
  if (pid < 0) {
    LastError() = "fork failed";
    return nullptr;
  }
  if (pid == 0) {  // child: stdin from /dev/null, stdout+stderr to the log, then exec
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in >= 0) dup2(in, 0);
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  sim->pid_ = pid;

  // The launcher renames the info file into place only after the HTTPS and admin listeners are up.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.start_timeout_s);
  while (!std::filesystem::exists(info)) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      sim->pid_ = -1;
      LastError() = "vcsim exited during start-up: " + sim->log();
      return nullptr;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      LastError() = "vcsim did not start within " + std::to_string(options.start_timeout_s) + " s: " + sim->log();
      return nullptr;  // destructor stops it
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  std::map<std::string, std::string> kv;
  std::istringstream lines(ReadText(info));
  for (std::string line; std::getline(lines, line);) {
    if (auto eq = line.find('='); eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  sim->url_ = kv["url"];
  sim->ca_file_ = kv["ca_file"];
  std::string host;
  if (!SplitHostPort(sim->url_, &host, &sim->port_) ||
      !SplitHostPort(kv["admin"], &sim->admin_host_, &sim->admin_port_)) {
    LastError() = "unreadable vcsim info file: " + ReadText(info);
    return nullptr;
  }
  // Belt and braces: the port must accept a connection before a test uses it.
  while (true) {
    if (const int fd = Connect(host, sim->port_); fd >= 0) {
      close(fd);
      break;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      LastError() = "vcsim port " + std::to_string(sim->port_) + " does not accept connections";
      return nullptr;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return sim;
}

bool Vcsim::ExpireSessions() { return AdminPost("/expire-sessions"); }

bool Vcsim::AdvanceClock(int seconds) { return AdminPost("/advance-clock?s=" + std::to_string(seconds)); }

bool Vcsim::AdminPost(const std::string& path) {
  const int fd = Connect(admin_host_, admin_port_);
  if (fd < 0) return false;
  const std::string req = "POST " + path + " HTTP/1.0\r\nHost: " + admin_host_ + "\r\nContent-Length: 0\r\n\r\n";
  bool ok = write(fd, req.data(), req.size()) == static_cast<ssize_t>(req.size());
  std::string resp;
  char buf[512];
  for (ssize_t n; ok && (n = read(fd, buf, sizeof buf)) > 0;) resp.append(buf, static_cast<size_t>(n));
  close(fd);
  return ok && resp.rfind("HTTP/1.", 0) == 0 && resp.find(" 200 ") != std::string::npos;
}

Vcsim::~Vcsim() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

CliResult CollectVsphere(const Vcsim& sim, const std::string& db, const std::vector<std::string>& extra) {
  setenv("VRECON_VSPHERE_PASSWORD", sim.password().c_str(), 1);
  std::vector<std::string> args = {"collect",     "vsphere", "--url", sim.url(), "--user", sim.user(), "--ca",
                                   sim.ca_file(), "--db",    db,      "--since", "5m",     "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  CliResult r = RunVrecon(args);
  unsetenv("VRECON_VSPHERE_PASSWORD");
  return r;
}

std::string VcenterToml(const std::string& name, const Vcsim& sim, int concurrency, const std::string& vms) {
  return "[[vcenter]]\nname = \"" + name + "\"\nurl = \"" + sim.url() + "\"\nuser = \"" + sim.user() +
         "\"\npassword_env = \"VRECON_TEST_VC_PW\"\nca = \"" + sim.ca_file() +
         "\"\nconcurrency = " + std::to_string(concurrency) + "\nvms = [\"" + vms + "\"]\n";
}

size_t VmMarks(const std::map<MarkKey, TimeNs>& marks) {
  return static_cast<size_t>(
      std::count_if(marks.begin(), marks.end(), [](const auto& m) { return std::get<0>(m.first).starts_with("vm-"); }));
}

}  // namespace vrecon::testing
