// Two response histories compared (see studies/solver_comparison.h): matched impacts, gaps and
// energies over a window, the report and the overlay plots.
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/studies/solver_comparison.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

namespace vibroimpact::studies
{
  void bind_run_definition(io::ParameterSection &s, RunDefinition &run, const std::string &name,
                           const std::vector<std::string> &solvers)
  {
    run.name = name;
    s.add_choice("Solver", run.solver, solvers, "The registered solver of this run.");
    s.add("Overrides", run.overrides,
          "Parameters set for this run only, as with -s: 'Section/Entry=value', separated by ';' (e.g. "
          "Moreau-Jean/Theta=1; Moreau-Jean/Time step=1e-5).",
          ';');
    if (!s.reading())
      return;
    for (const auto &o : run.overrides)
      if (o.find('=') == std::string::npos || o.find('/') == std::string::npos)
        s.fail("Overrides", "'" + o + "' does not read 'Section/Entry=value'");
  }

  void bind_comparison_parameters(io::ParameterSection &s, ComparisonSettings &c)
  {
    s.add("Reference", c.reference,
          "The run (subsection Run <name>) the others are measured against; empty: the first run.");
    s.add("Window start", c.window_start, io::non_negative(), "Start of the time window of the differences.");
    s.add("Window end", c.window_end, io::non_negative(), "End of the window; 0: Simulation/Final time.");
    s.add("Impacts compared", c.max_impacts, 1, std::numeric_limits<unsigned int>::max(),
          "Impacts matched one to one per contact from the window's start.");
    if (s.reading() && c.window_end != 0 && c.window_end <= c.window_start)
      s.fail("Window end", "must exceed Window start");
  }

  void Difference::add(const double value)
  {
    max = std::max(max, std::abs(value));
    rms += value * value;
    ++count;
  }

  void Difference::finish()
  {
    rms = count > 0 ? std::sqrt(rms / count) : 0.0;
  }

  ComparisonReport compare_responses(const std::string &reference_name, const integrators::ResponseHistory &reference,
                                     const std::string &candidate_name, const integrators::ResponseHistory &candidate,
                                     const ComparisonSettings &settings, const double final_time)
  {
    ComparisonReport report;
    report.reference    = reference_name;
    report.candidate    = candidate_name;
    report.window_start = settings.window_start;
    report.window_end   = settings.window_end > 0 ? settings.window_end : final_time;
    const auto in_window = [&](double t) { return t >= report.window_start && t <= report.window_end; };

    const std::size_t n_contacts = reference.contact_names().size();
    report.reference_impacts.assign(n_contacts, 0);
    report.candidate_impacts.assign(n_contacts, 0);
    const auto reference_impacts = reference.impacts(), candidate_impacts = candidate.impacts();
    for (std::size_t c = 0; c < n_contacts; ++c)
      {
        std::vector<integrators::ContactEvent> ref, cand;
        for (const auto &i : reference_impacts)
          if (i.contact == c && in_window(i.time))
            ref.push_back(i);
        for (const auto &i : candidate_impacts)
          if (i.contact == c && in_window(i.time))
            cand.push_back(i);
        report.reference_impacts[c] = ref.size();
        report.candidate_impacts[c] = cand.size();
        const std::size_t n = std::min({ref.size(), cand.size(), std::size_t(settings.max_impacts)});
        for (std::size_t k = 0; k < n; ++k)
          {
            report.matches.push_back(
              {static_cast<unsigned int>(c), ref[k].time, cand[k].time, ref[k].impulse, cand[k].impulse});
            report.impact_time.add(cand[k].time - ref[k].time);
            if (ref[k].impulse > 0)
              report.impact_impulse.add((cand[k].impulse - ref[k].impulse) / ref[k].impulse);
          }
      }

    const std::vector<double> reference_times = reference.times(), candidate_times = candidate.times();
    const std::vector<double> reference_energy = reference.column("total_energy");
    const std::vector<double> candidate_energy = candidate.column("total_energy");
    double energy_scale = std::abs(reference_energy.front());
    if (!(energy_scale > 0))
      {
        // A run from rest (a forced start): E0 = 0 cannot scale the differences.
        for (std::size_t k = 0; k < reference_times.size(); ++k)
          if (in_window(reference_times[k]))
            energy_scale = std::max(energy_scale, std::abs(reference_energy[k]));
        report.energy_scale_name = "max E";
      }
    if (!(energy_scale > 0))
      energy_scale = 1.0, report.energy_scale_name = "1 (no energy)";
    report.energy_scale = energy_scale;
    for (const auto &name : reference.contact_names())
      {
        const auto candidate_gap = candidate.column("gap_" + name);
        const auto reference_gap = reference.column("gap_" + name);
        for (std::size_t k = 0; k < reference_times.size(); ++k)
          if (in_window(reference_times[k]))
            report.gap.add(integrators::interpolate(candidate_times, candidate_gap, reference_times[k]) - reference_gap[k]);
      }
    for (std::size_t k = 0; k < reference_times.size(); ++k)
      if (in_window(reference_times[k]))
        report.energy.add((integrators::interpolate(candidate_times, candidate_energy, reference_times[k]) - reference_energy[k]) /
                          energy_scale);
    report.impact_time.finish();
    report.impact_impulse.finish();
    report.gap.finish();
    report.energy.finish();
    return report;
  }

