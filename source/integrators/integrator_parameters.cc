#include <vibroimpact/integrators/integrator_parameters.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>

#include <deal.II/base/parameter_handler.h>

#include <cmath>
#include <sstream>

namespace vibroimpact::integrators
{
  using dealii::Patterns::Anything;
  using dealii::Patterns::Bool;
  using dealii::Patterns::Double;
  using dealii::Patterns::Integer;

  void declare_integrator_parameters(io::ParameterFile &file)
  {
    auto &prm = file.handler();
    prm.enter_subsection("Integrator");
    prm.declare_entry("Method", "moreau-jean", Anything(),
                      "moreau-jean: the θ-method with Newton impacts, LCPs by Siconos, on the FE model; modal-cor: "
                      "the event-driven modal coefficient-of-restitution reference (subsection Modal restitution).");
    prm.declare_entry("Theta", "0.5", Double(),
                      "θ in [0.5, 1]: 0.5 conserves energy between impacts; above 0.5 damps high "
                      "frequencies (numerical dissipation, reported in history.csv).");
    prm.declare_entry("Gamma", "0.5", Double(),
                      "γ in [0, 1]: a contact enters the LCP when g + γ h U <= 0 (Siconos' rule).");
    prm.declare_entry("Time step", "1e-3", Double(), "h > 0.");
    prm.declare_entry("Final time", "1", Double(), "Simulated time span, from t = 0.");
    prm.declare_entry("LCP solver", "lemke", Anything(),
                      "lemke|enum|pgs: tried first; the others follow if it fails.");
    prm.declare_entry("LCP tolerance", "1e-12", Double(),
                      "Accepted lcp_compute_error of a solution (relative to |q|).");
    prm.declare_entry("Energy correction", "false", Bool(),
                      "Restore, after each inelastic impact, the energy it dissipated by adding β I "
                      "to the velocity (seed 001, slide 10).");
    prm.declare_entry("Correction direction", "values", Anything(),
                      "I: non-contact (1 on every DoF not in contact: the seed's choice), values (1 "
                      "on deflections, axial and lumped DoFs, 0 on beam slopes), velocity (the "
                      "velocity of the DoFs not in contact).");
    prm.declare_entry("Output every", "1", Integer(),
                      "A history.csv row every this many steps (and at every step with an energy correction).");
    prm.declare_entry("Frames every", "0", Integer(),
                      "A solution-NNNNN.vtu frame every this many steps; 0: none.");
    prm.leave_subsection();
  }


  IntegratorSettings parse_integrator_parameters(io::ParameterFile &file)
  {
    const io::ParameterSection section(file, "Integrator");
    const auto fail = [&](const std::string &entry, const std::string &reason) { section.fail(entry, reason); };
    IntegratorSettings s;

    s.method = section.text("Method");
    if (s.method != "moreau-jean" && s.method != "modal-cor")
      fail("Method", "must be moreau-jean or modal-cor, got '" + s.method + "'");
    s.theta      = section.in_range("Theta", 0.5, 1.0);
    s.gamma      = section.in_range("Gamma", 0.0, 1.0);
    s.time_step  = section.positive("Time step");
    s.final_time = section.positive("Final time");
    try
      {
        s.lcp_solver = contact::lcp_algorithm_from_string(section.text("LCP solver"));
      }
    catch (const std::invalid_argument &)
      {
        fail("LCP solver", "must be one of lemke, enum, pgs, got '" + section.text("LCP solver") + "'");
      }
    s.lcp_tolerance = section.positive("LCP tolerance");
    if (s.lcp_tolerance >= 1)
      fail("LCP tolerance", "must be below 1, got " + section.text("LCP tolerance"));
    s.energy_correction = section.flag("Energy correction");
    try
      {
        s.correction_direction = correction_direction_from_string(section.text("Correction direction"));
      }
    catch (const std::invalid_argument &)
      {
        fail("Correction direction", "must be one of non-contact, values, velocity, got '" +
                                       section.text("Correction direction") + "'");
      }
    s.output_every = section.count("Output every", 1);
    s.frames_every = section.count("Frames every", 0);
    return s;
  }
} // namespace vibroimpact::integrators
