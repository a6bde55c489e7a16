#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/structure/case_parameters.h>

#include <deal.II/base/parameter_handler.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

namespace vibroimpact::structure
{
  using dealii::ParameterHandler;
  using dealii::Patterns::Anything;
  using dealii::Patterns::Bool;
  using dealii::Patterns::Double;
  using dealii::Patterns::Integer;
  using dealii::Patterns::Selection;

  std::vector<std::string> case_families()
  {
    return {"Body", "Element", "Contact", "Probe", "Load"};
  }

  const BodyDescription *CaseDescription::find_body(const std::string &body_name) const
  {
    for (const auto &body : bodies)
      if (body.name == body_name)
        return &body;
    return nullptr;
  }

  namespace
  {
    using Section = io::ParameterSection;

    const std::map<std::string, BodyType> body_types{{"beam", BodyType::beam},
                                                      {"rod", BodyType::rod},
                                                      {"mass", BodyType::mass}};
    const std::map<std::string, EndCondition> beam_ends{{"free", EndCondition::free},
                                                        {"pinned", EndCondition::pinned},
                                                        {"clamped", EndCondition::clamped},
                                                        {"sliding", EndCondition::sliding}};
    const std::map<std::string, EndCondition> rod_ends{{"free", EndCondition::free},
                                                       {"fixed", EndCondition::clamped}};
    const std::map<std::string, ContactSide> sides{{"below", ContactSide::below},
                                                   {"above", ContactSide::above}};
    const std::map<std::string, ElementType> element_types{{"mass", ElementType::mass},
                                                           {"spring", ElementType::spring},
                                                           {"dashpot", ElementType::dashpot}};
    const std::map<std::string, LoadDistribution> distributions{{"uniform", LoadDistribution::uniform},
                                                                {"expression", LoadDistribution::expression},
                                                                {"point", LoadDistribution::point},
                                                                {"gravity", LoadDistribution::gravity}};
    const std::map<std::string, TimeDependence> time_dependences{{"constant", TimeDependence::constant},
                                                                 {"harmonic", TimeDependence::harmonic},
                                                                 {"random", TimeDependence::random}};
    const std::map<std::string, InitialStateType> initial_types{{"expressions", InitialStateType::expressions},
                                                                {"mode", InitialStateType::mode},
                                                                {"static", InitialStateType::static_load}};

    // Other body: "ground" (or empty) is the rigid ground.
    std::string other_body(const std::string &text)
    {
      return (text == "ground") ? "" : text;
    }

    void declare_point(ParameterHandler &prm, const std::string &what)
    {
      prm.declare_entry("Body", "", Anything(), "Name of the body " + what + " is on.");
      prm.declare_entry("Position", "0", Double(), "Coordinate x along that body (0 at its left end).");
    }

    void declare_other_point(ParameterHandler &prm)
    {
      prm.declare_entry("Other body", "ground", Anything(),
                        "The body at the other end, or 'ground' for a rigid support.");
      prm.declare_entry("Other position", "0", Double(), "Coordinate x along the other body.");
    }

