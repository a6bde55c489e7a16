#include <vibroimpact/integrators/integrator_parameters.h>
#include <vibroimpact/io/parameter_file.h>

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
                      "Time integrator: moreau-jean (θ-method with Newton impacts, LCP by Siconos).");
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

  namespace
  {
    std::string text(const double value)
    {
      std::ostringstream s;
      s << value;
      return s.str();
    }
  } // namespace

  IntegratorSettings parse_integrator_parameters(io::ParameterFile &file)
  {
    auto &prm = file.handler();
    prm.enter_subsection("Integrator");
    // Leave the subsection before failing: fail() throws.
    struct Leave
    {
      dealii::ParameterHandler &prm;
      ~Leave() { prm.leave_subsection(); }
    } leave{prm};

    IntegratorSettings s;
    const auto fail = [&](const std::string &entry, const std::string &reason) {
      file.fail("Integrator/" + entry, reason);
    };
    const auto number = [&](const std::string &entry) {
      const double value = prm.get_double(entry);
      if (!std::isfinite(value))
        fail(entry, "must be a finite number, got " + prm.get(entry));
      return value;
    };

    s.method = io::trim(prm.get("Method"));
    if (s.method != "moreau-jean")
      fail("Method", "must be moreau-jean, got '" + s.method + "'");
    s.theta = number("Theta");
    if (!(s.theta >= 0.5 && s.theta <= 1.0))
      fail("Theta", "must lie in [0.5, 1], got " + text(s.theta));
    s.gamma = number("Gamma");
    if (!(s.gamma >= 0.0 && s.gamma <= 1.0))
      fail("Gamma", "must lie in [0, 1], got " + text(s.gamma));
    s.time_step = number("Time step");
    if (!(s.time_step > 0))
      fail("Time step", "must be positive, got " + text(s.time_step));
    s.final_time = number("Final time");
    if (!(s.final_time > 0))
      fail("Final time", "must be positive, got " + text(s.final_time));
    try
      {
        s.lcp_solver = contact::lcp_algorithm_from_string(io::trim(prm.get("LCP solver")));
      }
    catch (const std::invalid_argument &)
      {
        fail("LCP solver", "must be one of lemke, enum, pgs, got '" + io::trim(prm.get("LCP solver")) + "'");
      }
    s.lcp_tolerance = number("LCP tolerance");
    if (!(s.lcp_tolerance > 0 && s.lcp_tolerance < 1))
      fail("LCP tolerance", "must lie in (0, 1), got " + text(s.lcp_tolerance));
    s.energy_correction = prm.get_bool("Energy correction");
    try
      {
        s.correction_direction = correction_direction_from_string(io::trim(prm.get("Correction direction")));
      }
    catch (const std::invalid_argument &)
      {
        fail("Correction direction", "must be one of non-contact, values, velocity, got '" +
                                       io::trim(prm.get("Correction direction")) + "'");
      }
    const long output_every = prm.get_integer("Output every");
    if (output_every < 1)
      fail("Output every", "must be at least 1, got " + std::to_string(output_every));
    s.output_every = static_cast<unsigned int>(output_every);
    const long frames_every = prm.get_integer("Frames every");
    if (frames_every < 0)
      fail("Frames every", "must not be negative, got " + std::to_string(frames_every));
    s.frames_every = static_cast<unsigned int>(frames_every);
    return s;
  }
} // namespace vibroimpact::integrators
