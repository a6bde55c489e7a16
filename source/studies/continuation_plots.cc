// The continuation study's plots (continuation_plots.h).
#include "continuation_plots.h"

#include <vibroimpact/io/gnuplot.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

namespace vibroimpact::studies
{
  namespace
  {
    // The located special points of branch.csv, one plot clause per kind present (black symbols,
    // a key entry each when `titled`), at columns x:y; awk filters each kind's rows (gnuplot's
    // strcol of an empty last field returns the previous row's text).
    std::string special_point_clauses(const std::vector<periodic::Branch> &branches, const std::size_t special_column,
                                      const std::string &x, const std::string &y, const bool titled)
    {
      const auto point_type = [](const periodic::SpecialPoint kind) {
        switch (kind)
          {
            case periodic::SpecialPoint::fold:
              return 7;
            case periodic::SpecialPoint::branch_point:
              return 5;
            case periodic::SpecialPoint::period_doubling:
              return 9;
            case periodic::SpecialPoint::neimark_sacker:
              return 11;
            case periodic::SpecialPoint::grazing:
              return 13;
            default:
              return 3;
          }
      };
      std::string clauses;
      for (const periodic::SpecialPoint kind : periodic::special_point_kinds)
        {
          const bool present = std::any_of(branches.begin(), branches.end(), [&](const auto &b) {
            return std::any_of(b.points.begin(), b.points.end(), [&](const auto &p) { return p.special == kind; });
          });
          const std::string name(periodic::name(kind));
          if (present)
            clauses += ", \\\n     '< awk -F, ''NR > 1 && $" + std::to_string(special_column) + " == \"" + name +
                       "\"'' branch.csv' using " + x + ":" + y + " with points pt " + std::to_string(point_type(kind)) +
                       " ps 1.2 lc 'black' " + (titled ? "title '" + name + "'" : std::string("notitle"));
        }
      return clauses;
    }
  } // namespace