    void declare_body(ParameterHandler &prm)
    {
      prm.declare_entry("Type", "beam", Selection("beam|rod|mass"),
                        "beam: Euler–Bernoulli, C1 Hermite elements (transverse deflection and "
                        "slope); rod: axial, FE_Q elements; mass: a rigid point mass (one DoF).");
      prm.declare_entry("Length", "1", Double(), "Length L (beam, rod).");
      prm.declare_entry("Bending stiffness", "1", Double(), "EI (beam).");
      prm.declare_entry("Axial stiffness", "1", Double(), "EA (rod).");
      prm.declare_entry("Mass per unit length", "1", Double(), "rho A (beam, rod).");
      prm.declare_entry("Mass", "1", Double(), "m (mass body).");
      prm.declare_entry("Number of elements", "16", Integer(), "Uniform mesh of this many elements (unless a mesh file is given).");
      prm.declare_entry("Mesh file", "", Anything(),
                        "A gmsh 1D mesh spanning [0, L] (e.g. graded near a contact); relative paths are "
                        "looked up next to the case file, then in the working directory.");
      prm.declare_entry("Global refinements", "0", Integer(), "Times the mesh is bisected after it is made or read.");
      prm.declare_entry("Element degree", "1", Integer(), "Polynomial degree of a rod's FE_Q elements: 1 or 2.");
      prm.declare_entry("Left end", "free", Anything(), "End condition at x = 0. Beam: free|pinned|clamped|sliding; rod: free|fixed.");
      prm.declare_entry("Right end", "free", Anything(), "End condition at x = L (same choices).");
      prm.declare_entry("Mass matrix", "consistent", Selection("consistent|lumped"),
                        "consistent, or lumped (beam: HRZ diagonal; rod: row sums).");
      prm.declare_entry("Origin", "0, 0, 0", Anything(), "Where x = 0 is drawn (output only).");
      prm.declare_entry("Axis", "1, 0, 0", Anything(), "Direction of increasing x in space; a rod moves along it (output only).");
      prm.declare_entry("Deflection direction", "0, 1, 0", Anything(),
                        "Direction of positive beam deflection or mass displacement (output only).");
      prm.declare_entry("Initial displacement", "0", Anything(),
                        "u0(x), a muparser expression of x (Initial state/Type = expressions).");
      prm.declare_entry("Initial velocity", "0", Anything(), "v0(x), a muparser expression of x.");
    }

    void declare_element(ParameterHandler &prm)
    {
      prm.declare_entry("Type", "spring", Selection("mass|spring|dashpot"),
                        "mass: a point mass added at Body/Position; spring, dashpot: between Body/Position "
                        "and Other body/Other position (or the ground).");
      declare_point(prm, "the element");
      declare_other_point(prm);
      prm.declare_entry("Value", "0", Double(), "m, k or c.");
    }

    void declare_contact(ParameterHandler &prm)
    {
      declare_point(prm, "the contact point");
      declare_other_point(prm);
      prm.declare_entry("Gap", "0", Double(), "Initial gap g0 (positive: open).");
      prm.declare_entry("Side", "below", Selection("below|above"),
                        "Where the obstacle (or the other body) lies: below: g = g0 + u - u_other; "
                        "above: g = g0 - u + u_other. A two-sided clearance is two contacts.");
      prm.declare_entry("Restitution", "1", Double(), "Newton's coefficient of restitution e in [0, 1].");
    }

    void declare_probe(ParameterHandler &prm)
    {
      declare_point(prm, "the probe");
    }

    void declare_load(ParameterHandler &prm)
    {
      prm.declare_entry("Distribution", "uniform", Selection("uniform|expression|point|gravity"),
                        "uniform: q per unit length on Body; expression: q(x) on Body; point: a force at "
                        "Body/Position; gravity: rho A g on every body (m g on masses), Amplitude = g.");
      declare_point(prm, "the load");
      prm.declare_entry("Expression", "1", Anything(), "q(x), multiplied by the time function (expression only).");
      prm.declare_entry("Time dependence", "harmonic", Selection("constant|harmonic|random"),
                        "constant: Amplitude; harmonic: Amplitude sin(omega t + phase); random: "
                        "band-limited, Amplitude is its RMS.");
      prm.declare_entry("Amplitude", "0", Double(), "F (or g, or the RMS of a random load).");
      prm.declare_entry("Angular frequency", "0", Double(), "omega in rad/s (harmonic).");
      prm.declare_entry("Phase", "0", Double(), "phi in rad (harmonic).");
      prm.declare_entry("Band low", "0", Double(), "Lowest angular frequency of a random load, rad/s.");
      prm.declare_entry("Band high", "0", Double(), "Highest angular frequency of a random load, rad/s.");
      prm.declare_entry("Number of harmonics", "64", Integer(), "Sinusoids that make up a random load.");
      prm.declare_entry("Seed", "1", Integer(), "Random seed (the same seed gives the same load).");
    }
  } // namespace

