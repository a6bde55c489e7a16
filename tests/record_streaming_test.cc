// Records streamed to disk. A run's rows go to history.csv, support_forces.csv and
// the support statistics as they are formed, so that its memory does not grow with the record:
// - the statistics accumulated row by row are the doubles of the batch computation they
//   replaced (kept below, verbatim, as the reference), with the displacements for Welch's PSD
//   held in memory or spooled to a file;
// - a streamed run holds a bounded number of rows however long its record, and writes the same
//   bytes as the writers of a history kept in memory.
#include <gtest/gtest.h>

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/studies/simulation_study.h>
#include <vibroimpact/studies/support_output.h>
#include <vibroimpact/studies/support_statistics.h>

#include "test_support.h"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace vibroimpact;
namespace fs = std::filesystem;

namespace
{
  // ------------------------------------------------------------------ the batch reference
  // support_statistics() and welch_psd() as they were before the accumulator (commit 26efd90):
  // whole columns taken from the kept rows, one support after the other.
  studies::PowerSpectrum batch_welch(const std::vector<double> &signal, const double interval, const std::size_t L)
  {
    const std::size_t bins = L / 2 + 1, hop = L / 2;
    std::vector<double> window(L), buffer(L), sum(bins, 0.0);
    double              window_power = 0.0;
    for (std::size_t i = 0; i < L; ++i)
      {
        window[i] = 0.5 * (1 - std::cos(2 * M_PI * i / L));
        window_power += window[i] * window[i];
      }
    std::vector<fftw_complex> spectrum(bins);
    fftw_plan plan = fftw_plan_dft_r2c_1d(static_cast<int>(L), buffer.data(), spectrum.data(), FFTW_ESTIMATE);
    std::size_t segments = 0;
    for (std::size_t start = 0; start + L <= signal.size(); start += hop, ++segments)
      {
        double mean = 0.0;
        for (std::size_t i = 0; i < L; ++i)
          mean += signal[start + i];
        mean /= L;
        for (std::size_t i = 0; i < L; ++i)
          buffer[i] = (signal[start + i] - mean) * window[i];
        fftw_execute(plan);
        for (std::size_t k = 0; k < bins; ++k)
          sum[k] += spectrum[k][0] * spectrum[k][0] + spectrum[k][1] * spectrum[k][1];
      }
    fftw_destroy_plan(plan);
    studies::PowerSpectrum psd;
    const double           fs = 1.0 / interval;
    for (std::size_t k = 0; k < bins; ++k)
      {
        const double twice = (k == 0 || 2 * k == L) ? 1.0 : 2.0;
        psd.frequency.push_back(k * fs / L);
        psd.density.push_back(twice * sum[k] / (segments * fs * window_power));
      }
    return psd;
  }

