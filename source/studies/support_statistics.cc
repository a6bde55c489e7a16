// Statistics of the clearance supports (impacts, contact time, forces, work, displacement
// spectra), accumulated row by row as a run forms its history, and a streamed run's orbit
// occupancy of the supports in space. The files are written by the studies (support_output.cc).
// The supports in space have their own tally (spatial_statistics.h) on the same rows.
#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/model/non_reentrant.h>
#include <vibroimpact/studies/support_statistics.h>

#include "spatial_statistics.h"

#include <fftw3.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::studies
{
  namespace
  {
    // Welch's sum over segments of one length: one FFTW plan, window and work buffer for every
    // signal (each support's sum of periodograms is its own), so that a long segment costs its
    // length once, not once per support.
    class WelchSum
    {
    public:
      WelchSum(const std::size_t segment, const std::size_t n_signals)
        : L_(segment)
        , window_(segment)
        , buffer_(segment)
        , spectrum_(segment / 2 + 1)
        , sums_(n_signals, std::vector<double>(segment / 2 + 1, 0.0))
      {
        for (std::size_t i = 0; i < L_; ++i)
          {
            window_[i] = 0.5 * (1 - std::cos(2 * M_PI * i / L_)); // periodic Hann
            window_power_ += window_[i] * window_[i];
          }
        const std::lock_guard<std::mutex> planner(model::fftw_planner_mutex()); // FFTW's planner is global
        plan_ = fftw_plan_dft_r2c_1d(static_cast<int>(L_), buffer_.data(), spectrum_.data(), FFTW_ESTIMATE);
      }
      ~WelchSum()
      {
        const std::lock_guard<std::mutex> planner(model::fftw_planner_mutex());
        fftw_destroy_plan(plan_);
      }
      WelchSum(const WelchSum &) = delete;
      WelchSum &operator=(const WelchSum &) = delete;

      // One segment of signal `which`: x[0], x[stride], ..., x[(L − 1) stride].
      void add(const std::size_t which, const double *x, const std::size_t stride)
      {
        double mean = 0.0;
        for (std::size_t i = 0; i < L_; ++i)
          mean += x[i * stride];
        mean /= L_;
        for (std::size_t i = 0; i < L_; ++i)
          buffer_[i] = (x[i * stride] - mean) * window_[i];
        fftw_execute(plan_);
        auto &sum = sums_[which];
        for (std::size_t k = 0; k < sum.size(); ++k)
          sum[k] += spectrum_[k][0] * spectrum_[k][0] + spectrum_[k][1] * spectrum_[k][1];
        segments_ += which == 0 ? 1 : 0;
      }

      PowerSpectrum spectrum(const std::size_t which, const double interval) const
      {
        PowerSpectrum psd;
        const double  fs = 1.0 / interval;
        for (std::size_t k = 0; k < sums_[which].size(); ++k)
          {
            // One-sided: every bin but DC and Nyquist carries its negative-frequency twin.
            const double twice = (k == 0 || 2 * k == L_) ? 1.0 : 2.0;
            psd.frequency.push_back(k * fs / L_);
            psd.density.push_back(twice * sums_[which][k] / (segments_ * fs * window_power_));
          }
        return psd;
      }

    private:
      std::size_t                      L_;
      std::vector<double>              window_, buffer_;
      std::vector<fftw_complex>        spectrum_;
      std::vector<std::vector<double>> sums_;
      double                           window_power_ = 0.0;
      std::size_t                      segments_     = 0;
      fftw_plan                        plan_;
    };

    void check_segment(const std::size_t samples, const std::size_t segment)
    {
      if (segment < 4 || samples < segment)
        throw std::invalid_argument("welch_psd: " + std::to_string(samples) + " samples, fewer than one segment of " +
                                    std::to_string(segment));
    }
  } // namespace

  PowerSpectrum welch_psd(const std::vector<double> &signal, const double interval, const std::size_t segment)
  {
    check_segment(signal.size(), segment);
    WelchSum welch(segment, 1);
    for (std::size_t start = 0; start + segment <= signal.size(); start += segment / 2)
      welch.add(0, signal.data() + start, 1);
    return welch.spectrum(0, interval);
  }

  namespace
  {
    // The displacements at the supports from the record's start on (one row of `width` values a
    // history row), kept where Welch's segments can be read back one at a time: in memory (a
    // record the caller holds anyway), or in a file of raw doubles beside the outputs (a record
    // streamed to disk), written through a small buffer and removed with the spool.
    class DisplacementSpool
    {
    public:
      DisplacementSpool(const std::size_t width, std::filesystem::path file)
        : width_(width)
        , file_(std::move(file))
      {
        if (file_.empty())
          return;
        stream_ = std::fopen(file_.c_str(), "w+b");
        if (!stream_)
          throw io::WriteError(file_, errno);
        pending_.reserve(block_values);
      }
      ~DisplacementSpool()
      {
        if (!stream_)
          return;
        std::fclose(stream_);
        std::error_code ignored;
        std::filesystem::remove(file_, ignored);
      }
      DisplacementSpool(const DisplacementSpool &) = delete;
      DisplacementSpool &operator=(const DisplacementSpool &) = delete;

      void append(const double *row)
      {
        auto &to = stream_ ? pending_ : memory_;
        to.insert(to.end(), row, row + width_);
        ++n_rows_;
        if (stream_ && pending_.size() >= block_values)
          flush();
      }
      std::size_t n_rows() const { return n_rows_; }
      // Rows held for the record's length (a file spool holds only its write buffer, 64 k values).
      std::size_t rows_in_memory() const { return memory_.size() / width_; }

      // Calls add(rows) for the segments of L rows that start every L/2 rows, as WelchSum wants
      // them (row-major, `width` values a row): straight from memory, or read from the file
      // through a buffer of one segment.
      template <typename Add>
      void for_each_segment(const std::size_t L, const Add &add)
      {
        const std::size_t hop = L / 2;
        if (!stream_)
          {
            for (std::size_t start = 0; start + L <= n_rows_; start += hop)
              add(memory_.data() + start * width_);
            return;
          }
        flush();
        std::rewind(stream_);
        std::vector<double> window(L * width_);
        read(window.data(), L);
        for (std::size_t start = 0;; start += hop)
          {
            add(window.data());
            if (start + hop + L > n_rows_)
              break;
            std::copy(window.begin() + hop * width_, window.end(), window.begin());
            read(window.data() + (L - hop) * width_, hop);
          }
      }

    private:
      static constexpr std::size_t block_values = 1 << 16;

      void flush()
      {
        if (!pending_.empty() && std::fwrite(pending_.data(), sizeof(double), pending_.size(), stream_) != pending_.size())
          throw io::WriteError(file_, errno);
        if (std::fflush(stream_) != 0)
          throw io::WriteError(file_, errno);
        pending_.clear();
      }
      void read(double *to, const std::size_t rows)
      {
        if (std::fread(to, sizeof(double) * width_, rows, stream_) != rows)
          throw io::WriteError(file_, errno ? errno : EIO);
      }

      std::size_t           width_;
      std::filesystem::path file_;
      std::FILE            *stream_ = nullptr;
      std::vector<double>   memory_, pending_;
      std::size_t           n_rows_ = 0;
    };

    // Statistics/PSD segment = 0: the longest power of two giving ≥ 8 half-overlapping segments,
    // at most 2¹⁶ rows. The cap bounds the end of a long record: the segment's rows are read back
    // and transformed at once (a 4 s tube record's default segment of 2¹⁵ rows took 12 MB at the
    // end; 100 s would take 2²⁰ rows, 25× that), and more segments lower the estimate's variance.
    std::size_t default_segment(const std::size_t n)
    {
      constexpr std::size_t longest = std::size_t(1) << 16;
      std::size_t           L       = 16;
      while (2 * L <= n / 4 && 2 * L <= longest)
        L *= 2;
      return L;
    }

    std::size_t column_index(const std::vector<std::string> &columns, const std::string &name)
    {
      const auto it = std::find(columns.begin(), columns.end(), name);
      if (it == columns.end())
        throw std::invalid_argument("the response history has no column '" + name + "'");
      return std::size_t(it - columns.begin());
    }

    // Supports 1 and 3 as in the paper's figures (or as many as there are).
    std::vector<std::size_t> plotted_supports(const model::StructuralModel &model)
    {
      if (model.supports.empty())
        return {};
      if (model.supports.size() >= 3)
        return {0, 2};
      if (model.supports.size() == 2)
        return {0, 1};
      return {0};
    }

  } // namespace

  namespace
  {
    // The orbit of every support in space as the time it spends per pixel (spatial_statistics.h,
    // OrbitOccupancy: support_orbits.csv's table), fed every row of the run; a row's span goes
    // to the pixel of its position.
    struct OrbitRecorder
    {
      OrbitOccupancy        occupancy;
      double                last_time = 0;
      bool                  first     = true;

      template <typename Tallies>
      void row(const Tallies &spatial, const std::vector<double> &values)
      {
        const double span = first ? 0.0 : values[0] - last_time;
        for (std::size_t s = 0; s < spatial.size(); ++s)
          occupancy.add(s, spatial[s].orbit(values, 0), spatial[s].orbit(values, 1), span);
        last_time = values[0];
        first     = false;
      }
    };
  } // namespace

  // A support's running sums over the rows after the record's start (support_statistics()).
  struct SupportStatisticsAccumulator::Support
  {
    std::size_t       impulse[2], gap[2], u; // history columns: lower, upper stop; probe
    SupportStatistics s;
    ContactSums       sums;
    bool              in_contact = false;
    double            previous_gap[2] = {0.0, 0.0};
  };

  // The whole state between rows: the supports' sums, the record's times, the spool, the orbits.
  struct SupportStatisticsAccumulator::State
  {
    std::vector<Support>                 supports;
    std::vector<SpatialTally>            spatial; // after the planar supports in every output
    double                               skip_time   = 0.0;
    std::size_t                          psd_segment = 0;
    std::size_t                          rows        = 0; // from the record's start on
    double                               first_time = 0.0, last_time = 0.0, before_last_time = 0.0;
    std::vector<double>                  displacements; // this row's: a planar support's u, r1 and r2 in space
    std::unique_ptr<DisplacementSpool>   spool;
    std::unique_ptr<OrbitRecorder>       orbits; // with a folder: the orbit plot's occupancy
  };
} // namespace vibroimpact::studies

