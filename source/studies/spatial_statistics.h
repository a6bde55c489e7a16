// The statistics of one support in space over a record, by the row rule of
// doc/udwadia_kalaba.md ("Supports in space"), and the outputs only supports in space have
// (support_orbits.csv's occupancy and support_orbits.png). Internal to support_statistics.cc,
// whose accumulator keeps one SpatialTally per support in space.
#pragma once

#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/model/spatial_support.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/studies/support_statistics.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace vibroimpact::studies
{
  // Whether any of the supports is a support in space (its files then have the spatial columns).
  inline bool any_in_space(const std::vector<SupportStatistics> &statistics)
  {
    for (const auto &s : statistics)
      if (s.in_space)
        return true;
    return false;
  }

  // Running sums of one support in space, fed the history rows of the record: O(sectors) memory
  // and one double an impact (its peak), whatever the record's length.
  class SupportStatisticsAccumulator::SpatialTally
  {
  public:
    // columns: the history's; the support's r1_, r2_, normal_impulse_, tangential_impulse_,
    // friction_work_ and wear_work_ columns are read.
    SpatialTally(const model::SpatialSupport &support, const std::vector<std::string> &columns, const WearInputs &wear);

    // The record's first row: where the increments start from.
    void start(const std::vector<double> &values);
    // Row k >= 1 of the record, the span t_k − t_{k−1} of its impulses.
    void add(const std::vector<double> &values, double span);
    // The orbit at the row: r1 (j = 0) or r2 (j = 1), relative to the support, not its centre.
    double orbit(const std::vector<double> &values, const int j) const { return values[r_[j]]; }
    // The figures over a record of this duration (the spectra are the caller's).
    SupportStatistics finish(double duration) const;

  private:
    double       gap(double r1, double r2) const;
    unsigned int sector(double r1, double r2) const; // of the contact's outward normal at r
    std::vector<double> worn_lengths() const;        // of the support's wall, per sector

    model::SpatialSupport support_; // the geometry only (its rows are dropped)
    WearInputs            wear_;
    std::array<std::size_t, 2> r_{};
    std::size_t normal_impulse_ = 0, tangential_impulse_ = 0, friction_work_ = 0, wear_work_ = 0;

    SupportStatistics   s_; // impacts, peaks and the maxima as they come
    std::vector<double> sector_work_;
    ContactSums         sums_; // the normal contact's, as a planar support's
    double tangential_sum_ = 0, tangential_square_ = 0, free_time_ = 0;
    double first_friction_ = 0, last_friction_ = 0, first_wear_ = 0, previous_wear_ = 0, previous_gap_ = 0;
    unsigned long contact_episodes_ = 0, free_episodes_ = 0;
    bool          first_span_ = true, in_contact_ = false, impact_open_ = false;
  };

  // Where each support's orbit spends its time: the time per pixel of a grid of pixels × pixels
  // over the orbit plot's panel (±1.1 × the support's extent around its centre; points outside it
  // are not drawn and not kept). Bounded by the grid whatever the record's length: a line through
  // every row took gnuplot 12 s and 109 MB of CSV for 4 s of the six-support tube.
  class OrbitOccupancy
  {
  public:
    explicit OrbitOccupancy(const std::vector<model::SpatialSupport> &supports, unsigned int pixels = 200);
    // Support s at (r1, r2) for a span of time (a row's: t_k − t_{k−1}).
    void add(std::size_t support, double r1, double r2, double span);
    // support_orbits.csv's table: support, r1, r2 (the pixel's centre), time, for every pixel visited.
    io::CsvTable table() const;

  private:
    struct Grid
    {
      std::string         name;
      double              r1_min = 0, r2_min = 0, pixel = 0;
      std::vector<double> time; // pixels × pixels, row-major in r2
    };
    unsigned int      pixels_;
    std::vector<Grid> grids_;
  };

  // support_orbits.png from support_orbits.csv: a panel a support in space, its occupancy in
  // colour (time per pixel, log scale) inside its clearance contour (the circle, or the polygon's
  // sides) around the centre.
  io::GnuplotRun plot_support_orbits(const std::filesystem::path &folder, const model::StructuralModel &model);
} // namespace vibroimpact::studies
