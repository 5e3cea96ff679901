// The HTML report in a real browser: headless Chromium (Debian's `chromium`) opens the report of
// the multi-VM fixture; the page must load with no console errors, its charts must hold drawn
// lines, its height must be sane, and a screenshot is kept in the build tree
// (<build>/tests/artifacts/report.png) as a CI artefact. Without chromium the test skips, unless
// VRECON_REQUIRE_CHROMIUM=1 (set by scripts/test.sh, so CI fails instead).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include "tests/support/capacity_logs.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"
#include "tests/support/png_pixels.h"

namespace vrecon {
namespace {

using testing::CliResult;
using testing::Fixture;
using testing::ReadText;
using testing::RunVrecon;
using testing::TempDir;
using testing::WriteText;

std::string FindChromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    const char* path = std::getenv("PATH");
    std::string p = path ? path : "/usr/bin";
    size_t start = 0;
    while (start <= p.size()) {
      size_t colon = p.find(':', start);
      if (colon == std::string::npos) colon = p.size();
      const std::string candidate = p.substr(start, colon - start) + "/" + name;
      if (std::filesystem::exists(candidate)) return candidate;
      start = colon + 1;
    }
  }
  return "";
}

// Runs a shell command, returning its exit status; stdout and stderr go to the given files.
int Shell(const std::string& cmd) { return std::system(cmd.c_str()); }

std::string Quote(const std::string& s) { return "'" + s + "'"; }

// PNG width and height from the IHDR chunk.
std::pair<int, int> PngSize(const std::string& png) {
  if (png.size() < 24 || png.compare(1, 3, "PNG") != 0) return {0, 0};
  auto be = [&](size_t o) {
    return (static_cast<unsigned char>(png[o]) << 24) | (static_cast<unsigned char>(png[o + 1]) << 16) |
           (static_cast<unsigned char>(png[o + 2]) << 8) | static_cast<unsigned char>(png[o + 3]);
  };
  return {static_cast<int>(be(16)), static_cast<int>(be(20))};
}

// Chromium's path; "" (and the test skipped or failed, as VRECON_REQUIRE_CHROMIUM says) when none.
#define REQUIRE_CHROMIUM(chromium)                                                                           \
  const std::string chromium = FindChromium();                                                               \
  if (chromium.empty()) {                                                                                    \
    const char* req = std::getenv("VRECON_REQUIRE_CHROMIUM");                                                \
    if (req && std::string(req) == "1")                                                                      \
      FAIL() << "VRECON_REQUIRE_CHROMIUM=1 but chromium is not installed (apt-get install chromium)";        \
    GTEST_SKIP() << "chromium not installed (Debian package `chromium`); CI sets VRECON_REQUIRE_CHROMIUM=1"; \
  }

std::string HeadlessFlags(const TempDir& dir) {
  return " --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking "
         "--disable-extensions --user-data-dir=" +
         Quote(dir.File("profile")) + " ";
}