  void write_report(std::ostream &out, const ComparisonReport &r)
  {
    out << "comparison of " << r.candidate << " against " << r.reference << " over t in [" << r.window_start
        << ", " << r.window_end << "]\n";
    for (std::size_t c = 0; c < r.reference_impacts.size(); ++c)
      out << "  contact " << c << ": " << r.reference_impacts[c] << " impacts (" << r.reference << "), "
          << r.candidate_impacts[c] << " (" << r.candidate << ")\n";
    const auto line = [&](const char *what, const Difference &d) {
      out << "  " << std::left << std::setw(34) << what << std::right << " max " << std::setw(12)
          << std::setprecision(4) << d.max << "  rms " << std::setw(12) << d.rms << "  over " << d.count << "\n";
    };
    line("impact time |dt|", r.impact_time);
    line("impulse per impact |dp|/p", r.impact_impulse);
    line("contact gap |dg|", r.gap);
    line(("total energy |dE|/" + r.energy_scale_name).c_str(), r.energy);
  }

  io::CsvTable matches_table(const ComparisonReport &r)
  {
    io::CsvTable table({"contact", "time_" + r.reference, "time_" + r.candidate, "impulse_" + r.reference,
                        "impulse_" + r.candidate});
    for (const auto &m : r.matches)
      table.add_row({double(m.contact), m.reference_time, m.candidate_time, m.reference_impulse, m.candidate_impulse});
    return table;
  }
  void plot_overlay(const std::filesystem::path &folder, const std::vector<std::string> &runs,
                    const std::string &column, const std::string &title)
  {
    std::ostringstream gp;
    gp << "# The column " << column << " of every run's history.csv: gnuplot overlay_" << column << ".gp\n"
       << "set terminal pngcairo size 1000,500 noenhanced\n"
       << "set output " << io::gnuplot_quote("overlay_" + column + ".png") << "\n"
       << "set datafile separator ','\n"
       << "set key autotitle columnhead\n"
       << "set title " << io::gnuplot_quote(title) << "\n"
       << "set xlabel 't'\nset ylabel " << io::gnuplot_quote(column) << "\n"
       << "set grid\n"
       << "plot ";
    for (std::size_t k = 0; k < runs.size(); ++k)
      gp << (k ? ", \\\n     " : "") << io::gnuplot_quote(runs[k] + "/history.csv") << " using \"time\":"
         << io::gnuplot_quote(column) << " with lines lw " << (k == 0 ? 3 : 1) << " title "
         << io::gnuplot_quote(runs[k]);
    gp << "\n";
    io::run_gnuplot(folder / ("overlay_" + column + ".gp"), gp.str());
  }
} // namespace vibroimpact::studies
