// The statistics of the supports in space (see spatial_statistics.h): the row rule of
// doc/udwadia_kalaba.md ("Supports in space"), the Archard wear per angular sector, and
// wear_sectors.csv, its HDF5 group and the support orbit plot.
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/structure/case_description.h>

#include "spatial_statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::studies
{
  std::vector<WearInputs> wear_inputs(const structure::CaseDescription &description)
  {
    // The model's supports in space are the description's supports but the planar stops, in order
    // (structure/support_expansion.cc).
    std::vector<WearInputs> inputs;
    for (const auto &support : description.supports)
      if (support.shape != structure::SupportShape::stops)
        inputs.push_back({support.wear_sectors, support.tube_wear_coefficient, support.support_wear_coefficient,
                          support.thickness});
    return inputs;
  }

  namespace
  {
    std::size_t column_of(const std::vector<std::string> &columns, const std::string &name)
    {
      const auto it = std::find(columns.begin(), columns.end(), name);
      if (it == columns.end())
        throw std::invalid_argument("the response history has no column '" + name + "'");
      return std::size_t(it - columns.begin());
    }

    // Degrees in [0, 360) of a direction.
    double degrees(const double x, const double y)
    {
      const double a = std::atan2(y, x) * 180 / M_PI;
      return a < 0 ? a + 360 : a;
    }
  } // namespace

  SupportStatisticsAccumulator::SpatialTally::SpatialTally(const model::SpatialSupport    &support,
                                                           const std::vector<std::string> &columns,
                                                           const WearInputs               &wear)
    : wear_(wear)
  {
    // The geometry is kept, not the rows (as long as the model's DoF vector): the tally reads r.
    support_.name         = support.name;
    support_.shape        = support.shape;
    support_.centre       = support.centre;
    support_.clearance    = support.clearance;
    support_.sides        = support.sides;
    support_.outer_radius = support.outer_radius;
    if (wear_.sectors == 0)
      throw std::invalid_argument("support " + support.name + ": wear statistics need at least one sector");
    r_                  = {{column_of(columns, "r1_" + support.name), column_of(columns, "r2_" + support.name)}};
    normal_impulse_     = column_of(columns, "normal_impulse_" + support.name);
    tangential_impulse_ = column_of(columns, "tangential_impulse_" + support.name);
    friction_work_      = column_of(columns, "friction_work_" + support.name);
    wear_work_          = column_of(columns, "wear_work_" + support.name);
    sector_work_.assign(wear_.sectors, 0.0);
    s_.name     = support.name;
    s_.in_space = true;
  }

  // The gap at r: of the hole, or of the nearest side of the polygon.
  double SupportStatisticsAccumulator::SpatialTally::gap(const double r1, const double r2) const
  {
    const double x = r1 - support_.centre[0], y = r2 - support_.centre[1];
    if (support_.shape == model::SpatialSupport::Shape::annular)
      return support_.clearance - std::hypot(x, y);
    double g = std::numeric_limits<double>::infinity();
    for (const auto &side : support_.sides)
      g = std::min(g, side.distance - (side.normal[0] * x + side.normal[1] * y));
    return g;
  }

  // Where on the wall the tube is at r: the angle of the outward normal ν, of r − c in a hole, of
  // the nearest side's normal in a polygon (the history sums a support's contacts, so a row in
  // contact with two sides at once goes whole to the nearer at the row's end).
  unsigned int SupportStatisticsAccumulator::SpatialTally::sector(const double r1, const double r2) const
  {
    const double x = r1 - support_.centre[0], y = r2 - support_.centre[1];
    double       angle = 0.0; // at r = c, where ν is undefined, ν = e1 as the solvers take it
    if (support_.shape == model::SpatialSupport::Shape::annular)
      angle = (x == 0 && y == 0) ? 0.0 : degrees(x, y);
    else
      {
        double nearest = std::numeric_limits<double>::infinity();
        for (const auto &side : support_.sides)
          {
            const double g = side.distance - (side.normal[0] * x + side.normal[1] * y);
            if (g < nearest)
              nearest = g, angle = degrees(side.normal[0], side.normal[1]);
          }
      }
    const auto k = static_cast<unsigned int>(angle * wear_.sectors / 360.0);
    return std::min(k, wear_.sectors - 1);
  }

  void SupportStatisticsAccumulator::SpatialTally::start(const std::vector<double> &values)
  {
    previous_gap_   = gap(values[r_[0]], values[r_[1]]);
    first_friction_ = last_friction_ = values[friction_work_];
    first_wear_ = previous_wear_ = values[wear_work_];
  }

  // The rule (doc/udwadia_kalaba.md, "Supports in space"): over (t_{k−1}, t_k] the forces are the
  // row's impulses over its span; a row with normal impulse is in contact; an impact is a row in
  // contact after one out of contact (the record's first span only opens an episode: it may have
  // begun before); the normal work is the impulse times the gap's change; the row's wear work
  // goes to the sector of the contact at the row's end.
  void SupportStatisticsAccumulator::SpatialTally::add(const std::vector<double> &values, const double span)
  {
    const double p = values[normal_impulse_], q = values[tangential_impulse_];
    const double f = span > 0 ? p / span : 0.0, ft = span > 0 ? q / span : 0.0;
    const double r1 = values[r_[0]], r2 = values[r_[1]], g = gap(r1, r2);
    const double w = span > 0 ? p * (g - previous_gap_) / span : 0.0;
    sums_.add_work(w);
    sums_.add_impulse(p, f, span);
    s_.peak_force = std::max(s_.peak_force, f);
    tangential_sum_ += q;
    tangential_square_ += ft * ft * span;
    s_.peak_tangential_force = std::max(s_.peak_tangential_force, ft);
    const bool contact = p > 0;
    if (first_span_)
      ++(contact ? contact_episodes_ : free_episodes_);
    else if (contact && !in_contact_)
      {
        ++s_.impacts, ++contact_episodes_;
        s_.impact_peaks.push_back(0.0);
        impact_open_ = true;
      }
    else if (!contact && in_contact_)
      ++free_episodes_, impact_open_ = false;
    (contact ? sums_.contact_time : free_time_) += span;
    if (contact && impact_open_)
      s_.impact_peaks.back() = std::max(s_.impact_peaks.back(), f);
    in_contact_ = contact;
    first_span_ = false;
    const double wear = values[wear_work_];
    if (wear != previous_wear_)
      sector_work_[sector(r1, r2)] += wear - previous_wear_;
    previous_wear_ = wear;
    previous_gap_  = g;
    last_friction_ = values[friction_work_];
  }

  // The support wall's length in each sector: an arc of the hole's wall (radius clearance + R);
  // the sides of a polygon whose normals fall in the sector, between their corners on the wall
  // (the contour at distance + R); infinite for a side with a parallel neighbour (a flat bar).
  std::vector<double> SupportStatisticsAccumulator::SpatialTally::worn_lengths() const
  {
    const unsigned int  N = wear_.sectors;
    std::vector<double> length(N, 0.0);
    const double        R = support_.outer_radius;
    if (support_.shape == model::SpatialSupport::Shape::annular)
      {
        length.assign(N, (support_.clearance + R) * 2 * M_PI / N);
        return length;
      }
    const auto  &sides  = support_.sides;
    const size_t n      = sides.size();
    const auto   corner = [&](const std::size_t a, const std::size_t b, std::array<double, 2> &v) {
      const auto  &p = sides[a].normal, &q = sides[b].normal;
      const double det = p[0] * q[1] - p[1] * q[0];
      if (std::abs(det) < 1e-12)
        return false;
      const double da = sides[a].distance + R, db = sides[b].distance + R;
      v = {{(da * q[1] - db * p[1]) / det, (db * p[0] - da * q[0]) / det}};
      return true;
    };
    for (std::size_t k = 0; k < n; ++k)
      {
        std::array<double, 2> from{}, to{};
        const bool bounded = corner((k + n - 1) % n, k, from) && corner(k, (k + 1) % n, to);
        const auto &nu = sides[k].normal;
        const double side = bounded ? std::abs((to[0] - from[0]) * -nu[1] + (to[1] - from[1]) * nu[0]) :
                                      std::numeric_limits<double>::infinity();
        const auto sector = std::min(static_cast<unsigned int>(degrees(nu[0], nu[1]) * N / 360.0), N - 1);
        length[sector] += side;
      }
    return length;
  }

  SupportStatistics SupportStatisticsAccumulator::SpatialTally::finish(const double T) const
  {
    SupportStatistics s = s_;
    sums_.into(s, T);
    s.mean_shock_duration      = contact_episodes_ > 0 ? sums_.contact_time / contact_episodes_ : 0.0;
    s.mean_rebound_duration    = free_episodes_ > 0 ? free_time_ / free_episodes_ : 0.0;
    s.mean_tangential_force    = tangential_sum_ / T;
    s.rms_tangential_force     = std::sqrt(tangential_square_ / T);
    s.friction_work            = last_friction_ - first_friction_;
    s.wear_work                = previous_wear_ - first_wear_;
    s.wear_work_rate           = s.wear_work / T;
    const unsigned int N       = wear_.sectors;
    const auto         lengths = worn_lengths();
    // The tube's surface facing a sector, in the support's frame: R Δφ by the plate's thickness.
    const double tube_area = support_.outer_radius * 2 * M_PI / N * wear_.thickness;
    const auto   depth     = [](const double volume, const double area) {
      return area > 0 && std::isfinite(area) ? volume / area : std::numeric_limits<double>::quiet_NaN();
    };
    for (unsigned int k = 0; k < N; ++k)
      {
        SectorWear w;
        w.angle_from     = 360.0 * k / N;
        w.angle_to       = 360.0 * (k + 1) / N;
        w.wear_work      = sector_work_[k];
        w.wear_work_rate = sector_work_[k] / T;
        w.tube_volume    = wear_.tube_coefficient * w.wear_work;
        w.support_volume = wear_.support_coefficient * w.wear_work;
        w.tube_depth     = depth(w.tube_volume, tube_area);
        w.support_depth  = depth(w.support_volume, lengths[k] * wear_.thickness);
        s.sectors.push_back(w);
      }
    return s;
  }

  namespace
  {
    // The clearance contour of the centreline around c as gnuplot objects: the circle of radius
    // clearance, or each side's segment between its neighbours' corners (a flat bar's, whose
    // sides have no corner, as long as the bars are apart), and the panel's ranges around it
    // (gnuplot's autoscale sees the orbit only).
    // The corners of polygon side k: where its neighbours cut its line c + d ν + s t, as s
    // (from, to); a side whose neighbours are parallel to it (a flat bar's) runs 2d either way.
    std::pair<double, double> side_ends(const model::SpatialSupport &support, const std::size_t k)
    {
      const auto  &sides = support.sides;
      const size_t n     = sides.size();
      const auto  &nu    = sides[k].normal;
      const double d = sides[k].distance, half = 2 * d;
      double       from = -half, to = half;
      for (const std::size_t j : {(k + n - 1) % n, (k + 1) % n})
        {
          const auto  &mu = sides[j].normal;
          const double mt = -mu[0] * nu[1] + mu[1] * nu[0];
          if (j == k || std::abs(mt) < 1e-12)
            continue;
          const double s = (sides[j].distance - d * (mu[0] * nu[0] + mu[1] * nu[1])) / mt;
          (mt > 0 ? to : from) = s;
        }
      return {from, to};
    }

    // How far the support's contour reaches from its centre: the panel is ±1.1 times that.
    double panel_extent(const model::SpatialSupport &support)
    {
      if (support.shape == model::SpatialSupport::Shape::annular)
        return support.clearance;
      double extent = 0.0;
      for (std::size_t k = 0; k < support.sides.size(); ++k)
        {
          const auto [from, to] = side_ends(support, k);
          extent = std::max(extent, std::hypot(support.sides[k].distance, std::max(std::abs(from), std::abs(to))));
        }
      return extent;
    }

    std::string contour(const model::SpatialSupport &support, const int tag)
    {
      std::ostringstream gp;
      const double       c1 = support.centre[0], c2 = support.centre[1];
      const double       extent = panel_extent(support);
      const auto         ranges = [&] {
        std::ostringstream r;
        r << "set xrange [" << c1 - 1.1 * extent << ":" << c1 + 1.1 * extent << "]\nset yrange ["
          << c2 - 1.1 * extent << ":" << c2 + 1.1 * extent << "]\n";
        return r.str();
      };
      if (support.shape == model::SpatialSupport::Shape::annular)
        {
          gp << "set object " << tag << " circle at " << c1 << "," << c2 << " size " << support.clearance
             << " front fs empty border lc 'magenta' dt 2\n";
          return gp.str() + ranges();
        }
      for (std::size_t k = 0; k < support.sides.size(); ++k)
        {
          const auto  &nu         = support.sides[k].normal;
          const double d          = support.sides[k].distance;
          const auto [from, to]   = side_ends(support, k);
          const auto   at         = [&](const double s) {
            std::ostringstream p;
            p << c1 + d * nu[0] - s * nu[1] << "," << c2 + d * nu[1] + s * nu[0];
            return p.str();
          };
          gp << "set arrow " << tag + int(k) << " from " << at(from) << " to " << at(to)
             << " nohead lc 'magenta' dt 2\n";
        }
      return gp.str() + ranges();
    }
  } // namespace

  OrbitOccupancy::OrbitOccupancy(const std::vector<model::SpatialSupport> &supports, const unsigned int pixels)
    : pixels_(pixels)
  {
    for (const auto &support : supports)
      {
        const double half = 1.1 * panel_extent(support);
        grids_.push_back({support.name, support.centre[0] - half, support.centre[1] - half, 2 * half / pixels,
                          std::vector<double>(std::size_t(pixels) * pixels, 0.0)});
      }
  }

  void OrbitOccupancy::add(const std::size_t support, const double r1, const double r2, const double span)
  {
    auto        &g = grids_[support];
    const double i = std::floor((r1 - g.r1_min) / g.pixel), j = std::floor((r2 - g.r2_min) / g.pixel);
    if (i >= 0 && j >= 0 && i < pixels_ && j < pixels_) // NaN fails every test: not kept
      g.time[std::size_t(j) * pixels_ + std::size_t(i)] += span;
  }

  io::CsvTable OrbitOccupancy::table() const
  {
    io::CsvTable table;
    auto        &support = table.add("support", io::CsvTable::Column::Kind::text).cells;
    std::vector<double> r1, r2, time;
    for (const auto &g : grids_)
      for (std::size_t j = 0; j < pixels_; ++j)
        for (std::size_t i = 0; i < pixels_; ++i)
          if (const double t = g.time[j * pixels_ + i]; t > 0)
            {
              support.push_back(g.name);
              r1.push_back(g.r1_min + (i + 0.5) * g.pixel);
              r2.push_back(g.r2_min + (j + 0.5) * g.pixel);
              time.push_back(t);
            }
    table.add("r1").numbers   = std::move(r1);
    table.add("r2").numbers   = std::move(r2);
    table.add("time").numbers = std::move(time);
    return table;
  }

  io::GnuplotRun plot_support_orbits(const std::filesystem::path &folder, const model::StructuralModel &model)
  {
    const auto        &supports = model.spatial_supports;
    const std::size_t  columns  = std::min<std::size_t>(3, supports.size());
    const std::size_t  rows     = (supports.size() + columns - 1) / columns;
    std::ostringstream gp;
    gp << "set terminal pngcairo noenhanced size " << 500 * columns << "," << 400 * rows
       << "\nset output 'support_orbits.png'\nset datafile separator ','\nset size ratio -1\n"
       << "set xtics rotate by 45 right\nset logscale cb\nset format cb '%.0e'\n"
       << "set multiplot layout " << rows << "," << columns << "\n";
    for (const auto &support : supports)
      {
        gp << "unset object\nunset arrow\n"
           << contour(support, 1) << "set title " << io::gnuplot_quote("support " + support.name + ": seconds the orbit spends per pixel")
           << "\nset xlabel 'r1'\nset ylabel 'r2'\nplot 'support_orbits.csv' every ::1 using (strcol(1) eq "
           << io::gnuplot_quote(support.name) << " ? $2 : 1/0):3:4 with points pt 5 ps 0.3 palette notitle\n";
      }
    gp << "unset multiplot\n";
    return io::start_gnuplot(folder / "support_orbits.gp", gp.str());
  }
} // namespace vibroimpact::studies
