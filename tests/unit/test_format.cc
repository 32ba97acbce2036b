// Numbers on the terminal: format_significant and format_seconds. Expected
// texts are those of C's printf "%.6g" / "%.3g" (the same as Python's
// '%.6g' % x), written out by hand.
#include <hamilton/base/format.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace hamilton;

TEST(Format, SignificantDigits)
{
  // the leak of issue 15: 'written in 0.36775060599999987 s'
  EXPECT_EQ(format_significant(0.36775060599999987), "0.367751");
  EXPECT_EQ(format_significant(3639.2757796120427), "3639.28");
  EXPECT_EQ(format_significant(0.014796172614140603), "0.0147962");
  EXPECT_EQ(format_significant(1.5e-11), "1.5e-11");
  EXPECT_EQ(format_significant(-2.0e7), "-2e+07");
  EXPECT_EQ(format_significant(1234567.), "1.23457e+06");
  EXPECT_EQ(format_significant(2.5, 3), "2.5");
  EXPECT_EQ(format_significant(2.14e-11, 3), "2.14e-11");
}

TEST(Format, ZeroAndNonFinite)
{
  EXPECT_EQ(format_significant(0.), "0");
  EXPECT_EQ(format_significant(-0.), "0");
  EXPECT_EQ(format_significant(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_significant(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_significant(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(Format, Seconds)
{
  EXPECT_EQ(format_seconds(0.36775060599999987), "0.368 s");
  EXPECT_EQ(format_seconds(0.0026), "0.0026 s");
  EXPECT_EQ(format_seconds(125.4), "125 s");
}