namespace vibroimpact::studies
{
  std::vector<std::string> SupportForces::columns(const model::StructuralModel &model)
  {
    std::vector<std::string> names{"time"};
    for (const auto &s : model.supports)
      names.push_back("u_" + s.name), names.push_back("force_" + s.name);
    return names;
  }

  SupportForces::SupportForces(const model::StructuralModel &model, const std::vector<std::string> &columns)
    : line_(1 + 2 * model.supports.size())
  {
    for (const auto &s : model.supports)
      {
        u_.push_back(column_index(columns, "u_" + model.probes[s.probe].name));
        lower_.push_back(column_index(columns, "impulse_" + model.contacts[s.lower].name));
        upper_.push_back(column_index(columns, "impulse_" + model.contacts[s.upper].name));
      }
    for (const auto s : plotted_supports(model))
      curves_.push_back({s, io::LineEnvelope(support_forces_plot_columns), io::LineEnvelope(support_forces_plot_columns)});
  }

  const std::vector<double> &SupportForces::row(const std::vector<double> &values)
  {
    const double span = values[0] - previous_time_;
    line_[0]          = values[0];
    for (std::size_t s = 0; s < u_.size(); ++s)
      {
        line_[1 + 2 * s] = values[u_[s]];
        line_[2 + 2 * s] = !first_ && span > 0 ? (values[lower_[s]] + values[upper_[s]]) / span : 0.0;
      }
    for (auto &c : curves_)
      {
        c.displacement.add(line_[0], line_[1 + 2 * c.support]);
        c.force.add(line_[0], line_[2 + 2 * c.support]);
      }
    previous_time_ = values[0];
    first_         = false;
    return line_;
  }