  std::vector<studies::SupportStatistics> batch_statistics(const model::StructuralModel        &model,
                                                           const integrators::ResponseHistory &history,
                                                           const double skip_time, const std::size_t psd_segment)
  {
    std::vector<studies::SupportStatistics> result;
    const auto                              times = history.times();
    std::size_t                             first = 0;
    while (first + 1 < times.size() && times[first] < skip_time)
      ++first;
    const double T        = times.back() - times[first];
    const double interval = (times[times.size() - 2] - times[first]) / double(times.size() - 2 - first);
    for (const auto &support : model.supports)
      {
        std::vector<double> impulse[2], gap[2], force(times.size(), 0.0);
        for (const int side : {0, 1})
          {
            const auto &contact = model.contacts[side == 0 ? support.lower : support.upper];
            impulse[side]       = history.column("impulse_" + contact.name);
            gap[side]           = history.column("gap_" + contact.name);
          }
        const auto u = history.column("u_" + model.probes[support.probe].name);
        for (std::size_t k = 1; k < times.size(); ++k)
          if (const double span = times[k] - times[k - 1]; span > 0)
            force[k] = (impulse[0][k] + impulse[1][k]) / span;
        studies::SupportStatistics s;
        s.name       = support.name;
        s.duration   = T;
        bool   in_contact = false;
        double contact_time = 0.0, total = 0.0, square = 0.0, work = 0.0, absolute_work = 0.0;
        for (std::size_t k = first + 1; k < times.size(); ++k)
          {
            const double span = times[k] - times[k - 1];
            const double p    = impulse[0][k] + impulse[1][k];
            for (const int side : {0, 1})
              {
                const double w = impulse[side][k] * (gap[side][k] - gap[side][k - 1]) / span;
                work += w;
                absolute_work += std::abs(w);
              }
            total += p;
            square += force[k] * force[k] * span;
            s.peak_force = std::max(s.peak_force, force[k]);
            if (p > 0)
              {
                contact_time += span;
                if (!in_contact)
                  {
                    ++s.impacts;
                    s.impact_peaks.push_back(0.0);
                  }
                s.impact_peaks.back() = std::max(s.impact_peaks.back(), force[k]);
              }
            in_contact = p > 0;
          }
        s.impact_rate      = s.impacts / T;
        s.contact_fraction = contact_time / T;
        s.mean_force       = total / T;
        s.rms_force        = std::sqrt(square / T);
        s.impact_work      = -work;
        s.work_rate        = absolute_work / T;
        const std::vector<double> record(u.begin() + first, u.end());
        std::size_t               L = 16;
        while (2 * L <= record.size() / 4)
          L *= 2;
        if (psd_segment > 0)
          L = psd_segment;
        if (record.size() >= L)
          s.displacement_psd = batch_welch(record, interval, L);
        result.push_back(std::move(s));
      }
    return result;
  }

  void expect_identical(const std::vector<studies::SupportStatistics> &a,
                        const std::vector<studies::SupportStatistics> &b, const std::string &what)
  {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (std::size_t s = 0; s < a.size(); ++s)
      {
        SCOPED_TRACE(what + ", support " + a[s].name);
        EXPECT_EQ(a[s].duration, b[s].duration);
        EXPECT_EQ(a[s].impacts, b[s].impacts);
        EXPECT_EQ(a[s].impact_rate, b[s].impact_rate);
        EXPECT_EQ(a[s].contact_fraction, b[s].contact_fraction);
        EXPECT_EQ(a[s].mean_force, b[s].mean_force);
        EXPECT_EQ(a[s].rms_force, b[s].rms_force);
        EXPECT_EQ(a[s].peak_force, b[s].peak_force);
        EXPECT_EQ(a[s].impact_work, b[s].impact_work);
        EXPECT_EQ(a[s].work_rate, b[s].work_rate);
        EXPECT_EQ(a[s].impact_peaks, b[s].impact_peaks);
        EXPECT_EQ(a[s].displacement_psd.frequency, b[s].displacement_psd.frequency);
        EXPECT_EQ(a[s].displacement_psd.density, b[s].displacement_psd.density);
      }
  }

