#include <vibroimpact/integrators/integrator_parameters.h>
#include <vibroimpact/integrators/modal_restitution_parameters.h>
#include <vibroimpact/integrators/simulation.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/io/vtk_writer.h>
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/case_parameters.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/modal_convergence.h>

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/timer.h>

#include "case_file.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

namespace vibroimpact::app
{
  namespace
  {
    // The scalar displacement of each drawn point along its body's motion direction.
    model::Vector along_motion(const model::OutputGeometry &geometry, const model::Vector &u)
    {
      const model::Vector sampled = geometry.displacement_map * u;
      model::Vector       scalar(geometry.points.size());
      for (std::size_t p = 0; p < geometry.points.size(); ++p)
        {
          const auto &d = geometry.body_directions[geometry.point_body[p]];
          scalar[p]     = d[0] * sampled[3 * p] + d[1] * sampled[3 * p + 1] + d[2] * sampled[3 * p + 2];
        }
      return scalar;
    }

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
          csv.write_row({double(c), contact.location[0], contact.location[1], contact.location[2],
                         contact.gap0, contact.restitution});
        }
      io::write_markers(out / "contacts.vtu", points, gaps, "gap0");
    }
  } // namespace

  std::string output_directory(const CommonOptions &options, const structure::CaseDescription &description)
  {
    return options.output.empty() ? "output/" + description.name : options.output;
  }

  int run_modes(const CommonOptions &options)
  {
    dealii::TimerOutput timer(std::cout, options.quiet ? dealii::TimerOutput::never : dealii::TimerOutput::summary,
                              dealii::TimerOutput::wall_times);
    timer.enter_subsection("read case and assemble");
    const Case   c     = read_case(options);
    const auto   model = structure::build_model(c.description);
    const auto   n     = c.description.n_modes;
    if (n > model.n_dofs())
      throw io::InputError(c.description.filename, "Modes/Number of modes",
                           "the model has only " + std::to_string(model.n_dofs()) + " DoFs, asked for " +
                             std::to_string(n) + " modes");
    timer.leave_subsection();

    timer.enter_subsection("eigensolve");
    const auto modes = model::compute_modes(model.mass, model.stiffness, n);
    timer.leave_subsection();

    timer.enter_subsection("output");
    io::OutputFolder out(output_directory(options, c.description));
    io::CsvWriter    table(out / "modes.csv",
                        {"mode", "omega_rad_per_s", "frequency_hz", "period_s", "generalised_mass_unit_peak"});
    std::vector<std::string> shape_columns{"body", "x"};
    for (unsigned int j = 1; j <= n; ++j)
      shape_columns.push_back("mode_" + std::to_string(j));
    io::CsvWriter  shapes(out / "mode_shapes.csv", shape_columns);
    io::VtkSeries  vtk(out.staging(), "modes", model.geometry);
    Eigen::MatrixXd unit_peak(model.geometry.points.size(), n);

    std::printf("%s: %u DoFs, %u elements, %s\n", model.name.c_str(), unsigned(model.n_dofs()),
                model.n_elements, modes.method.c_str());
    std::printf("%6s %22s %22s %16s\n", "mode", "omega [rad/s]", "f [Hz]", "period [s]");
    for (unsigned int j = 0; j < n; ++j)
      {
        const double  omega  = modes.omegas[j];
        // Unit peak, and the peak drawn upwards (the solver's sign is arbitrary).
        const model::Vector drawn = along_motion(model.geometry, modes.shapes.col(j));
        Eigen::Index        at_peak;
        const double        peak  = drawn.cwiseAbs().maxCoeff(&at_peak);
        const model::Vector shape = modes.shapes.col(j) / (drawn[at_peak] > 0 ? peak : -peak);
        const double  period = omega > 0 ? 2 * M_PI / omega : INFINITY;
        table.write_row({double(j + 1), omega, omega / (2 * M_PI), period, 1.0 / (peak * peak)});
        unit_peak.col(j) = along_motion(model.geometry, shape);
        vtk.write_frame(j + 1, {{"mode_shape", shape}});
        std::printf("%6u %22.14g %22.14g %16.10g\n", j + 1, omega, omega / (2 * M_PI), period);
      }
    vtk.write_record();
    for (std::size_t p = 0; p < model.geometry.points.size(); ++p)
      {
        std::vector<double> row{double(model.geometry.point_body[p]), model.geometry.point_coordinate[p]};
        for (unsigned int j = 0; j < n; ++j)
          row.push_back(unit_peak(p, j));
        shapes.write_row(row);
      }
    write_contact_markers(out, model);
    out.commit();
    timer.leave_subsection();
    if (!options.quiet)
      std::printf("wrote %s/{modes.csv, mode_shapes.csv, modes.pvd}\n",
                  output_directory(options, c.description).c_str());
    return io::exit_success;
  }

  int run_simulate(const CommonOptions &options)
  {
    const Case c     = read_case(options);
    const auto model = structure::build_model(c.description);
    if (c.integrator.method == "modal-cor")
      {
        integrators::check_modal_restitution(c.modal_restitution, model, c.description.filename);
        io::OutputFolder out(output_directory(options, c.description));
        const auto summary = integrators::run_modal_restitution_simulation(model, c.modal_restitution, out.staging());
        out.commit();
        std::printf("%s: modal coefficient-of-restitution reference, %u modes\n", model.name.c_str(),
                    c.modal_restitution.n_modes);
        integrators::print_summary(std::cout, summary);
        return io::exit_success;
      }
    if (!options.quiet)
      std::printf("%s: %u DoFs, %u elements, %zu contacts, Moreau–Jean theta = %g, h = %g, to t = %g\n",
                  model.name.c_str(), unsigned(model.n_dofs()), model.n_elements, model.contacts.size(),
                  c.integrator.theta, c.integrator.time_step, c.integrator.final_time);
    io::OutputFolder out(output_directory(options, c.description));
    const auto       summary = integrators::run_simulation(model, c.integrator, out.staging(), options.quiet);
    out.commit();
    integrators::print_summary(std::cout, summary);
    return io::exit_success;
  }

  int run_converge(const CommonOptions &options)
  {
    const Case c = read_case(options);
    // Build the coarsest model once now so that input errors surface before any output.
    if (structure::build_model(c.description).n_elements == 0)
      throw io::InputError(c.description.filename, "Convergence",
                           "the case has no finite elements to refine (only point masses)");
    studies::exact_frequencies(c.convergence.exact, c.description, c.description.n_modes);

    io::ProgressBar progress("converge", c.convergence.n_cycles, options.quiet);
    const auto study = studies::run_modal_convergence(c.description, c.convergence,
                                                      [&](unsigned int cycle) { progress.update(cycle + 1); });
    progress.finish();

    io::OutputFolder out(output_directory(options, c.description));
    {
      std::ofstream file(out / "convergence.txt");
      study.write_table(file);
    }
    out.commit();
    study.write_table(std::cout);
    return io::exit_success;
  }

  int print_parameters(const std::string &verb)
  {
    if (!verb.empty() && verb != "modes" && verb != "converge" && verb != "simulate" && verb != "sweep" &&
        verb != "compare")
      throw io::InputError("command line", "parameters " + verb,
                           "unknown verb (modes, simulate, compare, sweep, converge)");
    auto file = io::ParameterFile::documentation(structure::case_families());
    structure::declare_case_parameters(file);
    if (verb.empty() || verb == "simulate" || verb == "compare" || verb == "sweep")
      {
        integrators::declare_integrator_parameters(file);
        integrators::declare_modal_restitution_parameters(file);
      }
    if (verb.empty() || verb == "compare")
      studies::declare_comparison_parameters(file);
    if (verb.empty() || verb == "converge")
      studies::declare_convergence_parameters(file);
    if (verb.empty() || verb == "sweep")
      studies::declare_sweep_parameters(file);
    std::cout << "# vibroimpact parameters. Families of subsections are named by the user:\n"
              << "# 'subsection Body beam', 'subsection Contact tip'; <name> stands for that name.\n";
    file.handler().print_parameters(std::cout, dealii::ParameterHandler::Text);
    return io::exit_success;
  }
} // namespace vibroimpact::app