  SupportStatisticsAccumulator::SupportStatisticsAccumulator(const model::StructuralModel   &model,
                                                             const std::vector<std::string> &columns,
                                                             const double skip_time, const std::size_t psd_segment,
                                                             const std::filesystem::path    &folder,
                                                             const std::vector<WearInputs>  &wear)
    : state_(std::make_unique<State>())
  {
    auto &st       = *state_;
    st.skip_time   = skip_time;
    st.psd_segment = psd_segment;
    for (const auto &support : model.supports)
      {
        Support s;
        s.s.name = support.name;
        for (const int side : {0, 1})
          {
            const auto &contact = model.contacts[side == 0 ? support.lower : support.upper];
            s.impulse[side]     = column_index(columns, "impulse_" + contact.name);
            s.gap[side]         = column_index(columns, "gap_" + contact.name);
          }
        s.u = column_index(columns, "u_" + model.probes[support.probe].name);
        st.supports.push_back(std::move(s));
      }
    if (!wear.empty() && wear.size() != model.spatial_supports.size())
      throw std::invalid_argument("support statistics: " + std::to_string(wear.size()) + " wear inputs for " +
                                  std::to_string(model.spatial_supports.size()) + " supports in space");
    for (std::size_t k = 0; k < model.spatial_supports.size(); ++k)
      st.spatial.emplace_back(model.spatial_supports[k], columns, wear.empty() ? WearInputs() : wear[k]);
    st.displacements.resize(st.supports.size() + 2 * st.spatial.size());
    st.spool = std::make_unique<DisplacementSpool>(
      st.displacements.size(), folder.empty() ? std::filesystem::path() : folder / ".support_displacements.spool");
    if (!folder.empty() && !st.spatial.empty())
      st.orbits.reset(new OrbitRecorder{OrbitOccupancy(model.spatial_supports)});
  }