  // fep.png: each family's stable and unstable orbits and its tongue points (a key entry each
  // only where the family has such points), the located special points by kind.
  void plot_frequency_energy(io::OutputFolder &out, const std::vector<periodic::Branch> &branches,
                             const std::vector<double> &linear_frequencies, const bool forced,
                             const io::CsvTable &table)
  {
    std::size_t tongue_column = 0; // 1-based, gnuplot's; special follows it
    while (table.columns[tongue_column].name != "tongue")
      ++tongue_column;
    ++tongue_column;
    const auto       &tongues       = table.columns[tongue_column - 1].cells;
    const auto        has           = [&](const std::size_t b, const auto &which) {
      std::size_t row = 0;
      for (std::size_t f = 0; f < b; ++f)
        row += branches[f].points.size();
      for (std::size_t k = 0; k < branches[b].points.size(); ++k, ++row)
        if (which(branches[b].points[k], tongues[row]))
          return true;
      return false;
    };
    std::ostringstream gp;
    gp << "# Frequency-energy plot of the branches in branch.csv (written by vibroimpact continue).\n"
       << "set terminal pngcairo size 900,600\nset output 'fep.png'\nset datafile separator ','\n"
       << "set key outside right\nset grid\n";
    if (forced)
      gp << "set xlabel 'forcing frequency [rad/s]'\nset ylabel 'energy at t = 0'\nset logscale y\n";
    else
      {
        gp << "set xlabel 'energy'\nset ylabel 'frequency [rad/s]'\nset logscale x\n";
        // Families of modes far apart (a beam's ω_j ∝ j²): each keeps its height on a log scale.
        const auto [low, high] = std::minmax_element(linear_frequencies.begin(), linear_frequencies.end());
        if (low != linear_frequencies.end() && *high > 3 * *low)
          gp << "set logscale y\n";
      }
    for (const double w : linear_frequencies)
      if (!forced)
        gp << "set arrow from graph 0, first " << w << " to graph 1, first " << w << " nohead dt 2 lc 'gray'\n";
    gp << "plot ";
    bool first = true;
    // Tongue points (a label in the tongue column) apart, as crosses of the branch's colour.
    const std::string on_backbone = "strcol(" + std::to_string(tongue_column) + ") eq ''";
    for (std::size_t b = 0; b < branches.size(); ++b)
      {
        for (const int stable : {1, 0})
          {
            if (!has(b, [&](const auto &p, const std::string &tongue) { return p.stable == bool(stable) && tongue.empty(); }))
              continue;
            gp << (first ? "" : ", \\\n     ") << "'branch.csv' every ::1 using ("
               << "($1 == " << b << " && $10 == " << stable << " && " << on_backbone << ") ? "
               << (forced ? "$4" : "$5") << " : 1/0):" << (forced ? "5" : "4") << " with points pt "
               << (stable ? 7 : 6) << " lc " << b + 1 << " title '" << branches[b].family
               << (stable ? " stable" : " unstable") << "'";
            first = false;
          }
        if (!forced && has(b, [](const auto &, const std::string &tongue) { return !tongue.empty(); }))
          {
            gp << (first ? "" : ", \\\n     ") << "'branch.csv' every ::1 using (($1 == " << b << " && !(" << on_backbone
               << ")) ? $5 : 1/0):4 with points pt 2 lc " << b + 1 << " title '" << branches[b].family << " tongue'";
            first = false;
          }
      }
    gp << special_point_clauses(branches, tongue_column + 1, forced ? "4" : "5", forced ? "5" : "4", true) << "\n";
    io::run_gnuplot(out / "fep.gp", gp.str());
  }
  // frc.png: each probe's amplitude (its largest |u| over the orbit) against the forcing
  // frequency, stable parts solid, unstable dashed (a line breaks where stability changes and
  // at each restart: awk puts a blank line, gnuplot's break, before every restarted row), the
  // located special points marked by kind, one key entry per kind present.
  void plot_forced_response(io::OutputFolder &out, const io::CsvTable &table,
                            const std::vector<periodic::Branch> &branches)
  {
    const auto index = [&](const std::string &name) {
      for (std::size_t k = 0; k < table.columns.size(); ++k)
        if (table.columns[k].name == name)
          return k;
      throw std::logic_error("branch.csv has no column " + name);
    };
    const auto column = [&](const std::string &name) { return std::to_string(index(name) + 1); };
    std::ostringstream gp;
    gp << "# Forced response curves of branch.csv (written by vibroimpact continue): amplitude against\n"
       << "# the forcing frequency, stable solid, unstable dashed, special points marked.\n"
       << "set terminal pngcairo size 900,600 noenhanced\nset output 'frc.png'\nset datafile separator ','\n"
       << "set key outside right\nset grid\nset xlabel 'forcing frequency [rad/s]'\n"
       << "set ylabel 'amplitude (largest |u| over the orbit)'\nplot ";
    const std::string lines = "'< awk -F, ''NR > 1 { if ($" + column("restarted") + " == 1) print \"\"; print }'' branch.csv'";
    bool              first    = true;
    for (const auto &c : table.columns)
      {
        if (c.name.rfind("amplitude_", 0) != 0)
          continue;
        const std::string amplitude = column(c.name), probe = c.name.substr(10);
        for (std::size_t b = 0; b < branches.size(); ++b)
          for (const int stable : {1, 0})
            {
              gp << (first ? "" : ", \\\n     ") << lines << " using (($1 == " << b << " && $10 == " << stable
                 << ") ? $4 : 1/0):" << amplitude << " with lines lw 2 dt " << (stable ? 1 : 2) << " lc " << b + 1
                 << " title '" << probe << (branches.size() > 1 ? ", " + branches[b].family : std::string())
                 << (stable ? " stable" : " unstable") << "'";
              first = false;
            }
        // Each kind's key entry once, with the first probe.
        const bool first_probe = &c == &*std::find_if(table.columns.begin(), table.columns.end(), [](const auto &x) {
          return x.name.rfind("amplitude_", 0) == 0;
        });
        gp << special_point_clauses(branches, index("special") + 1, "4", amplitude, first_probe);
      }
    gp << "\n";
    io::run_gnuplot(out / "frc.gp", gp.str());
  }
} // namespace vibroimpact::studies