TEST(ReportBrowserTest, HtmlReportRendersInHeadlessChromium) {
  REQUIRE_CHROMIUM(chromium);
  TempDir dir;
  const std::string db = dir.File("fleet.db");
  for (const char* f : {"report/fleet-guests.csv", "report/fleet-esxtop.csv"})
    ASSERT_EQ(testing::Ingest(db, Fixture(f)).exit_code, 0);
  const std::string html = dir.File("report.html");
  CliResult r = RunVrecon({"report", "--db", db, "--out", html});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = ReadText(html);
  EXPECT_EQ(page.find("<script"), std::string::npos);  // self-contained, nothing to run
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  // Guest logs' time zone, not the esxtop log's (a host-side file).
  EXPECT_NE(page.find("written in local time Coordinated Universal Time (UTC+00:00) (DB02, LONE03, WEB02)."),
            std::string::npos);
  // Axes and legends repeated by every VM are drawn from one definition.
  EXPECT_NE(page.find("<svg class=\"defs\""), std::string::npos);
  EXPECT_NE(page.find("<use href=\"#c0\"/>"), std::string::npos);

  // A probe page measures the report's height from an iframe (the report itself has no script).
  WriteText(dir.File("probe.html"),
            "<!DOCTYPE html><html><body><iframe id=f src=\"report.html\" style=\"width:1200px;height:800px\" "
            "onload=\"document.getElementById('h').textContent='HEIGHT='+this.contentDocument.documentElement."
            "scrollHeight\"></iframe><p id=h>HEIGHT=none</p></body></html>");
  const std::string flags = HeadlessFlags(dir);
  const std::string dom = dir.File("dom.html"), log = dir.File("chromium.log");
  ASSERT_EQ(
      Shell("timeout 120 " + Quote(chromium) + flags + "--enable-logging=stderr --v=0 --virtual-time-budget=5000 " +
            "--dump-dom " + Quote("file://" + html) + " >" + Quote(dom) + " 2>" + Quote(log)),
      0)
      << ReadText(log);
  const std::string rendered = ReadText(dom);
  const std::string console = ReadText(log);
  // Console messages from the page are logged as "CONSOLE(...)" / "Uncaught ..." lines.
  EXPECT_EQ(console.find("CONSOLE("), std::string::npos) << console;
  EXPECT_EQ(console.find("Uncaught"), std::string::npos) << console;

  // Charts present, with drawn lines of several points each.
  const std::regex chart_re("<svg class=\"chart\"");
  const auto charts =
      std::distance(std::sregex_iterator(rendered.begin(), rendered.end(), chart_re), std::sregex_iterator());
  EXPECT_GE(charts, 8) << "two charts per VM for 4 VMs";
  const std::regex path_re("<path class=\"line[^\"]*\" stroke=\"[^\"]+\" d=\"([^\"]+)\"");
  int lines = 0;
  for (auto it = std::sregex_iterator(rendered.begin(), rendered.end(), path_re); it != std::sregex_iterator(); ++it) {
    const std::string d = (*it)[1];
    // "M x y l dx dy dx dy ...": points are pairs of numbers.
    const std::regex number("-?[0-9.]+");
    const auto points = std::distance(std::sregex_iterator(d.begin(), d.end(), number), std::sregex_iterator()) / 2;
    EXPECT_GE(points, 2) << d;
    ++lines;
  }
  EXPECT_GE(lines, 6) << "guest, host and w for WEB02 and DB02 at least";
  EXPECT_NE(rendered.find("id=\"flag-high-ready\""), std::string::npos);

  const std::string probe_dom = dir.File("probe-dom.html");
  ASSERT_EQ(
      Shell("timeout 120 " + Quote(chromium) + flags + "--allow-file-access-from-files --virtual-time-budget=5000 " +
            "--dump-dom " + Quote("file://" + dir.File("probe.html")) + " >" + Quote(probe_dom) + " 2>/dev/null"),
      0);
  std::smatch m;
  const std::string probe = ReadText(probe_dom);
  ASSERT_TRUE(std::regex_search(probe, m, std::regex("HEIGHT=(\\d+)"))) << probe;
  const int height = std::stoi(m[1]);
  EXPECT_GT(height, 2000) << "fleet page and four VM sections";
  EXPECT_LT(height, 40000);

  // The screenshot, kept as a CI artefact.
  const std::string artifacts = std::string(VRECON_ARTIFACT_DIR);
  std::filesystem::create_directories(artifacts);
  const std::string shot = artifacts + "/report.png";
  std::filesystem::remove(shot);
  ASSERT_EQ(Shell("timeout 120 " + Quote(chromium) + flags + "--window-size=1280,2400 --hide-scrollbars --screenshot=" +
                  Quote(shot) + " " + Quote("file://" + html) + " >/dev/null 2>&1"),
            0);
  const auto [w, h] = PngSize(ReadText(shot));
  EXPECT_EQ(w, 1280);
  EXPECT_EQ(h, 2400);
  EXPECT_GT(std::filesystem::file_size(shot), 50000u) << "a screenshot of a rendered page, not a blank one";
  // What was drawn: the page is text and thin lines on white. A shape that lost its style (an
  // unstyled SVG <rect> or path fills black) shows as a block of black pixels.
  std::string error;
  const testing::Pixels px = testing::DecodePng(ReadText(shot), &error);
  ASSERT_TRUE(error.empty()) << error;
  size_t black = 0, white = 0;
  for (int y = 0; y < px.height; ++y)
    for (int x = 0; x < px.width; ++x) {
      const uint8_t* p = px.at(x, y);
      if (p[0] < 24 && p[1] < 24 && p[2] < 24) ++black;
      if (p[0] > 240 && p[1] > 240 && p[2] > 240) ++white;
    }
  const double total = static_cast<double>(px.width) * px.height;
  EXPECT_LT(black / total, 0.002) << black << " near-black pixels of " << total;
  EXPECT_GT(white / total, 0.6) << "mostly white page";
}