  SupportStatisticsAccumulator::~SupportStatisticsAccumulator() = default;

  // The rule of support_statistics() (see the header) for row k of the record, k ≥ 1: the
  // force over (t_{k−1}, t_k] is the impulse of both stops over the span, a row with impulse is
  // in contact, an impact is a row in contact after one without, the work the impulse times the
  // gap's change.
  void SupportStatisticsAccumulator::add_row_of_record(Support &s, const std::vector<double> &values,
                                                       const double span)
  {
    const double p = values[s.impulse[0]] + values[s.impulse[1]];
    for (const int side : {0, 1}) // ∫ λ ġ dt over the row: the impulse times the mean ġ
      {
        s.sums.add_work(values[s.impulse[side]] * (values[s.gap[side]] - s.previous_gap[side]) / span);
      }
    const double force = span > 0 ? (values[s.impulse[0]] + values[s.impulse[1]]) / span : 0.0;
    s.sums.add_impulse(p, force, span);
    s.s.peak_force = std::max(s.s.peak_force, force);
    if (p > 0)
      {
        s.sums.contact_time += span;
        if (!s.in_contact)
          {
            ++s.s.impacts;
            s.s.impact_peaks.push_back(0.0);
          }
        s.s.impact_peaks.back() = std::max(s.s.impact_peaks.back(), force);
      }
    s.in_contact = p > 0;
  }