  void declare_case_parameters(io::ParameterFile &file)
  {
    ParameterHandler &prm = file.handler();
    prm.enter_subsection("Model");
    prm.declare_entry("Name", "case", Anything(), "A name for the case, used in output headers.");
    prm.leave_subsection();

    const std::vector<std::pair<std::string, void (*)(ParameterHandler &)>> families{
      {"Body", declare_body},
      {"Element", declare_element},
      {"Contact", declare_contact},
      {"Probe", declare_probe},
      {"Load", declare_load}};
    for (const auto &[family, declare] : families)
      for (const auto &name : file.instances(family))
        {
          prm.enter_subsection(family + " " + name);
          declare(prm);
          prm.leave_subsection();
        }

    prm.enter_subsection("Initial state");
    prm.declare_entry("Type", "expressions", Selection("expressions|mode|static"),
                      "expressions: each body's Initial displacement/velocity; mode: a mode shape whose "
                      "largest displacement is Amplitude; static: the static deflection under a point force.");
    prm.declare_entry("Mode", "1", Integer(), "Mode number, from 1 (Type = mode).");
    prm.declare_entry("Amplitude", "0", Double(), "Largest displacement of the mode shape (Type = mode).");
    prm.declare_entry("Load body", "", Anything(), "Body carrying the static point force (Type = static).");
    prm.declare_entry("Load position", "0", Double(), "Its coordinate x (Type = static).");
    prm.declare_entry("Force", "1", Double(), "The static point force (Type = static).");
    prm.declare_entry("Target displacement", "0", Double(),
                      "If not zero, the static shape is scaled so the loaded point moves this much.");
    prm.leave_subsection();

    prm.enter_subsection("Damping");
    prm.declare_entry("Rayleigh mass coefficient", "0", Double(), "alpha in C = alpha M + beta K.");
    prm.declare_entry("Rayleigh stiffness coefficient", "0", Double(), "beta in C = alpha M + beta K.");
    prm.declare_entry("Modal damping ratios", "", Anything(),
                      "zeta_1, zeta_2, ...; the last value applies to the remaining damped modes.");
    prm.declare_entry("Number of damped modes", "0", Integer(),
                      "Modes that receive modal damping (applied as a low-rank term).");
    prm.leave_subsection();

    prm.enter_subsection("Modes");
    prm.declare_entry("Number of modes", "5", Integer(), "Modes computed and written by `vibroimpact modes`.");
    prm.leave_subsection();

    prm.enter_subsection("Output");
    prm.declare_entry("Samples per element", "8", Integer(),
                      "Points per element where the drawn structure is sampled (with its own shape functions).");
    prm.leave_subsection();
  }

  namespace
  {
    PointOnBody read_point(const Section &s)
    {
      return PointOnBody{s.text("Body"), s.number("Position")};
    }
    PointOnBody read_other_point(const Section &s)
    {
      return PointOnBody{other_body(s.text("Other body")), s.number("Other position")};
    }

    BodyDescription read_body(io::ParameterFile &file, const std::string &name)
    {
      Section         s(file, "Body " + name);
      BodyDescription body;
      body.name = name;
      if (name == "ground")
        s.fail("Type", "'ground' is reserved for the rigid ground; choose another body name");
      body.type = s.choice("Type", body_types);
      if (body.type == BodyType::mass)
        {
          body.mass_per_length = s.positive("Mass");
          body.length          = 0.0;
        }
      else
        {
          body.length          = s.positive("Length");
          body.stiffness       = s.positive(body.type == BodyType::beam ? "Bending stiffness" : "Axial stiffness");
          body.mass_per_length = s.positive("Mass per unit length");
          body.n_elements      = s.count("Number of elements", 1);
          body.mesh_file       = s.text("Mesh file");
          body.refinements     = s.count("Global refinements", 0);
          if (body.refinements > 20)
            s.fail("Global refinements", "must be at most 20, got " + s.text("Global refinements"));
          const auto &ends = body.type == BodyType::beam ? beam_ends : rod_ends;
          body.left        = s.choice("Left end", ends);
          body.right       = s.choice("Right end", ends);
          if (body.type == BodyType::rod)
            {
              body.degree = s.count("Element degree", 1);
              if (body.degree > 2)
                s.fail("Element degree", "must be 1 or 2, got " + s.text("Element degree"));
            }
          body.lumped_mass = s.text("Mass matrix") == "lumped";
        }
      body.origin     = s.vector3("Origin");
      body.axis       = s.vector3("Axis");
      body.deflection = s.vector3("Deflection direction");
      body.initial_displacement = s.text("Initial displacement");
      body.initial_velocity     = s.text("Initial velocity");
      return body;
    }
  } // namespace

