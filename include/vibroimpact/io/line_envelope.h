// A curve of any number of points reduced to what a plot of a given width can show: per column
// of the x axis, the first, lowest, highest and last point, in their order (the "M4" reduction
// of Jugel et al. 2014, VLDB). A line drawn through these points touches the same pixels as a
// line through all of them when a column is a pixel column, so the plots of long records
// (support_forces.png, spectra.png) draw a few thousand points instead of every row.
//
// Fed point by point with x nondecreasing (a record's time): the x range need not be known. The
// first 2·columns points are kept as they are; then the range seen so far is split into
// `columns` columns of equal width from the first x, and the width doubles (pairs of columns
// merge) whenever a point falls past 2·columns of them. So at the end there are between
// `columns` and 2·columns columns (or every point, for fewer than 2·columns), and at most four
// points a column.
#pragma once

#include <cstddef>
#include <vector>

namespace vibroimpact::io
{
  class LineEnvelope
  {
  public:
    struct Point
    {
      double x, y;
    };

    // columns: at least the width in pixels of the plot it is for.
    explicit LineEnvelope(std::size_t columns = 1000);

    // The next point of the curve (x ≥ every x before it). A nan y is left out.
    void add(double x, double y);

    // The points kept, in the order they were added: per column its first, lowest, highest and
    // last (each once). Includes the curve's first and last point.
    std::vector<Point> points() const;

    // The columns: column k holds the points with origin() + k·width() ≤ x < origin() + (k+1)·width().
    // width() is 0 while every point is kept as it is.
    double      origin() const { return origin_; }
    double      width() const { return width_; }
    std::size_t n_added() const { return n_added_; }

  private:
    struct Sample
    {
      Point       p;
      std::size_t order; // which point of the curve it was
    };
    struct Column
    {
      bool   used = false;
      Sample first, low, high, last;
    };

    void bin(const Sample &s);
    void start_columns();
    void merge_pairs();

    std::size_t         columns_;
    double              origin_  = 0.0;
    double              width_   = 0.0;
    std::size_t         n_added_ = 0;
    std::vector<Sample> raw_;  // while fewer than 2·columns points came
    std::vector<Column> bins_; // afterwards, 2·columns of them
  };
} // namespace vibroimpact::io
