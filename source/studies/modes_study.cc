// The modal analysis study (see the header): the eigensolve of a case's model and its files.
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/vtk_writer.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/modes_study.h>

#include <algorithm>
#include <cmath>

namespace vibroimpact::studies
{
  namespace
  {
    void write_contact_markers(const io::OutputFolder &out, const model::StructuralModel &model)
    {
      if (model.contacts.empty())
        return;
      std::vector<std::array<double, 3>> points;
      std::vector<double>                gaps;
      io::CsvWriter csv(out / "contacts.csv", {"contact", "x", "y", "z", "gap0", "restitution"});
      for (std::size_t c = 0; c < model.contacts.size(); ++c)
        {
          const auto &contact = model.contacts[c];
          points.push_back(contact.location);
          gaps.push_back(contact.gap0);
          csv.write_row({double(c), contact.location[0], contact.location[1], contact.location[2], contact.gap0,
                         contact.restitution});
        }
      io::write_markers(out / "contacts.vtu", points, gaps, "gap0");
    }
  } // namespace

  std::vector<double> ModesResult::frequencies_hz() const
  {
    std::vector<double> f;
    for (Eigen::Index j = 0; j < modes.omegas.size(); ++j)
      f.push_back(modes.omegas[j] / (2 * M_PI));
    return f;
  }

  std::vector<double> ModesResult::periods() const
  {
    std::vector<double> T;
    for (Eigen::Index j = 0; j < modes.omegas.size(); ++j)
      T.push_back(modes.omegas[j] > 0 ? 2 * M_PI / modes.omegas[j] : INFINITY);
    return T;
  }

  std::vector<std::size_t> ModesResult::shape_points() const
  {
    // The geometry's contact markers (drawn points at the contacts, appended after the bodies)
    // would send every plotted line back to them.
    const auto              &markers = model.geometry.contact_points;
    std::vector<std::size_t> points;
    for (std::size_t p = 0; p < model.geometry.points.size(); ++p)
      if (std::find(markers.begin(), markers.end(), p) == markers.end())
        points.push_back(p);
    return points;
  }

  ModesSetup prepare_modes(const CaseFile &c)
  {
    ModesSetup setup{structure::build_model(c.description), c.description.n_modes, {}};
    const auto dofs = static_cast<unsigned int>(setup.model.n_dofs());
    if (!c.description.n_modes_given && setup.n_modes > dofs)
      {
        setup.warnings.push_back(c.description.filename + ": Modes/Number of modes: not given; the model has " +
                                 std::to_string(dofs) + " DoFs: computing " + std::to_string(dofs) + " modes, not " +
                                 std::to_string(setup.n_modes));
        setup.n_modes = dofs;
      }
    if (setup.n_modes > setup.model.n_dofs())
      throw io::InputError(c.description.filename, "Modes/Number of modes",
                           "the model has only " + std::to_string(setup.model.n_dofs()) + " DoFs, asked for " +
                             std::to_string(setup.n_modes) + " modes");
    return setup;
  }

  ModesResult run_modes(ModesSetup setup)
  {
    ModesResult result;
    result.warnings = std::move(setup.warnings);
    result.modes    = model::compute_modes(setup.model, setup.n_modes);
    result.drawn = model::unit_peak_modes(result.modes, setup.model.geometry);
    result.model = std::move(setup.model);
    return result;
  }

  void write_modes(const ModesResult &result, io::OutputFolder &out)
  {
    const auto        &model = result.model;
    const auto         n     = static_cast<unsigned int>(result.modes.omegas.size());
    const auto         f     = result.frequencies_hz();
    const auto         T     = result.periods();
    io::CsvWriter table(out / "modes.csv",
                        {"mode", "omega_rad_per_s", "frequency_hz", "period_s", "generalised_mass_unit_peak"});
    std::vector<std::string> shape_columns{"body", "x"};
    for (unsigned int j = 1; j <= n; ++j)
      shape_columns.push_back("mode_" + std::to_string(j));
    io::CsvWriter shapes(out / "mode_shapes.csv", shape_columns);
    io::VtkSeries vtk(out.staging(), "modes", model.geometry);
    for (unsigned int j = 0; j < n; ++j)
      {
        table.write_row({double(j + 1), result.modes.omegas[j], f[j], T[j], result.drawn.generalised_mass[j]});
        vtk.write_frame(j + 1, {{"mode_shape", result.drawn.shapes.col(j)}});
      }
    vtk.write_record();
    for (const auto p : result.shape_points())
      {
        std::vector<double> row{double(model.geometry.point_body[p]), model.geometry.point_coordinate[p]};
        for (unsigned int j = 0; j < n; ++j)
          row.push_back(result.drawn.drawn(p, j));
        shapes.write_row(row);
      }
    write_contact_markers(out, model);
  }
} // namespace vibroimpact::studies
