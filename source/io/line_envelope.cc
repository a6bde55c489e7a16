// A curve reduced to the first, lowest, highest and last point of each column of its x axis
// (see the header): columns of doubling width, merged in pairs as the curve goes on.
#include <vibroimpact/io/line_envelope.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace vibroimpact::io
{
  LineEnvelope::LineEnvelope(const std::size_t columns)
    : columns_(std::max<std::size_t>(columns, 1))
  {}

  void LineEnvelope::add(const double x, const double y)
  {
    if (std::isnan(y) || !std::isfinite(x))
      return;
    const Sample s{{x, y}, n_added_++};
    if (!bins_.empty())
      return bin(s);
    raw_.push_back(s);
    if (raw_.size() > 2 * columns_)
      start_columns();
  }

  // From the points kept as they came to columns: the range seen so far makes `columns_` of them.
  void LineEnvelope::start_columns()
  {
    origin_          = raw_.front().p.x;
    const double span = raw_.back().p.x - origin_;
    width_           = span > 0 ? span / double(columns_) : std::numeric_limits<double>::infinity();
    bins_.assign(2 * columns_, Column{});
    for (const auto &s : raw_)
      bin(s);
    raw_.clear();
    raw_.shrink_to_fit();
  }

  void LineEnvelope::bin(const Sample &s)
  {
    const auto column_of = [this](const double x) {
      const double k = std::floor((x - origin_) / width_);
      return k > 0 ? k : 0.0; // a point before the first (x decreasing) joins the first column
    };
    double k = column_of(s.p.x);
    while (k >= double(bins_.size()))
      {
        merge_pairs();
        k = column_of(s.p.x);
      }
    auto &c = bins_[std::size_t(k)];
    if (!c.used)
      {
        c = Column{true, s, s, s, s};
        return;
      }
    c.last = s;
    if (s.p.y < c.low.p.y)
      c.low = s;
    if (s.p.y > c.high.p.y)
      c.high = s;
  }

  // Columns 2k and 2k+1 become column k, of twice the width; the upper half is empty then.
  void LineEnvelope::merge_pairs()
  {
    for (std::size_t k = 0; k < columns_; ++k)
      {
        const Column &a = bins_[2 * k], &b = bins_[2 * k + 1];
        Column        merged = !a.used ? b : a;
        if (a.used && b.used)
          {
            merged.last = b.last;
            if (b.low.p.y < a.low.p.y)
              merged.low = b.low;
            if (b.high.p.y > a.high.p.y)
              merged.high = b.high;
          }
        bins_[k] = merged;
      }
    std::fill(bins_.begin() + std::ptrdiff_t(columns_), bins_.end(), Column{});
    width_ *= 2;
  }

  std::vector<LineEnvelope::Point> LineEnvelope::points() const
  {
    std::vector<Point> out;
    if (bins_.empty())
      {
        for (const auto &s : raw_)
          out.push_back(s.p);
        return out;
      }
    for (const auto &c : bins_)
      {
        if (!c.used)
          continue;
        Sample four[] = {c.first, c.low, c.high, c.last};
        std::sort(std::begin(four), std::end(four), [](const Sample &a, const Sample &b) { return a.order < b.order; });
        for (std::size_t i = 0; i < 4; ++i)
          if (i == 0 || four[i].order != four[i - 1].order)
            out.push_back(four[i].p);
      }
    return out;
  }
} // namespace vibroimpact::io