// The Capacity section of a report over 35 days of a host's esxtop log: the browser draws the
// host's forecast chart (history, forecast, band, usable line) and the tables, without errors.
TEST(ReportBrowserTest, CapacitySectionDrawsTheForecast) {
  REQUIRE_CHROMIUM(chromium);
  TempDir dir;
  const std::string db = dir.File("capacity.db");
  WriteText(dir.File("esxtop.csv"), testing::EsxtopLog());
  WriteText(dir.File("guests.csv"), testing::CapacityGuests());
  ASSERT_EQ(RunVrecon({"ingest", "--db", db, dir.File("esxtop.csv"), dir.File("guests.csv")}).exit_code, 0);
  const std::string html = dir.File("report.html");
  CliResult r = RunVrecon({"report", "--db", db, "--out", html});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string dom = dir.File("dom.html"), log = dir.File("chromium.log");
  ASSERT_EQ(Shell("timeout 120 " + Quote(chromium) + HeadlessFlags(dir) +
                  "--enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom " + Quote("file://" + html) +
                  " >" + Quote(dom) + " 2>" + Quote(log)),
            0)
      << ReadText(log);
  const std::string console = ReadText(log);
  EXPECT_EQ(console.find("CONSOLE("), std::string::npos) << console;
  EXPECT_EQ(console.find("Uncaught"), std::string::npos) << console;
  const std::string rendered = ReadText(dom);
  const size_t begin = rendered.find("<section id=\"capacity\">");
  ASSERT_NE(begin, std::string::npos);
  const size_t end = rendered.find("</section>", begin);
  ASSERT_NE(end, std::string::npos);
  EXPECT_LT(end, rendered.find("<section id=\"fleet\">")) << "the Capacity section comes first";
  const std::string section = rendered.substr(begin, end - begin);
  EXPECT_NE(section.find("<td>host</td><td>esx01.example.com</td>"), std::string::npos) << section.substr(0, 3000);
  EXPECT_NE(section.find("<h3>VMs to resize</h3>"), std::string::npos);
  EXPECT_NE(section.find(">DB02</a>"), std::string::npos) << "a VM to resize links to its section";
  // The host's chart: its history and forecast lines hold many points, its band is an area.
  const std::regex line_re("<path class=\"line( dash)?\" stroke=\"[^\"]+\" d=\"([^\"]+)\"");
  int long_lines = 0;
  for (auto it = std::sregex_iterator(section.begin(), section.end(), line_re); it != std::sregex_iterator(); ++it) {
    const std::string d = (*it)[2];
    const std::regex number("-?[0-9.]+");
    if (std::distance(std::sregex_iterator(d.begin(), d.end(), number), std::sregex_iterator()) / 2 >= 20) ++long_lines;
  }
  EXPECT_GE(long_lines, 2) << "the history's line and the forecast's";
  EXPECT_NE(section.find("<path class=\"env\""), std::string::npos);
  EXPECT_NE(section.find("<line class=\"thr\""), std::string::npos);
  // The legends are drawn from the page's shared chart parts, before the section.
  EXPECT_NE(rendered.find("usable 3.6 cores"), std::string::npos) << "4 processors less 10%";

  const std::string artifacts = std::string(VRECON_ARTIFACT_DIR);
  std::filesystem::create_directories(artifacts);
  const std::string shot = artifacts + "/report-capacity.png";
  std::filesystem::remove(shot);
  ASSERT_EQ(Shell("timeout 120 " + Quote(chromium) + HeadlessFlags(dir) +
                  "--window-size=1280,1400 --hide-scrollbars --screenshot=" + Quote(shot) + " " +
                  Quote("file://" + html) + " >/dev/null 2>&1"),
            0);
  std::string error;
  const testing::Pixels px = testing::DecodePng(ReadText(shot), &error);
  ASSERT_TRUE(error.empty()) << error;
  size_t black = 0, red = 0;
  for (int y = 0; y < px.height; ++y)
    for (int x = 0; x < px.width; ++x) {
      const uint8_t* p = px.at(x, y);
      if (p[0] < 24 && p[1] < 24 && p[2] < 24) ++black;
      if (p[0] > 150 && p[1] < 120 && p[2] < 120) ++red;  // the forecast's line and band
    }
  const double total = static_cast<double>(px.width) * px.height;
  EXPECT_LT(black / total, 0.002) << "an unstyled shape fills black";
  EXPECT_GT(red, 300u) << "the forecast is drawn where a reader sees it";
}

}  // namespace
}  // namespace vrecon
