// Proves the simulator infrastructure (tests/vcsim, tests/support/vcsim) without vrecon's own
// vSphere client: raw SOAP over curl(1) against a real simulator on 127.0.0.1.
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/cli_runner.h"
#include "tests/support/vcsim.h"

namespace vrecon::testing {
namespace {

struct Http {
  int curl_exit = -1;  // 0 = transfer done (any HTTP status); 60 = certificate not verified
  std::string headers, body, err;
};

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string Envelope(const std::string& body) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>)"
         R"(<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:vim25="urn:vim25">)"
         "<soapenv:Body>" +
         body + "</soapenv:Body></soapenv:Envelope>";
}

const std::string kServiceContent = Envelope(
    R"(<vim25:RetrieveServiceContent><vim25:_this type="ServiceInstance">ServiceInstance</vim25:_this></vim25:RetrieveServiceContent>)");
const std::string kCurrentTime = Envelope(
    R"(<vim25:CurrentTime><vim25:_this type="ServiceInstance">ServiceInstance</vim25:_this></vim25:CurrentTime>)");

std::string LoginEnvelope(const std::string& user, const std::string& password) {
  return Envelope(R"(<vim25:Login><vim25:_this type="SessionManager">SessionManager</vim25:_this><vim25:userName>)" +
                  user + "</vim25:userName><vim25:password>" + password + "</vim25:password></vim25:Login>");
}

// POSTs a SOAP envelope with curl(1). ca: --cacert file ("" = system trust store only);
// cookie: "name=value" to send ("" = none).
Http Post(const Vcsim& sim, const std::string& envelope, const std::string& ca, const std::string& cookie = "") {
  TempDir io;
  WriteText(io.File("req.xml"), envelope);
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "literal" + temporary.
  std::string cmd = "curl -sS --max-time 20 -X POST -H 'Content-Type: text/xml; charset=utf-8'";
  cmd += " -H 'SOAPAction: \"urn:vim25/6.5\"'";
  auto arg = [&cmd](const char* flag, const std::string& value) {
    cmd += flag;
    cmd += Quote(value);
  };
  arg(" --data-binary @", io.File("req.xml"));
  arg(" -D ", io.File("headers"));
  arg(" -o ", io.File("body"));
  if (!ca.empty()) arg(" --cacert ", ca);
  if (!cookie.empty()) arg(" -b ", cookie);
  arg(" ", sim.url());
  arg(" 2>", io.File("err"));
  cmd += " </dev/null";
  const int status = std::system(cmd.c_str());
  Http r;
  r.curl_exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.headers = ReadText(io.File("headers"));
  r.body = ReadText(io.File("body"));
  r.err = ReadText(io.File("err"));
  return r;
}

// "vmware_soap_session=..." from the Set-Cookie header, "" when absent.
std::string SessionCookie(const std::string& headers) {
  const std::string key = "vmware_soap_session=";
  const auto p = headers.find(key);
  if (p == std::string::npos) return "";
  const auto end = headers.find_first_of(";\r\n", p);
  return headers.substr(p, end - p);
}

bool HaveCurl() { return std::system("curl --version >/dev/null 2>&1") == 0; }

