// The support statistics' files (see the header): the tables of support_tables.h written as
// CSV (and HDF5 groups), and their plots drawn by gnuplot from the same numbers.
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/studies/support_output.h>
#include <vibroimpact/studies/support_tables.h>

#include "spatial_statistics.h"

#include <algorithm>
#include <sstream>

namespace vibroimpact::studies
{
  namespace
  {
    // A curve's points as a gnuplot data block named `name`.
    void write_data_block(std::ostream &gp, const std::string &name, const io::LineEnvelope &curve)
    {
      gp << '$' << name << " << EOD\n";
      for (const auto &p : curve.points())
        gp << io::CsvWriter::format(p.x) << ' ' << io::CsvWriter::format(p.y) << '\n';
      gp << "EOD\n";
    }

    // Supports 1 and 3 as in the paper's figures (or as many as there are): displacement with
    // the stops above, contact force below. Drawn from the envelopes of support_forces.csv's
    // columns, in the script as data blocks: a pixel column's lowest and highest point, not
    // every row (a 10⁷-row record took gnuplot 20 minutes).
    io::GnuplotRun plot_support_forces(const std::filesystem::path &folder, const model::StructuralModel &model,
                                       const std::vector<SupportForcesCurve> &curves)
    {
      std::ostringstream gp;
      gp << "# The columns of support_forces.csv reduced to the first, lowest, highest and last point of\n"
         << "# each of at least " << support_forces_plot_columns << " time columns (every row would draw the same pixels).\n";
      for (const auto &c : curves)
        {
          write_data_block(gp, "u_" + std::to_string(c.support + 1), c.displacement); // names may not be identifiers
          write_data_block(gp, "force_" + std::to_string(c.support + 1), c.force);
        }
      gp << "set terminal pngcairo noenhanced size " << 600 * curves.size() << ",700\nset output 'support_forces.png'\n"
         << "set multiplot layout 2," << curves.size() << " columnsfirst\n";
      for (const auto &c : curves)
        {
          const auto &support = model.supports[c.support];
          gp << "set title " << io::gnuplot_quote("support " + support.name) << "\nset xlabel 'time'\nset ylabel 'displacement'\n"
             << "plot $u_" << c.support + 1 << " using 1:2 with lines notitle, " << support.lower_gap
             << " with lines dt 2 lc 'magenta' notitle, " << support.upper_gap << " with lines dt 2 lc 'magenta' notitle\n"
             << "set ylabel 'contact force'\nplot $force_" << c.support + 1 << " using 1:2 with lines notitle\n";
        }
      gp << "unset multiplot\n";
      return io::start_gnuplot(folder / "support_forces.gp", gp.str());
    }

    // The spectra on a log scale, from their envelopes over at least 800 frequency columns (a
    // 10⁷-row record has 5·10⁵ bins a support); spectra.csv holds every bin.
    io::GnuplotRun plot_spectra(const std::filesystem::path &folder, const std::vector<SupportStatistics> &statistics)
    {
      const auto         columns = named_spectra(statistics);
      std::ostringstream spectra;
      spectra << "# The columns of spectra.csv reduced to the first, lowest, highest and last point of each\n"
              << "# of at least 800 frequency columns.\n";
      for (std::size_t s = 0; s < columns.size(); ++s)
        {
          io::LineEnvelope curve(800);
          const auto      &psd = *columns[s].second;
          for (std::size_t k = 1; k < psd.frequency.size() && k < psd.density.size(); ++k)
            curve.add(psd.frequency[k], psd.density[k]);
          write_data_block(spectra, "psd_" + std::to_string(s + 1), curve);
        }
      spectra << "set terminal pngcairo noenhanced size 800,500\nset output 'spectra.png'\n"
              << "set logscale y\nset xlabel 'frequency'\nset ylabel 'PSD of displacement at the support'\nplot ";
      // Titled by support; a support in space's two curves by their direction.
      for (std::size_t s = 0; s < columns.size(); ++s)
        spectra << (s ? ", " : "") << "$psd_" << s + 1 << " using 1:2 with lines title "
                << io::gnuplot_quote(columns[s].first.substr(4));
      spectra << "\n";
      return io::start_gnuplot(folder / "spectra.gp", spectra.str());
    }

    io::GnuplotRun plot_force_densities(const std::filesystem::path &folder, const std::vector<SupportStatistics> &statistics)
    {
      std::ostringstream pdf;
      pdf << "set terminal pngcairo noenhanced size 800,500\nset output 'force_pdf.png'\nset datafile separator ','\n"
          << "set xlabel 'impact peak force'\nset ylabel 'probability density'\nplot ";
      for (std::size_t s = 0; s < statistics.size(); ++s)
        pdf << (s ? ", " : "") << "'force_pdf.csv' using 1:" << s + 2 << " with linespoints title "
            << io::gnuplot_quote(statistics[s].name);
      pdf << "\n";
      return io::start_gnuplot(folder / "force_pdf.gp", pdf.str());
    }
  } // namespace

  void write_statistics_hdf5(io::Hdf5Records &file, const std::vector<SupportStatistics> &statistics)
  {
    file.write_table("statistics", statistics_table(statistics));
    if (any_in_space(statistics))
      file.write_table("wear_sectors", wear_sectors_table(statistics));
  }

  std::vector<io::GnuplotRun> write_support_summaries(const std::filesystem::path          &folder,
                                                      const model::StructuralModel          &model,
                                                      const std::vector<SupportStatistics>  &statistics,
                                                      const std::vector<SupportForcesCurve> &curves,
                                                      const bool                             plots)
  {
    std::vector<io::GnuplotRun> drawing;
    // The largest plots first: their data (support_forces.csv, support_orbits.csv) is complete already.
    if (plots && !statistics.empty() && !model.supports.empty())
      drawing.push_back(plot_support_forces(folder, model, curves));
    if (plots && any_in_space(statistics) && std::filesystem::exists(folder / "support_orbits.csv"))
      drawing.push_back(plot_support_orbits(folder, model));
    for (const auto &[file, table] : statistics_tables(statistics))
      io::write_csv_table(folder / file, table);
    if (plots && !statistics.empty())
      {
        drawing.push_back(plot_spectra(folder, statistics));
        drawing.push_back(plot_force_densities(folder, statistics));
      }
    return drawing;
  }

  void write_support_statistics(const std::filesystem::path &folder, const model::StructuralModel &model,
                                const integrators::ResponseHistory   &history,
                                const std::vector<SupportStatistics> &statistics, const bool plots)
  {
    std::vector<SupportForcesCurve> curves;
    if (!statistics.empty() && !model.supports.empty())
      {
        const auto forces = support_forces_record(model, history);
        io::write_csv_table(folder / "support_forces.csv", forces.table);
        curves = forces.curves;
      }
    if (!model.spatial_supports.empty())
      io::write_csv_table(folder / "support_orbits.csv", support_orbits_table(model, history));
    for (auto &plot : write_support_summaries(folder, model, statistics, curves, plots))
      plot.wait();
  }
} // namespace vibroimpact::studies
