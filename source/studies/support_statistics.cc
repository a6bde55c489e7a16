// Statistics of the clearance supports (impacts, contact time, forces, work, displacement
// spectra) from a response history, and their CSV files and plots.
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/hdf5_records.h>
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/studies/support_statistics.h>

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::studies
{
  PowerSpectrum welch_psd(const std::vector<double> &signal, const double interval, const std::size_t segment)
  {
    if (segment < 4 || signal.size() < segment)
      throw std::invalid_argument("welch_psd: " + std::to_string(signal.size()) +
                                  " samples, fewer than one segment of " + std::to_string(segment));
    const std::size_t L = segment, bins = L / 2 + 1, hop = L / 2;
    std::vector<double> window(L), buffer(L), sum(bins, 0.0);
    double              window_power = 0.0;
    for (std::size_t i = 0; i < L; ++i)
      {
        window[i] = 0.5 * (1 - std::cos(2 * M_PI * i / L)); // periodic Hann
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
    PowerSpectrum psd;
    const double  fs = 1.0 / interval;
    for (std::size_t k = 0; k < bins; ++k)
      {
        // One-sided: every bin but DC and Nyquist carries its negative-frequency twin.
        const double twice = (k == 0 || 2 * k == L) ? 1.0 : 2.0;
        psd.frequency.push_back(k * fs / L);
        psd.density.push_back(twice * sum[k] / (segments * fs * window_power));
      }
    return psd;
  }

  namespace
  {
    struct SupportColumns
    {
      std::vector<double> force, u;                  // per row
      std::vector<double> impulse[2], gap[2];        // lower, upper
    };

    SupportColumns columns(const model::StructuralModel &model, const integrators::ResponseHistory &history,
                           const model::ClearanceSupport &support)
    {
      SupportColumns c;
      const auto     times = history.times();
      for (const int side : {0, 1})
        {
          const auto &contact = model.contacts[side == 0 ? support.lower : support.upper];
          c.impulse[side]     = history.column("impulse_" + contact.name);
          c.gap[side]         = history.column("gap_" + contact.name);
        }
      c.u = history.column("u_" + model.probes[support.probe].name);
      c.force.assign(times.size(), 0.0);
      for (std::size_t k = 1; k < times.size(); ++k)
        {
          const double span = times[k] - times[k - 1];
          if (span > 0)
            c.force[k] = (c.impulse[0][k] + c.impulse[1][k]) / span;
        }
      return c;
    }

    std::size_t default_segment(const std::size_t n)
    {
      std::size_t L = 16;
      while (2 * L <= n / 4) // ≥ 8 half-overlapping segments
        L *= 2;
      return L;
    }
  } // namespace

  std::vector<SupportStatistics> support_statistics(const model::StructuralModel        &model,
                                                    const integrators::ResponseHistory &history,
                                                    const double skip_time, const std::size_t psd_segment)
  {
    std::vector<SupportStatistics> result;
    const auto                     times = history.times();
    std::size_t                    first = 0; // the row the record starts from
    while (first + 1 < times.size() && times[first] < skip_time)
      ++first;
    if (times.size() < first + 3)
      throw std::invalid_argument("support statistics: fewer than three rows after the skipped start");
    const double T        = times.back() - times[first];
    const double interval = (times[times.size() - 2] - times[first]) / double(times.size() - 2 - first);
    for (const auto &support : model.supports)
      {
        const SupportColumns c = columns(model, history, support);
        SupportStatistics    s;
        s.name     = support.name;
        s.duration = T;
        bool   in_contact = false;
        double contact_time = 0.0, impulse = 0.0, square = 0.0, work = 0.0, absolute_work = 0.0;
        for (std::size_t k = first + 1; k < times.size(); ++k)
          {
            const double span = times[k] - times[k - 1];
            const double p    = c.impulse[0][k] + c.impulse[1][k];
            for (const int side : {0, 1}) // ∫ λ ġ dt over the row: the impulse times the mean ġ
              {
                const double w = c.impulse[side][k] * (c.gap[side][k] - c.gap[side][k - 1]) / span;
                work += w;
                absolute_work += std::abs(w);
              }
            impulse += p;
            square += c.force[k] * c.force[k] * span;
            s.peak_force = std::max(s.peak_force, c.force[k]);
            if (p > 0)
              {
                contact_time += span;
                if (!in_contact)
                  {
                    ++s.impacts;
                    s.impact_peaks.push_back(0.0);
                  }
                s.impact_peaks.back() = std::max(s.impact_peaks.back(), c.force[k]);
              }
            in_contact = p > 0;
          }
        s.impact_rate      = s.impacts / T;
        s.contact_fraction = contact_time / T;
        s.mean_force       = impulse / T;
        s.rms_force        = std::sqrt(square / T);
        s.impact_work      = -work;
        s.work_rate        = absolute_work / T;
        const std::vector<double> u(c.u.begin() + first, c.u.end());
        const std::size_t         L = psd_segment > 0 ? psd_segment : default_segment(u.size());
        if (u.size() >= L)
          s.displacement_psd = welch_psd(u, interval, L);
        result.push_back(std::move(s));
      }
    return result;
  }

  namespace
  {
    const std::vector<std::string> statistics_columns{"support",   "duration",   "impacts",    "impact_rate",
                                                      "contact_fraction", "mean_force", "rms_force", "peak_force",
                                                      "impact_work",      "work_rate"};

    // One support's numbers in the order of statistics_columns (after the name).
    std::vector<double> statistics_row(const SupportStatistics &s)
    {
      return {s.duration,   double(s.impacts), s.impact_rate, s.contact_fraction, s.mean_force,
              s.rms_force,  s.peak_force,      s.impact_work, s.work_rate};
    }

    void write_statistics_table(const std::filesystem::path &folder, const std::vector<SupportStatistics> &statistics)
    {
      io::CsvWriter csv(folder / "statistics.csv", statistics_columns);
      for (const auto &s : statistics)
        {
          std::vector<std::string> cells{s.name};
          for (const double v : statistics_row(s))
            cells.push_back(io::CsvWriter::format(v));
          csv.write_cells(cells);
        }
    }

    // Spectra on the first support's frequencies (all share the row spacing and segment).
    void write_spectra(const std::filesystem::path &folder, const std::vector<SupportStatistics> &statistics)
    {
      std::vector<std::string> names{"frequency"};
      for (const auto &s : statistics)
        names.push_back("psd_" + s.name);
      io::CsvWriter csv(folder / "spectra.csv", names);
      const auto   &f = statistics.front().displacement_psd.frequency;
      for (std::size_t k = 1; k < f.size(); ++k)
        {
          std::vector<double> row{f[k]};
          for (const auto &s : statistics)
            row.push_back(k < s.displacement_psd.density.size() ? s.displacement_psd.density[k] : NAN);
          csv.write_row(row);
        }
    }

    // Densities of the impact peak forces on 20 common bins.
    void write_force_densities(const std::filesystem::path &folder, const std::vector<SupportStatistics> &statistics)
    {
      double top = 0.0;
      for (const auto &s : statistics)
        for (const double p : s.impact_peaks)
          top = std::max(top, p);
      std::vector<std::string> names{"force"};
      for (const auto &s : statistics)
        names.push_back("pdf_" + s.name);
      io::CsvWriter      csv(folder / "force_pdf.csv", names);
      const unsigned int bins  = 20;
      const double       width = top > 0 ? top / bins : 1.0;
      for (unsigned int b = 0; b < bins; ++b)
        {
          std::vector<double> row{(b + 0.5) * width};
          for (const auto &s : statistics)
            {
              const auto n = std::count_if(s.impact_peaks.begin(), s.impact_peaks.end(), [&](const double p) {
                return std::min<unsigned>(static_cast<unsigned>(p / width), bins - 1) == b;
              });
              row.push_back(s.impact_peaks.empty() ? 0.0 : n / (s.impact_peaks.size() * width));
            }
          csv.write_row(row);
        }
    }

    // Displacement and contact force of every support at every history row.
    void write_support_forces(const std::filesystem::path &folder, const model::StructuralModel &model,
                              const integrators::ResponseHistory &history)
    {
      std::vector<std::string> names{"time"};
      for (const auto &s : model.supports)
        names.push_back("u_" + s.name), names.push_back("force_" + s.name);
      io::CsvWriter                    csv(folder / "support_forces.csv", names);
      const auto                       times = history.times();
      std::vector<SupportColumns>      cols;
      for (const auto &s : model.supports)
        cols.push_back(columns(model, history, s));
      for (std::size_t k = 0; k < times.size(); ++k)
        {
          std::vector<double> row{times[k]};
          for (const auto &c : cols)
            row.push_back(c.u[k]), row.push_back(c.force[k]);
          csv.write_row(row);
        }
    }

    // Supports 1 and 3 as in the paper's figures (or as many as there are): displacement with
    // the stops above, contact force below.
    void plot_support_forces(const std::filesystem::path &folder, const model::StructuralModel &model)
    {
      std::vector<std::size_t> shown{0};
      if (model.supports.size() >= 3)
        shown.push_back(2);
      else if (model.supports.size() == 2)
        shown.push_back(1);
      std::ostringstream gp;
      gp << "set terminal pngcairo noenhanced size " << 600 * shown.size() << ",700\nset output 'support_forces.png'\nset datafile separator ','\n"
         << "set key autotitle columnhead\nset multiplot layout 2," << shown.size() << " columnsfirst\n";
      for (const auto s : shown)
        {
          const auto &support = model.supports[s];
          gp << "set title " << io::gnuplot_quote("support " + support.name) << "\nset xlabel 'time'\nset ylabel 'displacement'\n"
             << "plot 'support_forces.csv' using 'time':'u_" << support.name << "' with lines notitle, " << support.lower_gap
             << " with lines dt 2 lc 'magenta' notitle, " << support.upper_gap << " with lines dt 2 lc 'magenta' notitle\n"
             << "set ylabel 'contact force'\nplot 'support_forces.csv' using 'time':'force_" << support.name
             << "' with lines notitle\n";
        }
      gp << "unset multiplot\n";
      io::run_gnuplot(folder / "support_forces.gp", gp.str());
    }

    void plot_spectra(const std::filesystem::path &folder, const std::vector<SupportStatistics> &statistics)
    {
      std::ostringstream spectra;
      spectra << "set terminal pngcairo noenhanced size 800,500\nset output 'spectra.png'\nset datafile separator ','\n"
              << "set logscale y\nset xlabel 'frequency'\nset ylabel 'PSD of displacement at the support'\nplot ";
      for (std::size_t s = 0; s < statistics.size(); ++s)
        spectra << (s ? ", " : "") << "'spectra.csv' using 1:" << s + 2 << " with lines title "
                << io::gnuplot_quote(statistics[s].name);
      spectra << "\n";
      io::run_gnuplot(folder / "spectra.gp", spectra.str());
    }

    void plot_force_densities(const std::filesystem::path &folder, const std::vector<SupportStatistics> &statistics)
    {
      std::ostringstream pdf;
      pdf << "set terminal pngcairo noenhanced size 800,500\nset output 'force_pdf.png'\nset datafile separator ','\n"
          << "set xlabel 'impact peak force'\nset ylabel 'probability density'\nplot ";
      for (std::size_t s = 0; s < statistics.size(); ++s)
        pdf << (s ? ", " : "") << "'force_pdf.csv' using 1:" << s + 2 << " with linespoints title "
            << io::gnuplot_quote(statistics[s].name);
      pdf << "\n";
      io::run_gnuplot(folder / "force_pdf.gp", pdf.str());
    }
  } // namespace

  void write_statistics_hdf5(io::Hdf5Records &file, const std::vector<SupportStatistics> &statistics)
  {
    std::vector<std::string> names;
    for (const auto &s : statistics)
      names.push_back(s.name);
    file.write_column("statistics", statistics_columns[0], names);
    for (std::size_t c = 1; c < statistics_columns.size(); ++c)
      {
        std::vector<double> column;
        for (const auto &s : statistics)
          column.push_back(statistics_row(s)[c - 1]);
        file.write_column("statistics", statistics_columns[c], column);
      }
  }

  void write_support_statistics(const std::filesystem::path &folder, const model::StructuralModel &model,
                                const integrators::ResponseHistory   &history,
                                const std::vector<SupportStatistics> &statistics, const bool plots)
  {
    write_statistics_table(folder, statistics);
    if (statistics.empty())
      return;
    write_spectra(folder, statistics);
    write_force_densities(folder, statistics);
    write_support_forces(folder, model, history);
    if (!plots)
      return;
    plot_support_forces(folder, model);
    plot_spectra(folder, statistics);
    plot_force_densities(folder, statistics);
  }
} // namespace vibroimpact::studies
