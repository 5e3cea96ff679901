// UTF-8 <-> UTF-16 at the Win32 boundary; the portable agent code is UTF-8 throughout.
#ifndef VRECON_AGENT_WINDOWS_WIN_TEXT_H_
#define VRECON_AGENT_WINDOWS_WIN_TEXT_H_

#include <windows.h>

#include <string>

namespace vrecon::agent::win {

std::wstring Widen(const std::string& utf8);
std::string Narrow(const std::wstring& utf16);
// "PDH error 0xC0000BB8: The specified object was not found on the computer."
std::string PdhErrorText(DWORD status);

}  // namespace vrecon::agent::win

#endif  // VRECON_AGENT_WINDOWS_WIN_TEXT_H_