  void SupportStatisticsAccumulator::row(const std::vector<double> &values)
  {
    auto        &st = *state_;
    const double t  = values[0];
    if (st.orbits)
      st.orbits->row(st.spatial, values);
    if (st.rows == 0 && t < st.skip_time)
      return; // before the record's start
    for (auto &s : st.supports)
      {
        if (st.rows > 0)
          add_row_of_record(s, values, t - st.last_time);
        s.previous_gap[0] = values[s.gap[0]];
        s.previous_gap[1] = values[s.gap[1]];
      }
    for (auto &s : st.spatial)
      if (st.rows > 0)
        s.add(values, t - st.last_time);
      else
        s.start(values);
    const std::size_t P = st.supports.size();
    for (std::size_t s = 0; s < P; ++s)
      st.displacements[s] = values[st.supports[s].u];
    for (std::size_t s = 0; s < st.spatial.size(); ++s)
      for (const int j : {0, 1})
        st.displacements[P + 2 * s + j] = st.spatial[s].orbit(values, j);
    st.spool->append(st.displacements.data());
    if (st.rows == 0)
      st.first_time = t;
    st.before_last_time = st.last_time;
    st.last_time        = t;
    ++st.rows;
  }

  void SupportStatisticsAccumulator::ContactSums::into(SupportStatistics &s, const double T) const
  {
    s.duration         = T;
    s.impact_rate      = s.impacts / T;
    s.contact_fraction = contact_time / T;
    s.mean_force       = impulse_sum / T;
    s.rms_force        = std::sqrt(square / T);
    s.impact_work      = -work;
    s.work_rate        = absolute_work / T;
  }

  std::optional<io::CsvTable> SupportStatisticsAccumulator::support_orbits() const
  {
    if (!state_->orbits)
      return std::nullopt;
    return state_->orbits->occupancy.table();
  }

  std::size_t SupportStatisticsAccumulator::rows_in_memory() const { return state_->spool->rows_in_memory(); }

  std::vector<SupportStatistics> SupportStatisticsAccumulator::finish()
  {
    auto &st = *state_;
    if (st.rows < 3)
      throw std::invalid_argument("support statistics: fewer than three rows after the skipped start");
    const double T        = st.last_time - st.first_time;
    const double interval = (st.before_last_time - st.first_time) / double(st.rows - 2);
    std::vector<SupportStatistics> result;
    for (auto &s : st.supports)
      {
        s.sums.into(s.s, T);
        result.push_back(s.s);
      }
    for (const auto &s : st.spatial)
      result.push_back(s.finish(T));
    const std::size_t L = st.psd_segment > 0 ? st.psd_segment : default_segment(st.rows);
    const std::size_t width = st.displacements.size(), P = st.supports.size();
    if (st.rows >= L && width > 0)
      {
        check_segment(st.rows, L);
        WelchSum welch(L, width);
        st.spool->for_each_segment(L, [&](const double *rows) {
          for (std::size_t s = 0; s < width; ++s)
            welch.add(s, rows + s, width);
        });
        for (std::size_t s = 0; s < P; ++s)
          result[s].displacement_psd = welch.spectrum(s, interval);
        for (std::size_t s = P; s < result.size(); ++s) // r1 and r2 of a support in space
          {
            result[s].displacement_psd = welch.spectrum(P + 2 * (s - P), interval);
            result[s].second_psd       = welch.spectrum(P + 2 * (s - P) + 1, interval);
          }
      }
    st.spool.reset(); // its file goes now, before the output folder is committed
    return result;
  }

  std::vector<SupportStatistics> support_statistics(const model::StructuralModel        &model,
                                                    const integrators::ResponseHistory &history,
                                                    const double skip_time, const std::size_t psd_segment,
                                                    const std::vector<WearInputs> &wear)
  {
    SupportStatisticsAccumulator accumulator(model, history.columns(), skip_time, psd_segment, {}, wear);
    for (std::size_t k = 0; k < history.n_rows(); ++k)
      accumulator.row(history.row(k));
    return accumulator.finish();
  }
} // namespace vibroimpact::studies
