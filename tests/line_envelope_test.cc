// The plots' reduction of a long curve (io::LineEnvelope): every column of its x axis keeps its
// lowest, highest, first and last point (so the curve's first and last), and nothing is invented.
#include <vibroimpact/io/line_envelope.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

using vibroimpact::io::LineEnvelope;

namespace
{
  using Points = std::vector<LineEnvelope::Point>;

  // A random walk with rare spikes, x from 0 in steps of 1e-5 (a record's rows).
  Points random_record(const std::size_t n, const unsigned seed)
  {
    std::mt19937                     random(seed);
    std::normal_distribution<double> step(0.0, 1.0);
    std::uniform_real_distribution<double> spike(0.0, 1.0);
    Points                           curve;
    double                           y = 0.0;
    for (std::size_t k = 0; k < n; ++k)
      {
        y += step(random);
        curve.push_back({1e-5 * double(k), spike(random) < 1e-3 ? y + 100 * step(random) : y});
      }
    return curve;
  }

  LineEnvelope envelope_of(const Points &curve, const std::size_t columns)
  {
    LineEnvelope e(columns);
    for (const auto &p : curve)
      e.add(p.x, p.y);
    return e;
  }

  // Per column of the envelope's grid: its first and last point, its lowest and highest y.
  struct ColumnSummary
  {
    LineEnvelope::Point first, last;
    double              low, high;
  };

  std::map<long, ColumnSummary> columns_of(const Points &points, const LineEnvelope &e)
  {
    std::map<long, ColumnSummary> by_column;
    for (const auto &p : points)
      {
        const long column = std::max(0L, long(std::floor((p.x - e.origin()) / e.width())));
        auto       it     = by_column.find(column);
        if (it == by_column.end())
          by_column[column] = {p, p, p.y, p.y};
        else
          it->second = {it->second.first, p, std::min(it->second.low, p.y), std::max(it->second.high, p.y)};
      }
    return by_column;
  }

  bool same_point(const LineEnvelope::Point &a, const LineEnvelope::Point &b) { return a.x == b.x && a.y == b.y; }

  void expect_envelope_of(const Points &curve, const LineEnvelope &e, const std::size_t columns)
  {
    const auto kept = e.points();
    ASSERT_FALSE(kept.empty());
    EXPECT_TRUE(same_point(kept.front(), curve.front()));
    EXPECT_TRUE(same_point(kept.back(), curve.back()));
    // At least `columns` columns over the curve's range, at most four points each.
    ASSERT_GT(e.width(), 0.0);
    EXPECT_GE((curve.back().x - e.origin()) / e.width(), double(columns) - 1);
    EXPECT_LE(kept.size(), 4 * 2 * columns);
    // Points of the curve, in its order.
    std::size_t at = 0;
    for (const auto &p : kept)
      {
        while (at < curve.size() && !same_point(curve[at], p))
          ++at;
        ASSERT_LT(at, curve.size()) << "a point not of the curve, or out of order: " << p.x << ", " << p.y;
        ++at;
      }
    // Each column's extremes, and its first and last point (which join it to its neighbours).
    const auto all = columns_of(curve, e), shown = columns_of(kept, e);
    ASSERT_EQ(all.size(), shown.size());
    for (const auto &[column, summary] : all)
      {
        const auto &s = shown.at(column);
        EXPECT_EQ(s.low, summary.low) << "column " << column;
        EXPECT_EQ(s.high, summary.high) << "column " << column;
        EXPECT_TRUE(same_point(s.first, summary.first)) << "column " << column;
        EXPECT_TRUE(same_point(s.last, summary.last)) << "column " << column;
      }
  }
} // namespace

TEST(IoLineEnvelope, KeepsAShortCurveWhole)
{
  const Points curve = random_record(1000, 1);
  const auto   kept  = envelope_of(curve, 600).points();
  ASSERT_EQ(kept.size(), curve.size());
  for (std::size_t k = 0; k < curve.size(); ++k)
    EXPECT_TRUE(same_point(kept[k], curve[k]));
}

TEST(IoLineEnvelope, KeepsEveryColumnsLowestAndHighestAndBothEnds)
{
  for (const std::size_t n : {1201UL, 5000UL, 100000UL, 1000003UL})
    {
      SCOPED_TRACE(n);
      const Points curve = random_record(n, unsigned(n));
      const auto   e     = envelope_of(curve, 600);
      expect_envelope_of(curve, e, 600);
      EXPECT_LE(e.points().size(), 4 * 1200U);
    }
}

TEST(IoLineEnvelope, HoldsAtRepeatedAbscissasAndNans)
{
  Points curve = random_record(20000, 7);
  for (std::size_t k = 0; k < curve.size(); ++k)
    curve[k].x = double(k / 10); // ten points at each x
  LineEnvelope e(100);
  for (const auto &p : curve)
    e.add(p.x, p.y);
  e.add(curve.back().x, std::nan("")); // left out
  expect_envelope_of(curve, e, 100);
}

TEST(IoLineEnvelope, AVerticalCurveIsOneColumn)
{
  LineEnvelope e(2);
  for (const double y : {3.0, -1.0, 7.0, 2.0, 5.0, 0.0})
    e.add(1.0, y);
  const auto kept = e.points(); // first, lowest, highest, last
  ASSERT_EQ(kept.size(), 4U);
  EXPECT_EQ(kept[0].y, 3.0);
  EXPECT_EQ(kept[1].y, -1.0);
  EXPECT_EQ(kept[2].y, 7.0);
  EXPECT_EQ(kept[3].y, 0.0);
}
