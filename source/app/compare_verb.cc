#include <vibroimpact/integrators/modal_restitution_parameters.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/solver_comparison.h>

#include "case_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace vibroimpact::app
{
  int run_compare(const CommonOptions &options)
  {
    const Case c     = read_case(options);
    const auto model = structure::build_model(c.description);
    if (std::find(c.comparison.solvers.begin(), c.comparison.solvers.end(), "modal-cor") != c.comparison.solvers.end())
      integrators::check_modal_restitution(c.modal_restitution, model, c.description.filename);
    // The two solvers take their damping from different places (the model's C; the modal
    // reference's own ratios): say so when they cannot be the same.
    const auto &d = c.description.damping;
    if (d.rayleigh_mass > 0 || d.rayleigh_stiffness > 0 || d.modal_ratios != c.modal_restitution.damping_ratios)
      std::cerr << "warning: the Damping subsection and Modal restitution/Damping ratios differ: the two "
                   "solvers do not damp the same structure\n";
    auto       stepper = c.integrator;
    stepper.method     = "moreau-jean"; // Integrator/Method may name the reference

    io::OutputFolder                                out(output_directory(options, c.description));
    std::map<std::string, studies::ResponseRecord> records;
    for (const auto &solver : c.comparison.solvers)
      {
        const auto directory = out.staging() / solver;
        std::filesystem::create_directories(directory);
        records[solver] = solver == "moreau-jean" ?
                            studies::record_moreau_jean(model, stepper, directory, options.quiet) :
                            studies::record_modal_restitution(model, c.modal_restitution, directory);
      }

    std::ofstream report(out / "comparison.txt");
    const auto   &reference = records.at(c.comparison.reference);
    for (const auto &solver : c.comparison.solvers)
      {
        if (solver == c.comparison.reference)
          continue;
        const auto difference =
          studies::compare_responses(reference, records.at(solver), c.comparison, c.integrator.final_time);
        studies::write_report(report, difference);
        studies::write_report(std::cout, difference);
        studies::write_matches_csv(out / ("impacts_" + solver + ".csv"), difference);
      }
    report.close();
    out.commit();
    return io::exit_success;
  }
} // namespace vibroimpact::app
