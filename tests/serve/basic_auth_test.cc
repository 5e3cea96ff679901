// --auth-file: htpasswd-style users checked with crypt(3); only bcrypt and SHA-512 crypt; every
// bad line named. Over real HTTP: tests/serve/serve_test.cc (BasicAuthServeTest).
#include "src/serve/basic_auth.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "tests/support/cli_runner.h"

namespace vrecon::serve {
namespace {

// Openwall's crypt_blowfish test vector (password "U*U"), and `openssl passwd -6 -salt vrecon
// s3cret`.
constexpr const char* kBcrypt = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";
constexpr const char* kSha512 =
    "$6$vrecon$LePtEmPF5tjLdx2ZCAZA06S.jM.Xhk.3CF87T6Vk97HuPsa5849AXJrvftnjL5e5phbKHNacsqvd6Fhtcncs21";

std::string Basic(const std::string& user_password) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out = "Basic ";
  for (size_t i = 0; i < user_password.size(); i += 3) {
    const size_t n = std::min<size_t>(3, user_password.size() - i);
    uint32_t v = 0;
    for (size_t k = 0; k < 3; ++k) v = (v << 8) | (k < n ? static_cast<unsigned char>(user_password[i + k]) : 0u);
    for (size_t k = 0; k < 4; ++k) out += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

TEST(BasicAuthTest, ChecksBcryptAndSha512Users) {
  auto a = AuthFile::Parse(std::string("# planners\n\nalice:") + kBcrypt + "\r\nbob:" + kSha512 + "\n", "users");
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->users(), 2u);
  EXPECT_EQ(a->Check(Basic("alice:U*U")), "alice");
  EXPECT_EQ(a->Check(Basic("bob:s3cret")), "bob");
  EXPECT_FALSE(a->Check(Basic("bob:s3cre")));
  EXPECT_FALSE(a->Check(Basic("alice:s3cret")));
  EXPECT_FALSE(a->Check(Basic("carol:U*U")));
  EXPECT_FALSE(a->Check(Basic("alice")));
  EXPECT_FALSE(a->Check("Bearer abc"));
  EXPECT_FALSE(a->Check("Basic !!!!"));
  EXPECT_FALSE(a->Check(""));
}

TEST(BasicAuthTest, EveryBadLineIsNamed) {
  const std::pair<std::string, std::string> cases[] = {
      {"alice\n", "users:1: expected user:hash"},
      {":x\n", "users:1: expected user:hash"},
      {"# c\nalice:$apr1$abc$def\n", "users:2: the hash of user alice is neither bcrypt"},
      {"alice:plain\n", "neither bcrypt"},
      {std::string("alice:") + kBcrypt + "\nalice:" + kSha512 + "\n", "users:2: user alice is given twice"},
      {"# nobody\n", "names no user"},
  };
  for (const auto& [text, want] : cases) {
    auto a = AuthFile::Parse(text, "users");
    ASSERT_FALSE(a.ok()) << text;
    EXPECT_NE(a.status().message().find(want), std::string::npos) << a.status().message();
  }
}

TEST(BasicAuthTest, DecodesBase64Strictly) {
  EXPECT_EQ(DecodeBase64("YWxpY2U6VSpV"), "alice:U*U");
  EXPECT_EQ(DecodeBase64("YQ=="), "a");
  EXPECT_EQ(DecodeBase64("YWI="), "ab");
  EXPECT_EQ(DecodeBase64(""), "");
  EXPECT_FALSE(DecodeBase64("YQ="));
  EXPECT_FALSE(DecodeBase64("Y=Q="));
  EXPECT_FALSE(DecodeBase64("YQ==YQ=="));
  EXPECT_FALSE(DecodeBase64("YW-i"));
}

}  // namespace
}  // namespace vrecon::serve