  std::string read(const fs::path &file)
  {
    std::ifstream      in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  // The six-support example (U–K, 6 supports, 18 random loads) for `final_time`, no frames.
  studies::SimulationSetup six_supports(const double final_time, const bool keep_rows, const fs::path &output)
  {
    const auto c = test_cases::load_case(test_cases::example("antunes_six_supports"),
                                         {"Simulation/Final time=" + std::to_string(final_time),
                                          "Simulation/Frame interval=0"});
    return studies::prepare_simulation(c, output, true, keep_rows);
  }

  struct Scratch
  {
    fs::path path = fs::temp_directory_path() / ("vibroimpact-streaming-" + std::to_string(::getpid()));
    Scratch() { fs::create_directories(path); }
    ~Scratch() { fs::remove_all(path); }
  };
} // namespace

// On a record with impacts at every support (the six-support example, 20 ms, 2001 rows), the
// statistics accumulated row by row equal the batch computation to the last bit: with the
// record's start skipped or not, the default Welch segment and odd and even ones given, the
// displacements in memory (support_statistics()) or spooled to a file (a streamed run).
TEST(RecordStreaming, AccumulatedStatisticsEqualTheBatchComputation)
{
  auto       setup   = six_supports(0.02, true, {});
  const auto model   = setup.model;
  const auto result  = studies::run_simulation(std::move(setup));
  const auto &history = result.history;
  ASSERT_EQ(history.n_rows(), 2001u);
  unsigned long impacts = 0;
  for (const auto &s : result.statistics)
    impacts += s.impacts;
  ASSERT_GT(impacts, 6u) << "a record without impacts would test little";
  Scratch scratch;
  for (const double skip : {0.0, 0.0051})
    for (const std::size_t segment : {std::size_t(0), std::size_t(256), std::size_t(333)})
      {
        const std::string what = "skip " + std::to_string(skip) + ", segment " + std::to_string(segment);
        const auto        reference = batch_statistics(model, history, skip, segment);
        expect_identical(studies::support_statistics(model, history, skip, segment), reference, what + ", memory");
        studies::SupportStatisticsAccumulator spooled(model, history.columns(), skip, segment, scratch.path);
        for (std::size_t k = 0; k < history.n_rows(); ++k)
          spooled.row(history.row(k));
        EXPECT_EQ(spooled.rows_in_memory(), 0u);
        expect_identical(spooled.finish(), reference, what + ", spooled to a file");
        EXPECT_FALSE(fs::exists(scratch.path / ".support_displacements.spool")) << "the spool outlived finish()";
      }
  // The run's own statistics (accumulated while it ran) are the batch ones too.
  expect_identical(result.statistics, batch_statistics(model, history, 0.0, 0), "during the run");
}

// A streamed run holds at most a few blocks of rows, for a record of 1001 rows as for one of
// 10 001 (more than the bound), and its history.csv and support_forces.csv are byte for byte
// those written from the same run's rows kept in memory.
TEST(RecordStreaming, AStreamedRunHoldsBoundedRowsAndWritesTheSameFiles)
{
  Scratch scratch;
  std::size_t peak[2] = {0, 0};
  for (const int k : {0, 1})
    {
      const double T      = k == 0 ? 0.01 : 0.1;
      const fs::path out  = scratch.path / ("streamed" + std::to_string(k));
      io::OutputFolder folder(out, "simulate");
      const auto result = studies::run_simulation(six_supports(T, false, out), folder.staging());
      EXPECT_EQ(result.history.n_rows(), 0u);
      EXPECT_EQ(result.history.n_samples(), k == 0 ? 1001u : 10001u);
      peak[k] = result.peak_rows_held;
      EXPECT_LE(peak[k], studies::streamed_rows_held_at_most);
      studies::write_simulation(result, folder);
      folder.commit();
    }
  EXPECT_LT(studies::streamed_rows_held_at_most, 10001u) << "the long record must exceed the bound";

  // The long record again, its rows kept, written by the batch writers.
  auto       setup = six_supports(0.1, true, {});
  const auto model = setup.model;
  const auto kept  = studies::run_simulation(std::move(setup));
  ASSERT_EQ(kept.history.n_rows(), 10001u);
  EXPECT_GE(kept.peak_rows_held, 10001u);
  const fs::path batch = scratch.path / "batch";
  fs::create_directories(batch);
  studies::write_history_csv(batch / "history.csv", kept.history);
  studies::write_support_statistics(batch, model, kept.history, kept.statistics, false);
  for (const char *file : {"history.csv", "support_forces.csv", "statistics.csv", "spectra.csv", "force_pdf.csv"})
    EXPECT_TRUE(read(scratch.path / "streamed1" / file) == read(batch / file)) << file << " differs";
  EXPECT_GT(read(batch / "history.csv").size(), 1000000u);
}
