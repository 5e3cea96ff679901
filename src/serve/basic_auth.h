// `vrecon serve --auth-file F`: HTTP basic authentication (RFC 7617) against htpasswd-style
// lines `user:hash`, the hash checked with crypt(3) (libxcrypt). Only bcrypt ($2a$, $2b$, $2y$)
// and SHA-512 crypt ($6$) are accepted: MD5-based and DES hashes fall to a laptop in hours.
#ifndef VRECON_SRC_SERVE_BASIC_AUTH_H_
#define VRECON_SRC_SERVE_BASIC_AUTH_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "src/core/status.h"

namespace vrecon::serve {

class AuthFile {
 public:
  // Reads the file: blank lines and lines starting with '#' are skipped. An unreadable file, a
  // file others may write, a line without "user:hash", a user given twice or a hash of another
  // scheme is an error naming the file and line.
  static StatusOr<AuthFile> Load(const std::string& path);
  // Parses the text of such a file (`path` names it in errors).
  static StatusOr<AuthFile> Parse(std::string_view text, const std::string& path);

  // The user an `Authorization` header value proves, when it does ("Basic " + base64(user:pw)).
  std::optional<std::string> Check(std::string_view authorization) const;
  size_t users() const { return hashes_.size(); }

 private:
  std::map<std::string, std::string, std::less<>> hashes_;
};

// Standard base64 (RFC 4648, with padding); nullopt for anything else.
std::optional<std::string> DecodeBase64(std::string_view in);

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_BASIC_AUTH_H_