TEST(VcsimSmoke, ServesSoapWithTlsLoginAndSessionExpiry) {
  VRECON_REQUIRE_VCSIM();
  if (!HaveCurl()) GTEST_SKIP() << "curl(1) not installed (scripts/install-deps.sh installs it)";
  auto sim = Vcsim::Start({.vms = 3});
  ASSERT_NE(sim, nullptr) << Vcsim::last_error();
  EXPECT_EQ(sim->url().rfind("https://127.0.0.1:", 0), 0u) << sim->url();
  EXPECT_EQ(sim->url().substr(sim->url().size() - 4), "/sdk");

  // TLS verified against the simulator's private CA.
  Http sc = Post(*sim, kServiceContent, sim->ca_file());
  ASSERT_EQ(sc.curl_exit, 0) << sc.err;
  EXPECT_NE(sc.headers.find(" 200 "), std::string::npos) << sc.headers;
  EXPECT_NE(sc.body.find("RetrieveServiceContentResponse"), std::string::npos) << sc.body;
  EXPECT_NE(sc.body.find("<rootFolder type=\"Folder\">"), std::string::npos) << sc.body;

  // Without --cacert the private CA is unknown: curl refuses (exit 60, certificate problem).
  Http untrusted = Post(*sim, kServiceContent, "");
  EXPECT_EQ(untrusted.curl_exit, 60) << untrusted.err;
  EXPECT_TRUE(untrusted.body.empty());

  // Wrong password: HTTP 500 with the InvalidLogin fault, no session cookie.
  Http bad = Post(*sim, LoginEnvelope(sim->user(), "not-" + sim->password()), sim->ca_file());
  ASSERT_EQ(bad.curl_exit, 0) << bad.err;
  EXPECT_NE(bad.headers.find(" 500 "), std::string::npos) << bad.headers;
  EXPECT_NE(bad.body.find("<faultstring>Login failure</faultstring>"), std::string::npos) << bad.body;
  EXPECT_NE(bad.body.find(R"(xsi:type="InvalidLogin")"), std::string::npos) << bad.body;
  EXPECT_EQ(SessionCookie(bad.headers), "");
  // Another user name with the right password is refused too.
  Http other = Post(*sim, LoginEnvelope("someone-else", sim->password()), sim->ca_file());
  EXPECT_NE(other.body.find("InvalidLogin"), std::string::npos) << other.body;

  // Right password: 200 and the session cookie.
  Http ok = Post(*sim, LoginEnvelope(sim->user(), sim->password()), sim->ca_file());
  ASSERT_EQ(ok.curl_exit, 0) << ok.err;
  EXPECT_NE(ok.headers.find(" 200 "), std::string::npos) << ok.headers;
  EXPECT_NE(ok.body.find("<LoginResponse"), std::string::npos) << ok.body;
  const std::string cookie = SessionCookie(ok.headers);
  ASSERT_FALSE(cookie.empty()) << ok.headers;

  // An authenticated call works with the cookie and is refused without it.
  Http now = Post(*sim, kCurrentTime, sim->ca_file(), cookie);
  EXPECT_NE(now.body.find("<CurrentTimeResponse"), std::string::npos) << now.body;
  Http anonymous = Post(*sim, kCurrentTime, sim->ca_file());
  EXPECT_NE(anonymous.body.find(R"(xsi:type="NotAuthenticated")"), std::string::npos) << anonymous.body;

  // After ExpireSessions the old cookie faults with NotAuthenticated; logging in again recovers.
  ASSERT_TRUE(sim->ExpireSessions()) << sim->log();
  Http expired = Post(*sim, kCurrentTime, sim->ca_file(), cookie);
  EXPECT_NE(expired.headers.find(" 500 "), std::string::npos) << expired.headers;
  EXPECT_NE(expired.body.find(R"(xsi:type="NotAuthenticated")"), std::string::npos) << expired.body;
  Http again = Post(*sim, LoginEnvelope(sim->user(), sim->password()), sim->ca_file());
  const std::string cookie2 = SessionCookie(again.headers);
  ASSERT_FALSE(cookie2.empty()) << again.headers;
  EXPECT_NE(cookie2, cookie);
  EXPECT_NE(Post(*sim, kCurrentTime, sim->ca_file(), cookie2).body.find("<CurrentTimeResponse"), std::string::npos);
}

// The model holds exactly the VMs asked for (the launcher trims the per-pool rounding).
TEST(VcsimSmoke, CreatesExactlyTheRequestedVmsAndStopsOnDestruction) {
  VRECON_REQUIRE_VCSIM();
  if (!HaveCurl()) GTEST_SKIP() << "curl(1) not installed (scripts/install-deps.sh installs it)";
  pid_t pid = -1;
  {
    auto sim = Vcsim::Start({.vms = 3});
    ASSERT_NE(sim, nullptr) << Vcsim::last_error();
    pid = sim->pid();
    Http ok = Post(*sim, LoginEnvelope(sim->user(), sim->password()), sim->ca_file());
    const std::string cookie = SessionCookie(ok.headers);
    ASSERT_FALSE(cookie.empty()) << ok.headers;
    // A ContainerView over VirtualMachine from the root folder, then its "view" property.
    Http view = Post(
        *sim,
        Envelope(R"(<vim25:CreateContainerView><vim25:_this type="ViewManager">ViewManager</vim25:_this>)"
                 R"(<vim25:container type="Folder">group-d1</vim25:container><vim25:type>VirtualMachine</vim25:type>)"
                 R"(<vim25:recursive>true</vim25:recursive></vim25:CreateContainerView>)"),
        sim->ca_file(), cookie);
    const auto b = view.body.find("<returnval type=\"ContainerView\">");
    ASSERT_NE(b, std::string::npos) << view.body;
    const auto vs = view.body.find('>', b) + 1;
    const std::string view_id = view.body.substr(vs, view.body.find('<', vs) - vs);
    Http props = Post(
        *sim,
        Envelope(
            R"(<vim25:RetrievePropertiesEx><vim25:_this type="PropertyCollector">propertyCollector</vim25:_this>)"
            R"(<vim25:specSet><vim25:propSet><vim25:type>ContainerView</vim25:type><vim25:pathSet>view</vim25:pathSet></vim25:propSet>)"
            R"(<vim25:objectSet><vim25:obj type="ContainerView">)" +
            view_id +
            R"(</vim25:obj></vim25:objectSet></vim25:specSet><vim25:options></vim25:options></vim25:RetrievePropertiesEx>)"),
        sim->ca_file(), cookie);
    size_t count = 0;
    for (size_t p = 0; (p = props.body.find("type=\"VirtualMachine\"", p)) != std::string::npos; ++p) ++count;
    EXPECT_EQ(count, 3u) << props.body;
  }
  // The destructor sent SIGTERM and reaped the child: the pid is gone.
  EXPECT_NE(kill(pid, 0), 0);
}

}  // namespace
}  // namespace vrecon::testing
