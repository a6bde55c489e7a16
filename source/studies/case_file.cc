#include <vibroimpact/integrators/integrator_parameters.h>
#include <vibroimpact/integrators/modal_restitution_parameters.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/structure/case_parameters.h>
#include <vibroimpact/studies/case_file.h>

namespace vibroimpact::studies
{
  void declare_case_file_parameters(io::ParameterFile &file)
  {
    structure::declare_case_parameters(file);
    integrators::declare_integrator_parameters(file);
    integrators::declare_modal_restitution_parameters(file);
    declare_convergence_parameters(file);
    declare_sweep_parameters(file);
    declare_comparison_parameters(file);
  }

  CaseFile read_case_file(const std::string &filename, const std::vector<std::string> &overrides)
  {
    io::ParameterFile file(filename, structure::case_families(), overrides);
    declare_case_file_parameters(file);
    file.parse();
    CaseFile c;
    c.description = structure::parse_case_parameters(file);
    c.integrator  = integrators::parse_integrator_parameters(file);
    // The reference writes when the time stepper writes, unless told otherwise.
    c.modal_restitution = integrators::parse_modal_restitution_parameters(
      file, c.integrator.final_time, c.integrator.time_step * c.integrator.output_every);
    c.convergence = parse_convergence_parameters(file);
    c.sweep       = parse_sweep_parameters(file);
    c.comparison  = parse_comparison_parameters(file);
    return c;
  }
} // namespace vibroimpact::studies
