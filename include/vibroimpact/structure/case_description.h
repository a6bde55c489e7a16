// What a case file describes, as plain data: bodies, lumped elements, contacts, probes, loads,
// damping, the initial state. Read by case_parameters.h, turned into a StructuralModel by
// model_builder.h. Lengths, masses and forces are in any consistent unit system.
#pragma once

#include <any>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace vibroimpact::structure
{
  // The kind of a body, by the name users write in `Body <name>/Type`. Kinds register
  // themselves in their own .cc (structure/body.h, BodyKindRegistration), so the set is open and
  // nothing outside a kind's file names it; a default-made value is the entry's documented
  // default, beam. The name must outlive the value: a string literal or a registered kind's name.
  class BodyType
  {
  public:
    constexpr BodyType() = default;
    constexpr explicit BodyType(std::string_view name)
      : name_(name)
    {}
    constexpr std::string_view name() const { return name_; }

    friend constexpr bool operator==(const BodyType a, const BodyType b) { return a.name_ == b.name_; }
    friend constexpr bool operator!=(const BodyType a, const BodyType b) { return !(a == b); }

  private:
    std::string_view name_ = "beam";
  };

  // Which displacement field of a body a row reads: `primary` is the body's own (a beam's or a
  // tube's deflection along its Deflection direction e1, a rod's axial displacement, a mass's
  // motion); a tube also has its deflection along e2 = Axis × e1 and, where the case asks for
  // them, its axial displacement and its twist angle.
  enum class BodyField
  {
    primary,
    second_deflection,
    axial,
    twist
  };

  enum class EndCondition
  {
    free,
    pinned,  // beam: w = 0
    clamped, // beam: w = 0, w' = 0; rod: u = 0
    sliding  // beam: w' = 0
  };

  struct BodyDescription
  {
    std::string  name;
    BodyType     type;
    double       length          = 1.0;
    double       stiffness       = 1.0; // the primary field's: EI (beam, tube) or EA (rod)
    double       axial_stiffness = 1.0; // EA (a rod's stiffness; a tube's axial field's)
    double       mass_per_length = 1.0; // rho A; for a mass body: its mass
    unsigned int n_elements      = 16;
    std::string  mesh_file;             // overrides n_elements when given
    unsigned int refinements = 0;
    unsigned int degree      = 1;       // rod only
    EndCondition left        = EndCondition::free;
    EndCondition right       = EndCondition::free;
    // Mass matrix = (1 - f) consistent + f lumped: 0 consistent, 1 lumped, a blend for rods
    // (f = p/(p+1) removes the leading dispersion error of degree-p elements).
    double lumped_fraction = 0.0;

    // Placement in space, for drawing only.
    std::array<double, 3> origin{{0, 0, 0}};
    std::array<double, 3> axis{{1, 0, 0}};
    std::array<double, 3> deflection{{0, 1, 0}};

    std::string initial_displacement = "0"; // expression of x
    std::string initial_velocity     = "0";

    // What only a kind reads, by type, so that this description names no kind (a tube's:
    // structure/tube_description.h). Every kind's entries are declared in every Body section,
    // so each kind's data has its own slot: kind_entries<T>() makes a default T the first time
    // (a deque: the entries bound to one kind's data stay valid as another kind's is added).
    std::deque<std::any> kind_data;
    template <typename T>
    T &kind_entries()
    {
      for (auto &held : kind_data)
        if (T *data = std::any_cast<T>(&held))
          return *data;
      return std::any_cast<T &>(kind_data.emplace_back(T{}));
    }
    template <typename T>
    const T &kind_entries() const
    {
      static const T none{};
      for (const auto &held : kind_data)
        if (const T *data = std::any_cast<T>(&held))
          return *data;
      return none;
    }
  };

  // A point on a body at coordinate x along it; an empty body is the ground.
  struct PointOnBody
  {
    std::string body;
    double      x = 0.0;
    bool        is_ground() const { return body.empty(); }
  };

  enum class ContactSide
  {
    below, // the obstacle (or other body) lies below: g = g0 + u_a - u_b
    above  // it lies above: g = g0 - u_a + u_b
  };

  struct ContactDescription
  {
    std::string name;
    PointOnBody point;
    PointOnBody other; // ground: a rigid stop
    double      gap         = 0.0;
    ContactSide side        = ContactSide::below;
    double      restitution = 1.0;
    double      stiffness   = 0.0; // of a unilateral spring; 0: rigid
  };

  enum class ElementType
  {
    mass,
    spring,
    dashpot
  };

  struct ElementDescription
  {
    std::string name;
    ElementType type = ElementType::spring;
    PointOnBody point;
    PointOnBody other; // ground unless given (springs and dashpots)
    double      value = 0.0; // m, k or c
  };

  // The shape of a support: two stops in the plane of a beam (below), or a support in space that
  // holds a tube (model/spatial_support.h): a circular hole, two parallel bars, a convex polygon.
  enum class SupportShape
  {
    stops,
    annular,
    flat_bar,
    polygonal
  };

  // A two-sided clearance support at a point of a beam (Antunes et al. 2017): a lower stop at
  // δ⁻ < 0 and an upper stop at δ⁺ > 0 from the beam's rest position, rigid or flexible (each
  // stop an oscillator: a point mass m_c on a spring k_c and a dashpot c_c to the ground), and an
  // optional constant preload at the point. The builder expands it into two contacts, a probe,
  // the stops' bodies and elements, and a load (model_builder.h).
  struct SupportDescription
  {
    std::string name;
    PointOnBody point;
    double      lower_gap = -1e-3, upper_gap = 1e-3;
    bool        flexible       = false;
    double      stop_mass      = 0.01;
    double      stop_damping   = 1.0;
    double      stop_stiffness = 1e5;
    double      preload        = 0.0; // along the beam's positive deflection
    double      restitution    = 0.0; // Newton's e of the Moreau–Jean and modal CoR impacts

    // A support in space (Shape other than stops) on a tube: the stop entries above give a
    // flexible support's ring (its mass, and its springs and dashpots along e1 and e2), the
    // preload acts at preload_angle. Angles in degrees from e1 towards e2.
    SupportShape          shape     = SupportShape::stops;
    double                clearance = 1e-3;    // annular: radial; flat bar: from the centre to each bar
    std::array<double, 2> centre{{0.0, 0.0}};  // the hole's offset (eccentricity) in (e1, e2)
    double                orientation = 0.0;   // flat bar, polygon: turns every side's normal
    std::vector<double>   side_angles;         // polygon: outward normals, counterclockwise
    std::vector<double>   side_distances;      // polygon: one per side (empty: Clearance each)
    double                friction      = 0.0; // Coulomb mu
    double                preload_angle = 0.0;
    // Wear inputs of the support statistics (studies/support_statistics.h): equal angular
    // sectors, Archard coefficients (volume per unit normal force per unit sliding distance) and
    // the support plate's axial width, over which the worn volume of a sector is spread.
    unsigned int wear_sectors             = 1;
    double       tube_wear_coefficient    = 0.0;
    double       support_wear_coefficient = 0.0;
    double       thickness                = 0.02; // m
  };

  struct ProbeDescription
  {
    std::string name;
    PointOnBody point;
    BodyField   field = BodyField::primary;
  };

  enum class LoadDistribution
  {
    uniform,    // q per unit length over a body
    expression, // q(x) per unit length over a body
    point,      // a force at a point
    gravity     // rho A g on every body (and m g on masses), amplitude = g
  };

  enum class TimeDependence
  {
    constant,
    harmonic,
    random
  };

  struct LoadDescription
  {
    std::string      name;
    LoadDistribution distribution = LoadDistribution::uniform;
    PointOnBody      point;           // body (and x for a point force)
    std::string      expression = "1"; // q(x), expression distribution only
    TimeDependence   time = TimeDependence::harmonic;
    double           amplitude = 0.0;  // F, or the RMS of a random load
    double           omega     = 0.0;  // rad/s
    double           phase     = 0.0;  // rad
    double           band_low = 0.0, band_high = 0.0; // rad/s, random only
    unsigned int     n_harmonics = 64;
    std::uint64_t    seed        = 1;
    double           angle       = 0.0; // tube: degrees from e1 towards e2 (point, uniform, expression)
  };

  enum class InitialStateType
  {
    expressions, // per body: Initial displacement / velocity expressions of x
    mode,        // a mode shape with a given peak displacement
    static_load  // the static deflection under a point force
  };

  struct InitialStateDescription
  {
    InitialStateType type = InitialStateType::expressions;
    unsigned int     mode      = 1;
    double           amplitude = 0.0;
    PointOnBody      load_point;
    double           force               = 1.0;
    double           target_displacement = 0.0; // 0: keep the force as given
  };

  struct DampingDescription
  {
    double              rayleigh_mass      = 0.0; // alpha
    double              rayleigh_stiffness = 0.0; // beta
    std::vector<double> modal_ratios;             // zeta_j; the last repeats
    unsigned int        n_damped_modes = 0;
  };

  struct CaseDescription
  {
    std::string                     filename;
    std::string                     name;
    std::vector<BodyDescription>    bodies;
    std::vector<ElementDescription> elements;
    std::vector<ContactDescription> contacts;
    std::vector<SupportDescription> supports;
    std::vector<ProbeDescription>   probes;
    std::vector<LoadDescription>    loads;
    DampingDescription              damping;
    InitialStateDescription         initial_state;

    unsigned int n_modes             = 5;
    bool         n_modes_given       = false; // by the file or an override: else at most the model's DoFs
    unsigned int samples_per_element = 8;

    const BodyDescription *find_body(const std::string &name) const;
  };
} // namespace vibroimpact::structure
