// Status, StatusOr and the CHECK macros: a misuse that would otherwise read garbage or hand on a
// default value stops the program with a message naming it.
#include "src/core/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "src/core/check.h"

namespace vrecon {
namespace {

StatusOr<int> Half(int v) {
  if (v % 2) return Status::InvalidArgument(std::to_string(v) + " is odd");
  return v / 2;
}

Status Propagates(int v, int* out) {
  ASSIGN_OR_RETURN(*out, Half(v));
  RETURN_IF_ERROR(Status::Ok());
  return Status::Ok();
}

TEST(StatusTest, ValuesAndErrorsTravelThroughTheMacros) {
  int out = 0;
  EXPECT_TRUE(Propagates(8, &out).ok());
  EXPECT_EQ(out, 4);
  const Status odd = Propagates(7, &out);
  EXPECT_TRUE(odd.IsInvalidArgument());
  EXPECT_EQ(odd.message(), "7 is odd");
}

TEST(StatusTest, StatusOrGivesItsValueInEveryForm) {
  StatusOr<std::string> s = std::string("abc");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, "abc");
  EXPECT_EQ(s->size(), 3u);
  const StatusOr<std::string>& c = s;
  EXPECT_EQ(c.value(), "abc");
  EXPECT_EQ(*c, "abc");
  StatusOr<std::unique_ptr<int>> p = std::make_unique<int>(5);
  const std::unique_ptr<int> moved = std::move(p).value();
  EXPECT_EQ(*moved, 5);
}

TEST(StatusDeathTest, StatusOrFromAnOkStatusStops) {
  EXPECT_DEATH(
      {
        StatusOr<int> s(Status::Ok());
        (void)s;
      },
      "check failed: .*StatusOr built from an OK Status");
}

TEST(StatusDeathTest, ReadingAStatusOrInErrorStopsWithItsMessage) {
  const StatusOr<int> odd = Half(3);
  ASSERT_FALSE(odd.ok());
  EXPECT_DEATH((void)odd.value(), "check failed: .*value of a StatusOr in error: 3 is odd");
  EXPECT_DEATH((void)*odd, "3 is odd");
  StatusOr<std::string> missing = Status::NotFound("no such file");
  EXPECT_DEATH((void)missing->size(), "no such file");
  EXPECT_DEATH((void)std::move(missing).value(), "no such file");
}

TEST(CheckDeathTest, CheckNamesTheFileLineAndExpression) {
  const int n = 2;
  VRECON_CHECK(n == 2);
  VRECON_CHECK_MSG(n > 0, "never shown");
  EXPECT_DEATH(VRECON_CHECK(n == 3), "status_test.cc:[0-9]+: check failed: n == 3");
  EXPECT_DEATH(VRECON_CHECK_MSG(n < 0, "n is " + std::to_string(n)), "check failed: n < 0 n is 2");
}

TEST(CheckDeathTest, DcheckIsOnInDebugBuildsAndNotEvaluatedInRelease) {
  int evaluated = 0;
  auto never = [&evaluated] { return ++evaluated < 0; };
#ifdef NDEBUG
  VRECON_DCHECK(never());
  VRECON_DCHECK_MSG(never(), "compiled but not run");
  EXPECT_EQ(evaluated, 0);
#else
  EXPECT_DEATH(VRECON_DCHECK(never()), "check failed: never\\(\\)");
  VRECON_DCHECK(evaluated == 0);  // the death happened in a child process
#endif
}

}  // namespace
}  // namespace vrecon
