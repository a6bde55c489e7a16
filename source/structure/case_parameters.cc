// The case's parameters: every section of a case file declared in deal.II's ParameterHandler,
// read back into a CaseDescription and checked (one-line io::InputErrors).
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/structure/body.h>
#include <vibroimpact/structure/case_parameters.h>


#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

namespace vibroimpact::structure
{
  std::vector<std::string> case_families()
  {
    return {"Body", "Element", "Contact", "Support", "Supports", "Probe", "Load", "Loads"};
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
    using io::Choices;
    using io::ParameterSection;
    constexpr unsigned int unbounded = std::numeric_limits<unsigned int>::max();

    const Choices<EndCondition>     beam_ends{{"free", EndCondition::free},
                                          {"pinned", EndCondition::pinned},
                                          {"clamped", EndCondition::clamped},
                                          {"sliding", EndCondition::sliding}};
    const Choices<EndCondition>     rod_ends{{"free", EndCondition::free}, {"fixed", EndCondition::clamped}};
    const Choices<ContactSide>      sides{{"below", ContactSide::below}, {"above", ContactSide::above}};
    const Choices<ElementType>      element_types{{"mass", ElementType::mass},
                                             {"spring", ElementType::spring},
                                             {"dashpot", ElementType::dashpot}};
    const Choices<LoadDistribution> distributions{{"uniform", LoadDistribution::uniform},
                                                  {"expression", LoadDistribution::expression},
                                                  {"point", LoadDistribution::point},
                                                  {"gravity", LoadDistribution::gravity}};
    const Choices<TimeDependence>   time_dependences{{"constant", TimeDependence::constant},
                                                   {"harmonic", TimeDependence::harmonic},
                                                   {"random", TimeDependence::random}};
    const Choices<InitialStateType> initial_types{{"expressions", InitialStateType::expressions},
                                                  {"mode", InitialStateType::mode},
                                                  {"static", InitialStateType::static_load}};

    // The registered body kinds (structure/body.h) as the Type entry's choices and its text.
    Choices<BodyType> body_types()
    {
      Choices<BodyType> choices;
      for (const BodyKind *kind : BodyKindRegistry::kinds())
        choices.emplace_back(kind->name, BodyType(kind->name));
      return choices;
    }

    std::string body_type_documentation()
    {
      std::string text;
      for (const BodyKind *kind : BodyKindRegistry::kinds())
        text += (text.empty() ? "" : "; ") + kind->documentation;
      return text + ".";
    }

    void bind_point(ParameterSection &s, PointOnBody &point, const std::string &what)
    {
      s.add("Body", point.body, "Name of the body " + what + " is on.");
      s.add("Position", point.x, io::finite(), "Coordinate x along that body (0 at its left end).");
    }

    // "ground" (or empty) is the rigid ground.
    void bind_other_point(ParameterSection &s, PointOnBody &other)
    {
      std::string body = other.is_ground() ? "ground" : other.body;
      s.add("Other body", body, "The body at the other end, or 'ground' for a rigid support.");
      s.add("Other position", other.x, io::finite(), "Coordinate x along the other body.");
      other.body = body == "ground" ? "" : body;
    }

    // One end condition among `ends`; `kind` names what it holds in the message.
    void bind_end_among(ParameterSection &s, const std::string &entry, EndCondition &end,
                        const Choices<EndCondition> &ends, const std::string &kind, const std::string &doc)
    {
      std::string name = "free";
      s.add(entry, name, doc);
      if (!s.reading())
        return;
      std::string names;
      for (const auto &[n, condition] : ends)
        {
          names += (names.empty() ? "" : "|") + n;
          if (n == name)
            {
              end = condition;
              return;
            }
        }
      s.fail(entry, "must be one of " + names + " for a " + kind + ", got '" + name + "'");
    }

    // One end condition, whose names depend on the body type (a tube's bending: a beam's).
    void bind_end(ParameterSection &s, const std::string &entry, EndCondition &end, const BodyType type,
                  const std::string &doc)
    {
      const auto &kind = BodyKindRegistry::find(type);
      if (kind.traits.point)
        {
          std::string ignored = "free";
          s.add(entry, ignored, doc);
          return;
        }
      bind_end_among(s, entry, end, kind.traits.bending ? beam_ends : rod_ends, kind.name, doc);
    }

    // Mass matrix and Lumped fraction into BodyDescription::lumped_fraction.
    void bind_mass_matrix(ParameterSection &s, BodyDescription &body)
    {
      enum class MassMatrix
      {
        consistent,
        lumped,
        blended
      };
      MassMatrix kind     = body.lumped_fraction == 1.0 ? MassMatrix::lumped : MassMatrix::consistent;
      double     fraction = 0.5;
      s.add("Mass matrix", kind,
            Choices<MassMatrix>{{"consistent", MassMatrix::consistent},
                                {"lumped", MassMatrix::lumped},
                                {"blended", MassMatrix::blended}},
            "consistent, lumped (beam: HRZ diagonal; rod: row sums), or blended (rod only: (1 - f) consistent + f "
            "lumped, f = Lumped fraction).");
      s.add("Lumped fraction", fraction, io::in_range(0, 1),
            "f of a blended mass matrix. 1/2 for linear and 2/3 for quadratic elements cancel the leading "
            "dispersion error: the frequency error falls as h^4 and h^6 (Ainsworth & Wajid 2010).");
      if (!s.reading())
        return;
      if (kind == MassMatrix::blended && !kind_traits(body.type).blended_mass)
        s.fail("Mass matrix", "blended is for rods only (a " + std::string(body.type.name()) +
                                " takes consistent or lumped)");
      body.lumped_fraction = kind == MassMatrix::consistent ? 0.0 : kind == MassMatrix::lumped ? 1.0 : fraction;
    }

    void bind_body(ParameterSection &s, BodyDescription &body, const std::string &name)
    {
      body.name = name;
      s.add("Type", body.type, body_types(), body_type_documentation());
      if (s.reading() && name == "ground")
        s.fail("Type", "'ground' is reserved for the rigid ground; choose another body name");
      double length = 1, bending = 1, axial = 1, rho_a = 1, mass = 1;
      s.add("Length", length, io::positive(), "Length L (beam, rod).");
      s.add("Bending stiffness", bending, io::positive(), "EI (beam; tube, in both planes).");
      s.add("Axial stiffness", axial, io::positive(), "EA (rod; tube with an axial field).");
      s.add("Mass per unit length", rho_a, io::positive(), "rho A (beam, rod, tube).");
      s.add("Mass", mass, io::positive(), "m (mass body).");
      s.add("Number of elements", body.n_elements, 1, unbounded,
            "Uniform mesh of this many elements (unless a mesh file is given).");
      s.add("Mesh file", body.mesh_file,
            "A gmsh 1D mesh spanning [0, L] (e.g. graded near a contact); relative paths are looked up next to the "
            "case file, then in the working directory.");
      s.add("Global refinements", body.refinements, 0, 20, "Times the mesh is bisected after it is made or read.");
      s.add("Element degree", body.degree, 1, 2, "Polynomial degree of the FE_Q elements of a rod (a timoshenko beam's fields; a tube's axial and torsion fields): 1 or 2.");
      bind_end(s, "Left end", body.left, body.type,
               "End condition at x = 0. Beam and tube (both planes): free|pinned|clamped|sliding; rod: free|fixed.");
      bind_end(s, "Right end", body.right, body.type, "End condition at x = L (same choices).");
      bind_mass_matrix(s, body);
      s.add("Origin", body.origin, "Where x = 0 is drawn (output only).");
      s.add("Axis", body.axis, "Direction of increasing x in space; a rod moves along it (output only).");
      s.add("Deflection direction", body.deflection,
            "Direction of positive beam deflection or mass displacement (output only).");
      if (s.reading())
        for (const auto &[entry, direction] : {std::pair<const char *, const std::array<double, 3> *>{"Axis", &body.axis},
                                               {"Deflection direction", &body.deflection}})
          if ((*direction)[0] == 0 && (*direction)[1] == 0 && (*direction)[2] == 0)
            s.fail(entry, "must not be the zero vector (it gives the body a direction in space)");
      s.add("Initial displacement", body.initial_displacement,
            "u0(x), a muparser expression of x (Initial state/Type = expressions); a tube's along e1.");
      s.add("Initial velocity", body.initial_velocity, "v0(x), a muparser expression of x; a tube's along e1.");
      body.axial_stiffness = axial;
      for (const BodyKind *other : BodyKindRegistry::kinds())
        if (other->bind_entries)
          other->bind_entries(s, body);
      const auto &kind = kind_traits(body.type);
      if (kind.point)
        {
          body.mass_per_length = mass;
          body.length          = 0.0;
          return;
        }
      body.length          = length;
      body.stiffness       = kind.bending ? bending : axial;
      body.mass_per_length = rho_a;
    }

    void bind_element(ParameterSection &s, ElementDescription &element, const std::string &name)
    {
      element.name = name;
      s.add("Type", element.type, element_types,
            "mass: a point mass added at Body/Position; spring, dashpot: between Body/Position and Other "
            "body/Other position (or the ground).");
      bind_point(s, element.point, "the element");
      bind_other_point(s, element.other);
      s.add("Value", element.value, io::non_negative(), "m, k or c.");
      if (s.reading() && element.type == ElementType::mass && !(element.value > 0))
        s.fail("Value", "must be positive, got 0");
    }

    void bind_contact(ParameterSection &s, ContactDescription &contact, const std::string &name)
    {
      contact.name = name;
      bind_point(s, contact.point, "the contact point");
      bind_other_point(s, contact.other);
      s.add("Gap", contact.gap, io::finite(), "Initial gap g0 (positive: open).");
      s.add("Side", contact.side, sides,
            "Where the obstacle (or the other body) lies: below: g = g0 + u - u_other; above: g = g0 - u + "
            "u_other. A two-sided clearance is two contacts.");
      s.add("Restitution", contact.restitution, io::in_range(0, 1), "Newton's coefficient of restitution e in [0, 1].");
      s.add("Stiffness", contact.stiffness, io::non_negative(),
            "k >= 0: 0 is a rigid stop (Signorini and Newton's law with Restitution); k > 0 an elastic obstacle, a "
            "massless unilateral spring pushing back with k (-g) while g < 0 (no impact law: Restitution is "
            "ignored). Taken by moreau-jean (implicitly), modal-penalty (linear law) and the event-driven and "
            "Moreau-Jean period maps.");
      if (s.reading() && contact.stiffness > 0 && contact.restitution != 1.0)
        s.fail("Restitution", "an elastic contact (Stiffness > 0) has no impact law: leave Restitution at 1");
    }

    const Choices<SupportShape> support_shapes{{"stops", SupportShape::stops},
                                               {"annular", SupportShape::annular},
                                               {"flat bar", SupportShape::flat_bar},
                                               {"polygonal", SupportShape::polygonal}};
    const Choices<BodyField>    probe_fields{{"e1", BodyField::primary},
                                          {"e2", BodyField::second_deflection},
                                          {"axial", BodyField::axial},
                                          {"twist", BodyField::twist}};

    // The corner of two sides' lines ν_a · r = d_a and ν_b · r = d_b (their normals less than a
    // half turn apart, so that they cross).
    std::array<double, 2> corner(const double angle_a, const double d_a, const double angle_b, const double d_b)
    {
      const double ca = std::cos(angle_a), sa = std::sin(angle_a), cb = std::cos(angle_b), sb = std::sin(angle_b);
      const double det = ca * sb - sa * cb;
      return {{(d_a * sb - d_b * sa) / det, (ca * d_b - cb * d_a) / det}};
    }

    // A polygon's sides, listed counterclockwise by their outward normals: closed (at least three,
    // each less than a half turn from the next, so that the tube cannot leave) and convex (each
    // side runs forward from the corner with its predecessor to the corner with its successor:
    // a side beyond its neighbours' corner would make the listed contour fold back).
    void check_polygon(ParameterSection &s, const SupportDescription &support)
    {
      const auto        &angles = support.side_angles;
      const std::size_t  n      = angles.size();
      if (n < 3)
        s.fail("Side angles", "a polygon needs at least 3 sides, got " + std::to_string(n) + ": it is not closed");
      if (!support.side_distances.empty() && support.side_distances.size() != n)
        s.fail("Side distances", "has " + std::to_string(support.side_distances.size()) + " values for " +
                                   std::to_string(n) + " Side angles: give one per side, or none (Clearance each)");
      for (std::size_t k = 0; k < n; ++k)
        {
          const double gap = k + 1 < n ? angles[k + 1] - angles[k] : angles[0] + 360 - angles[k];
          if (!(gap > 0))
            s.fail("Side angles", "must increase counterclockwise, within one turn (item " + std::to_string(k + 1) + ")");
          if (gap >= 180)
            s.fail("Side angles", "sides " + std::to_string(k + 1) + " and " + std::to_string((k + 1) % n + 1) +
                                    " are 180 degrees or more apart: the polygon is not closed");
        }
      const auto distance = [&](std::size_t k) {
        return support.side_distances.empty() ? support.clearance : support.side_distances[k % n];
      };
      const auto radians = [&](std::size_t k) { return angles[k % n] * M_PI / 180; };
      for (std::size_t k = 0; k < n; ++k)
        {
          const auto from = corner(radians(k + n - 1), distance(k + n - 1), radians(k), distance(k));
          const auto to   = corner(radians(k), distance(k), radians(k + 1), distance(k + 1));
          const double length = (to[0] - from[0]) * -std::sin(radians(k)) + (to[1] - from[1]) * std::cos(radians(k));
          if (!(length > 1e-12 * distance(k)))
            s.fail("Side distances", "side " + std::to_string(k + 1) + " lies beyond the corner of its neighbours: the "
                                       "polygon is not convex");
        }
    }

    // A support in space (Shape other than stops): its geometry, friction, preload direction and
    // the wear inputs of its statistics.
    void bind_support_in_space(ParameterSection &s, SupportDescription &support)
    {
      s.add("Shape", support.shape, support_shapes,
            "stops: two stops in the plane of a beam (Lower gap, Upper gap); annular: a circular hole of radial "
            "Clearance around a tube; flat bar: two parallel bars at Clearance either side (their normal at "
            "Orientation); polygonal: straight sides (Side angles, Side distances), e.g. a trefoil (0, 120, 240).");
      s.add("Clearance", support.clearance, io::positive(),
            "Annular: radial clearance; flat bar: from the centre to each bar; polygonal: to each side unless Side "
            "distances are given.");
      std::vector<double> centre{support.centre[0], support.centre[1]};
      s.add("Centre offset", centre, io::finite(), "c1, c2: the support's centre (eccentricity) in the tube's (e1, e2).");
      s.add("Orientation", support.orientation, io::finite(),
            "Degrees from e1 towards e2 that turn a flat bar's normal or every side's normal of a polygon.");
      s.add("Side angles", support.side_angles, io::finite(),
            "Polygonal: the outward normal of each side, degrees from e1 towards e2, counterclockwise (a closed, "
            "convex contour).");
      s.add("Side distances", support.side_distances, io::positive(),
            "Polygonal: from the centre to each side, one per side; empty: Clearance for every side.");
      s.add("Friction coefficient", support.friction, io::non_negative(),
            "Coulomb mu of a support in space (circumferential and axial sliding).");
      s.add("Preload angle", support.preload_angle, io::finite(),
            "Direction of a support in space's Preload, degrees from e1 towards e2.");
      double sectors = support.wear_sectors;
      s.add("Wear sectors", sectors, io::finite(), "Equal angular sectors of the support's wear statistics (whole, >= 1).");
      s.add("Tube wear coefficient", support.tube_wear_coefficient, io::non_negative(),
            "Archard coefficient of the tube (volume per unit normal force and sliding distance).");
      s.add("Support wear coefficient", support.support_wear_coefficient, io::non_negative(),
            "Archard coefficient of the support.");
      s.add("Support thickness", support.thickness, io::positive(),
            "Axial width of the support plate (m), over which a sector's worn volume is spread for its wear depth.");
      if (!s.reading())
        return;
      if (centre.size() != 2)
        s.fail("Centre offset", "needs two components c1, c2, got " + std::to_string(centre.size()));
      support.centre = {{centre[0], centre[1]}};
      if (!(sectors >= 1) || sectors != std::floor(sectors) || sectors > 1e6)
        {
          std::ostringstream given;
          given << sectors;
          s.fail("Wear sectors", given.str() + " sectors do not divide the circle into equal sectors: give a whole "
                                               "number >= 1");
        }
      support.wear_sectors = static_cast<unsigned int>(sectors);
      if (support.shape == SupportShape::stops && support.friction > 0)
        s.fail("Friction coefficient", "friction acts on a support in space (Shape = annular, flat bar or polygonal) "
                                       "holding a tube, not on planar stops");
      if (support.shape == SupportShape::polygonal)
        check_polygon(s, support);
    }

    // Everything of a support but where it is (shared by a Support section and a Supports family).
    void bind_support_stops(ParameterSection &s, SupportDescription &support)
    {
      bind_support_in_space(s, support);
      s.add("Lower gap", support.lower_gap, io::finite(),
            "delta-: where the lower stop is, from the beam's rest position (negative, e.g. -1e-3).");
      s.add("Upper gap", support.upper_gap, io::finite(), "delta+: where the upper stop is (positive).");
      s.add("Type", support.flexible, Choices<bool>{{"rigid", false}, {"flexible", true}},
            "rigid: stops on the ground; flexible: each stop an oscillator (Stop mass on Stop stiffness and Stop "
            "damping to the ground), a body of the model (a support in space: a ring of Stop mass on such a spring "
            "and dashpot along e1 and along e2).");
      s.add("Stop mass", support.stop_mass, io::positive(), "m_c of each stop (flexible; the paper: 0.01 kg).");
      s.add("Stop damping", support.stop_damping, io::non_negative(), "c_c of each stop (flexible; the paper: 1 N s/m).");
      s.add("Stop stiffness", support.stop_stiffness, io::positive(),
            "k_c of each stop (flexible; the paper: 1e5 N/m).");
      s.add("Preload", support.preload, io::finite(),
            "A constant force on the beam at the support, along its positive deflection (the paper: 50 N).");
      s.add("Restitution", support.restitution, io::in_range(0, 1),
            "Newton's e of both stops for the impact-law solvers (Moreau-Jean, modal CoR); the modal U-K impacts "
            "are e = 0, the penalty's follow from its damping.");
      if (!s.reading())
        return;
      if (support.lower_gap > 0)
        s.fail("Lower gap", "must not be positive (the lower stop lies below the rest position)");
      if (support.upper_gap < 0)
        s.fail("Upper gap", "must not be negative (the upper stop lies above the rest position)");
      if (!(support.lower_gap < support.upper_gap))
        s.fail("Upper gap", "must exceed Lower gap (delta- < delta+)");
    }

    void bind_support(ParameterSection &s, SupportDescription &support, const std::string &name)
    {
      support.name = name;
      bind_point(s, support.point, "the supported point");
      bind_support_stops(s, support);
    }

    // A load's time function (shared by a Load section and a Loads family); its seed is bound
    // by the caller (one value, or a list).
    void bind_load_time(ParameterSection &s, LoadDescription &load)
    {
      s.add("Time dependence", load.time, time_dependences,
            "constant: Amplitude; harmonic: Amplitude sin(omega t + phase); random: band-limited, Amplitude is "
            "its RMS.");
      s.add("Amplitude", load.amplitude, io::finite(), "F (or g, or the RMS of a random load).");
      s.add("Angular frequency", load.omega, io::non_negative(), "omega in rad/s (harmonic).");
      s.add("Phase", load.phase, io::finite(), "phi in rad (harmonic).");
      s.add("Band low", load.band_low, io::non_negative(), "Lowest angular frequency of a random load, rad/s.");
      s.add("Band high", load.band_high, io::non_negative(), "Highest angular frequency of a random load, rad/s.");
      s.add("Number of harmonics", load.n_harmonics, 2, unbounded, "Sinusoids that make up a random load.");
    }

    void check_load_time(ParameterSection &s, const LoadDescription &load)
    {
      if (s.reading() && load.time == TimeDependence::harmonic && !(load.omega > 0))
        s.fail("Angular frequency", "a harmonic load needs a positive angular frequency, got 0 (for a constant load "
                                    "set Time dependence = constant)");
      if (!s.reading() || load.time != TimeDependence::random)
        return;
      if (!(load.band_high > 0))
        s.fail("Band high", "must be positive, got 0");
      if (load.band_high <= load.band_low)
        s.fail("Band high", "must exceed Band low");
      if (load.amplitude < 0)
        s.fail("Amplitude", "the RMS of a random load must not be negative");
    }

    void bind_load(ParameterSection &s, LoadDescription &load, const std::string &name)
    {
      load.name = name;
      s.add("Distribution", load.distribution, distributions,
            "uniform: q per unit length on Body; expression: q(x) on Body; point: a force at Body/Position; "
            "gravity: rho A g on every body (m g on masses), Amplitude = g.");
      bind_point(s, load.point, "the load");
      s.add("Angle", load.angle, io::finite(),
            "A tube's load (point, uniform, expression): its direction in the tube's plane, degrees from e1 towards e2 "
            "(0: along e1; 90: along e2).");
      s.add("Expression", load.expression, "q(x), multiplied by the time function (expression only).");
      bind_load_time(s, load);
      unsigned int seed = static_cast<unsigned int>(load.seed);
      s.add("Seed", seed, 0, unbounded, "Random seed (the same seed gives the same load).");
      load.seed = seed;
      if (s.reading() && load.distribution == LoadDistribution::gravity && load.angle != 0)
        s.fail("Angle", "gravity acts along every body's e1 (its Deflection direction): leave the angle 0");
      check_load_time(s, load);
    }

    // Repeated supports and loads declared once: `subsection Supports s` with Positions = x1, x2, ...
    // stands for sections Support s1, Support s2, ... that differ only in where they are (Loads:
    // and in their seeds). Member k is named after the family and k + 1, padded to the width of
    // the count ("f01" ... "f18"), so that a family reads exactly like the sections it replaces.
    std::string member_name(const std::string &family, const std::size_t k, const std::size_t n)
    {
      const std::string index = std::to_string(k + 1), widest = std::to_string(n);
      return family + std::string(widest.size() - index.size(), '0') + index;
    }

    // A family's body and positions: at least one, each on that body. Checked here, not where the
    // members are used, so that the message names the family's entry rather than a member's.
    void bind_positions(ParameterSection &s, const CaseDescription &description, PointOnBody &point,
                        std::vector<double> &positions, const std::string &what)
    {
      s.add("Body", point.body, "Name of the body " + what + " are on.");
      s.add("Positions", positions, io::finite(),
            "Coordinates x along that body (0 at its left end), one member each: x1, x2, ...");
      if (!s.reading())
        return;
      if (positions.empty())
        s.fail("Positions", "the list is empty: give at least one position");
      const BodyDescription *body = description.find_body(point.body);
      if (body == nullptr)
        s.fail("Body", point.body.empty() ? "no body given" : "there is no body named '" + point.body + "'");
      for (std::size_t k = 0; k < positions.size(); ++k)
        if (!(positions[k] >= 0 && positions[k] <= body->length))
          s.fail("Positions", "item " + std::to_string(k + 1) + ", x = " + std::to_string(positions[k]) +
                                ", lies outside body '" + body->name + "' [0, " + std::to_string(body->length) + "]");
    }

    void bind_support_family(ParameterSection &s, const CaseDescription &description, const std::string &name,
                             std::vector<SupportDescription> &members)
    {
      SupportDescription  support;
      std::vector<double> positions;
      bind_positions(s, description, support.point, positions, "the supported points");
      if (s.reading() && !kind_traits(description.find_body(support.point.body)->type).bending)
        s.fail("Body", "body '" + support.point.body + "' is not a beam or a tube: a clearance support holds one");
      bind_support_stops(s, support);
      if (s.reading() && support.shape != SupportShape::stops &&
          !kind_traits(description.find_body(support.point.body)->type).in_space)
        s.fail("Shape", "body '" + support.point.body + "' is a planar beam: a support in space (annular, flat bar, "
                                                         "polygonal) holds a tube (Type = tube); a planar beam takes "
                                                         "Shape = stops");
      for (std::size_t k = 0; k < positions.size(); ++k)
        {
          support.name    = member_name(name, k, positions.size());
          support.point.x = positions[k];
          members.push_back(support);
        }
    }

    // Point forces with one time function; a random family has a seed per position.
    void bind_load_family(ParameterSection &s, const CaseDescription &description, const std::string &name,
                          std::vector<LoadDescription> &members)
    {
      LoadDescription load;
      load.distribution = LoadDistribution::point;
      std::vector<double> positions, seeds;
      bind_positions(s, description, load.point, positions, "the point forces");
      s.add("Angle", load.angle, io::finite(),
            "A tube's load (point, uniform, expression): its direction in the tube's plane, degrees from e1 towards e2 "
            "(0: along e1; 90: along e2).");
      bind_load_time(s, load);
      s.add("Seeds", seeds, io::in_range(0, std::numeric_limits<unsigned int>::max()),
            "Random seeds, one per position (random; the same seed gives the same load); empty: every member 1.");
      check_load_time(s, load);
      if (!s.reading())
        return;
      if ((load.time == TimeDependence::random || !seeds.empty()) && seeds.size() != positions.size())
        s.fail("Seeds", "has " + std::to_string(seeds.size()) + " values for " + std::to_string(positions.size()) +
                          " Positions: give one seed per position");
      for (std::size_t k = 0; k < seeds.size(); ++k)
        if (seeds[k] != std::floor(seeds[k]))
          s.fail("Seeds", "item " + std::to_string(k + 1) + " is not a whole number");
      for (std::size_t k = 0; k < positions.size(); ++k)
        {
          load.name    = member_name(name, k, positions.size());
          load.point.x = positions[k];
          if (!seeds.empty())
            load.seed = static_cast<std::uint64_t>(seeds[k]);
          members.push_back(load);
        }
    }

    // The members of every instance of a list family, appended after the separate sections; a
    // member may not take a section's name (its outputs would be indistinguishable).
    template <typename Description, typename Bind>
    void bind_list_family(io::ParameterFile &file, const std::string &family, std::vector<Description> &items,
                          Bind bind)
    {
      for (const auto &name : file.instances(family))
        file.section(family + " " + name, [&](ParameterSection &s) {
          std::vector<Description> members;
          bind(s, members, name);
          for (auto &member : members)
            {
              for (const auto &item : items)
                if (item.name == member.name)
                  s.fail("Positions", "its member '" + member.name + "' has the name of another " +
                                        family.substr(0, family.size() - 1) + ": rename the family");
              items.push_back(std::move(member));
            }
        });
    }

    // One family: the vector gets one element per instance the file names.
    template <typename Description, typename Bind>
    void bind_family(io::ParameterFile &file, const std::string &family, std::vector<Description> &items, Bind bind)
    {
      const auto &names = file.instances(family);
      items.resize(names.size());
      for (std::size_t i = 0; i < names.size(); ++i)
        file.section(family + " " + names[i], [&](ParameterSection &s) { bind(s, items[i], names[i]); });
    }
  } // namespace

