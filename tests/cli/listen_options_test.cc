// The HTTP server's options as `vrecon serve` and `vrecon collect --listen` check them
// (src/cli/listen_options.h): what fits together, what leaves loopback, and --auth-file.
#include "src/cli/listen_options.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "tests/support/cli_runner.h"

namespace vrecon::cli {
namespace {

TEST(ListenOptionsTest, LoopbackNeedsNothingMore) {
  ListenOptions o;
  o.listen = "127.0.0.1:9477";
  o.top = 25;
  StatusOr<serve::ServerOptions> s = ToServerOptions(o, "/var/lib/vrecon/vrecon.db");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->listen.host, "127.0.0.1");
  EXPECT_EQ(s->listen.port, 9477);
  EXPECT_TRUE(s->listen.loopback);
  EXPECT_EQ(s->db, "/var/lib/vrecon/vrecon.db");
  EXPECT_EQ(s->top, 25);
  EXPECT_FALSE(s->version.empty());
  EXPECT_TRUE(s->tls_cert.empty() && s->tls_key.empty());
  EXPECT_EQ(s->auth, nullptr);
}

TEST(ListenOptionsTest, ABadAddressIsNamed) {
  ListenOptions o;
  o.listen = "9477";
  StatusOr<serve::ServerOptions> s = ToServerOptions(o, "v.db");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsInvalidArgument());
  EXPECT_EQ(s.status().message(), "--listen \"9477\": expected HOST:PORT, e.g. 127.0.0.1:9477");
}

TEST(ListenOptionsTest, CertificateAndKeyGoTogether) {
  ListenOptions o;
  o.listen = "127.0.0.1:0";
  o.tls_cert = "/etc/vrecon/cert.pem";
  StatusOr<serve::ServerOptions> s = ToServerOptions(o, "v.db");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "--tls-cert and --tls-key go together: give both or neither");
  o.tls_cert.clear();
  o.tls_key = "/etc/vrecon/key.pem";
  EXPECT_FALSE(ToServerOptions(o, "v.db").ok());
  o.tls_cert = "/etc/vrecon/cert.pem";
  s = ToServerOptions(o, "v.db");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->tls_cert, "/etc/vrecon/cert.pem");
  EXPECT_EQ(s->tls_key, "/etc/vrecon/key.pem");
}

// Off loopback the endpoint shows the estate's VMs: TLS, or plain HTTP asked for by name.
TEST(ListenOptionsTest, LeavingLoopbackNeedsTlsOrInsecureListen) {
  ListenOptions o;
  o.listen = "0.0.0.0:9477";
  StatusOr<serve::ServerOptions> s = ToServerOptions(o, "v.db");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsInvalidArgument());
  EXPECT_NE(s.status().message().find("--listen 0.0.0.0:9477"), std::string::npos) << s.status().message();
  o.insecure_listen = true;
  EXPECT_TRUE(ToServerOptions(o, "v.db").ok());
  o.insecure_listen = false;
  o.tls_cert = "c.pem";
  o.tls_key = "k.pem";
  EXPECT_TRUE(ToServerOptions(o, "v.db").ok());
}

TEST(ListenOptionsTest, AuthFileIsReadWhenGiven) {
  testing::TempDir dir;
  ListenOptions o;
  o.listen = "127.0.0.1:0";
  StatusOr<serve::ServerOptions> s = ToServerOptions(o, "v.db");
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(LoadAuthFile(o, &*s).ok());  // none given: nothing to read
  EXPECT_EQ(s->auth, nullptr);

  o.auth_file = dir.File("users");
  Status missing = LoadAuthFile(o, &*s);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(), "cannot read --auth-file " + o.auth_file);

  // `openssl passwd -6 -salt vrecon s3cret`
  testing::WriteText(
      o.auth_file,
      "# users\nbob:$6$vrecon$LePtEmPF5tjLdx2ZCAZA06S.jM.Xhk.3CF87T6Vk97HuPsa5849AXJrvftnjL5e5phbKHNacsqvd"
      "6Fhtcncs21\n");
  ASSERT_EQ(chmod(o.auth_file.c_str(), 0600), 0);
  ASSERT_TRUE(LoadAuthFile(o, &*s).ok());
  ASSERT_NE(s->auth, nullptr);
  EXPECT_EQ(s->auth->users(), 1u);
}

}  // namespace
}  // namespace vrecon::cli