  CaseDescription parse_case_parameters(io::ParameterFile &file)
  {
    ParameterHandler &prm = file.handler();
    CaseDescription   description;
    description.filename = file.filename();
    prm.enter_subsection("Model");
    description.name = prm.get("Name");
    prm.leave_subsection();

    for (const auto &name : file.instances("Body"))
      description.bodies.push_back(read_body(file, name));
    if (description.bodies.empty())
      file.fail("Body <name>", "the case has no body (add 'subsection Body <name>')");

    for (const auto &name : file.instances("Element"))
      {
        Section            s(file, "Element " + name);
        ElementDescription element;
        element.name  = name;
        element.type  = s.choice("Type", element_types);
        element.point = read_point(s);
        element.other = read_other_point(s);
        element.value = element.type == ElementType::mass ? s.positive("Value") : s.non_negative("Value");
        description.elements.push_back(element);
      }

    for (const auto &name : file.instances("Contact"))
      {
        Section            s(file, "Contact " + name);
        ContactDescription contact;
        contact.name        = name;
        contact.point       = read_point(s);
        contact.other       = read_other_point(s);
        contact.gap         = s.number("Gap");
        contact.side        = s.choice("Side", sides);
        contact.restitution = s.in_range("Restitution", 0.0, 1.0);
        description.contacts.push_back(contact);
      }

    for (const auto &name : file.instances("Probe"))
      {
        Section s(file, "Probe " + name);
        description.probes.push_back(ProbeDescription{name, read_point(s)});
      }

    for (const auto &name : file.instances("Load"))
      {
        Section         s(file, "Load " + name);
        LoadDescription load;
        load.name         = name;
        load.distribution = s.choice("Distribution", distributions);
        load.point        = read_point(s);
        load.expression   = s.text("Expression");
        load.time         = s.choice("Time dependence", time_dependences);
        load.amplitude    = s.number("Amplitude");
        load.omega        = s.non_negative("Angular frequency");
        load.phase        = s.number("Phase");
        if (load.time == TimeDependence::random)
          {
            load.band_low    = s.non_negative("Band low");
            load.band_high   = s.positive("Band high");
            if (load.band_high <= load.band_low)
              s.fail("Band high", "must exceed Band low");
            load.n_harmonics = s.count("Number of harmonics", 2);
            load.seed        = s.count("Seed", 0);
            if (load.amplitude < 0)
              s.fail("Amplitude", "the RMS of a random load must not be negative");
          }
        description.loads.push_back(load);
      }

    {
      Section                  s(file, "Initial state");
      InitialStateDescription &initial = description.initial_state;
      initial.type                     = s.choice("Type", initial_types);
      initial.mode                     = s.count("Mode", 1);
      initial.amplitude                = s.number("Amplitude");
      initial.load_point               = PointOnBody{s.text("Load body"), s.number("Load position")};
      initial.force                    = s.number("Force");
      initial.target_displacement      = s.number("Target displacement");
      if (initial.type == InitialStateType::static_load && initial.force == 0)
        s.fail("Force", "a static initial state needs a non-zero force");
    }

    {
      Section             s(file, "Damping");
      DampingDescription &damping = description.damping;
      damping.rayleigh_mass       = s.non_negative("Rayleigh mass coefficient");
      damping.rayleigh_stiffness  = s.non_negative("Rayleigh stiffness coefficient");
      for (const auto &item : io::split_list(s.text("Modal damping ratios")))
        {
          double zeta = -1;
          try
            {
              zeta = std::stod(item);
            }
          catch (const std::exception &)
            {}
          if (!(zeta >= 0 && zeta < 1))
            s.fail("Modal damping ratios", "each ratio must lie in [0, 1), got '" + item + "'");
          damping.modal_ratios.push_back(zeta);
        }
      damping.n_damped_modes = s.count("Number of damped modes", 0);
      if (damping.n_damped_modes > 0 && damping.modal_ratios.empty())
        s.fail("Modal damping ratios", "give at least one ratio for the damped modes");
    }

    {
      Section s(file, "Modes");
      description.n_modes = s.count("Number of modes", 1);
    }
    {
      Section s(file, "Output");
      description.samples_per_element = s.count("Samples per element", 1);
    }
    return description;
  }
} // namespace vibroimpact::structure