  void bind_end_condition(io::ParameterSection &s, const std::string &entry, EndCondition &end, const bool bending,
                          const std::string &what, const std::string &doc)
  {
    bind_end_among(s, entry, end, bending ? beam_ends : rod_ends, what, doc);
  }

  void bind_case_parameters(io::ParameterFile &file, CaseDescription &description)
  {
    description.filename = file.filename();
    file.section("Model", [&](ParameterSection &s) {
      s.add("Name", description.name, "A name for the case, used in output headers and as the output folder.");
    });
    bind_family(file, "Body", description.bodies, bind_body);
    if (file.parsed() && description.bodies.empty())
      file.fail("Body <name>", "the case has no body (add 'subsection Body <name>')");
    bind_family(file, "Element", description.elements, bind_element);
    bind_family(file, "Contact", description.contacts, bind_contact);
    bind_family(file, "Support", description.supports, bind_support);
    bind_list_family(file, "Supports", description.supports,
                     [&](ParameterSection &s, std::vector<SupportDescription> &members, const std::string &name) {
                       bind_support_family(s, description, name, members);
                     });
    bind_family(file, "Probe", description.probes,
                [](ParameterSection &s, ProbeDescription &probe, const std::string &name) {
                  probe.name = name;
                  bind_point(s, probe.point, "the probe");
                  s.add("Field", probe.field, probe_fields,
                        "What it reads: e1, the body's own displacement (a beam's or tube's deflection along its "
                        "Deflection direction, a rod's axial one, a mass's); e2, a tube's deflection along Axis x "
                        "Deflection direction; axial, twist: a tube's, where it has those fields.");
                });
    bind_family(file, "Load", description.loads, bind_load);
    bind_list_family(file, "Loads", description.loads,
                     [&](ParameterSection &s, std::vector<LoadDescription> &members, const std::string &name) {
                       bind_load_family(s, description, name, members);
                     });

    file.section("Initial state", [&](ParameterSection &s) {
      InitialStateDescription &initial = description.initial_state;
      s.add("Type", initial.type, initial_types,
            "expressions: each body's Initial displacement/velocity; mode: a mode shape whose largest displacement "
            "is Amplitude; static: the static deflection under a point force.");
      s.add("Mode", initial.mode, 1, unbounded, "Mode number, from 1 (Type = mode).");
      s.add("Amplitude", initial.amplitude, io::finite(), "Largest displacement of the mode shape (Type = mode).");
      s.add("Load body", initial.load_point.body, "Body carrying the static point force (Type = static).");
      s.add("Load position", initial.load_point.x, io::finite(), "Its coordinate x (Type = static).");
      s.add("Force", initial.force, io::finite(), "The static point force (Type = static).");
      s.add("Target displacement", initial.target_displacement, io::finite(),
            "If not zero, the static shape is scaled so the loaded point moves this much.");
      if (s.reading() && initial.type == InitialStateType::static_load && initial.force == 0)
        s.fail("Force", "a static initial state needs a non-zero force");
    });

    file.section("Damping", [&](ParameterSection &s) {
      DampingDescription &damping = description.damping;
      s.add("Rayleigh mass coefficient", damping.rayleigh_mass, io::non_negative(), "alpha in C = alpha M + beta K.");
      s.add("Rayleigh stiffness coefficient", damping.rayleigh_stiffness, io::non_negative(),
            "beta in C = alpha M + beta K.");
      io::Bounds ratio = io::in_range(0, 1);
      ratio.open_high  = true;
      s.add("Modal damping ratios", damping.modal_ratios, ratio,
            "zeta_1, zeta_2, ...; the last value applies to the remaining damped modes.");
      s.add("Number of damped modes", damping.n_damped_modes, 0, unbounded,
            "Modes that receive modal damping (applied as a low-rank term).");
      if (s.reading() && damping.n_damped_modes > 0 && damping.modal_ratios.empty())
        s.fail("Modal damping ratios", "give at least one ratio for the damped modes");
    });

    file.section("Modes", [&](ParameterSection &s) {
      s.add("Number of modes", description.n_modes, 1, unbounded, "Modes computed and written by `vibroimpact modes`; left out, this many or the model's "
            "DoFs, whichever is fewer.");
      description.n_modes_given = s.reading() && file.gives("Modes/Number of modes");
    });
    file.section("Output", [&](ParameterSection &s) {
      s.add("Samples per element", description.samples_per_element, 1, unbounded,
            "Points per element where the drawn structure is sampled (with its own shape functions).");
    });
  }
} // namespace vibroimpact::structure
