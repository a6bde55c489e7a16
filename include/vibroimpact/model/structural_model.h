// The one seam of vibroimpact: the algebraic model that every solver consumes and every
// structure produces (see doc/architecture.md). It knows nothing of meshes.
#pragma once

#include <vibroimpact/model/spatial_support.h>

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vibroimpact::model
{
  using SparseMatrix = Eigen::SparseMatrix<double>;
  using SparseRow    = Eigen::SparseVector<double>;
  using Vector       = Eigen::VectorXd;

  // One period of a periodic signal sampled at equal intervals, with its exact derivative at the
  // samples: read back by cubic Hermite interpolation (error (ω τ)⁴/384 of the amplitude of a
  // line at ω, τ the interval).
  struct SampledPeriod
  {
    double              interval = 0.0;
    std::vector<double> values, slopes;

    double value(double t) const;
  };

  // A scalar function of time a(t) that multiplies a fixed spatial load vector.
  struct TimeFunction
  {
    enum class Kind
    {
      constant,
      harmonic, // amplitude * sin(omega t + phase)
      random    // band-limited: amplitude * sqrt(2/N) * sum_k cos(omegas[k] t + phases[k])
    };
    Kind                kind      = Kind::constant;
    double              amplitude = 0.0;
    double              omega     = 0.0;
    double              phase     = 0.0;
    std::vector<double> omegas; // random only: N lines k Δω, a whole number of periods in 2π/Δω
    std::vector<double> phases; // random only
    // Random only, optional: the same sum tabulated over its period 2π/Δω (by an inverse FFT), so
    // that a(t) costs one interpolation rather than N cosines.
    std::shared_ptr<const SampledPeriod> samples;

    double value(double t) const;
    // The highest angular frequency in a(t) (0 for a constant).
    double highest_frequency() const;
  };

  // Where something acts on the continuous structure: a body (index into
  // StructuralModel::continuum.bodies; negative: the ground) and the coordinate x along it.
  struct BodyPoint
  {
    int    body = -1;
    double x    = 0.0;

    bool on_ground() const { return body < 0; }
  };

  struct LoadTerm
  {
    std::string  name;
    Vector       spatial; // n entries
    TimeFunction time;
    bool         concentrated = false; // a point force (at `point`); otherwise distributed
    BodyPoint    point;                // the point force's point; the body of a distributed load
  };

  // Unilateral contact: gap g = gap0 + row . u >= 0 (positive is open), contact velocity
  // U = row . v, and the impulse p >= 0 acts on the structure as row^T p. A rigid contact
  // (stiffness 0) obeys Signorini's condition and Newton's impact law; an elastic one is a massless
  // unilateral spring, force k max(0, −g) and energy ½ k min(g, 0)², with no impact law.
  struct Contact
  {
    std::string name;
    SparseRow   row;
    double      gap0        = 0.0;
    double      restitution = 1.0; // Newton's e in [0, 1]
    std::array<double, 3> location{{0, 0, 0}}; // reference position, for output only
    // The same contact on the continuum: g = gap0 + side (w(point) − w(other)), side = +1 when
    // the other body (or the ground) lies below, −1 above.
    BodyPoint point, other;
    double    side = 1.0;
    double    stiffness = 0.0; // k of the unilateral spring; 0: a rigid stop

    bool   elastic() const { return stiffness > 0; }
    // ½ k min(g, 0)² of an elastic contact at gap g (0 for a rigid one).
    double spring_energy(double gap) const { return elastic() && gap < 0 ? 0.5 * stiffness * gap * gap : 0.0; }
  };

  // Whether any contact of the model is an elastic (unilateral spring) one.
  bool has_elastic_contacts(const std::vector<Contact> &contacts);

  // A named point whose displacement is row . u and velocity row . v.
  struct Probe
  {
    std::string name;
    SparseRow   row;
    BodyPoint   point; // where it reads, on the continuum
  };

  // What each degree of freedom is, so that solvers can treat values and slopes differently
  // (e.g. the direction of the energy correction).
  enum class DofKind
  {
    transverse, // beam deflection value
    slope,      // beam rotation (C1 beam DoF)
    axial,      // rod displacement along its axis
    lumped,     // a point-mass body
    twist       // a tube's rotation about its axis (torsion)
  };

  // Modal damping C_modal = B diag(c) B^T with B = M Phi on the first modes: a low-rank term,
  // never an n x n dense matrix.
  struct LowRankDamping
  {
    Eigen::MatrixXd basis;        // n x m (M Phi)
    Vector          coefficients; // m   (2 zeta_j omega_j)

    bool   empty() const { return coefficients.size() == 0; }
    Vector apply(const Vector &v) const;
  };

  // Geometry used only to draw the structure: points along every body (finer than the mesh),
  // line segments between them, and the sparse map from DoFs to the 3D displacement of every
  // point (3 rows a point).
  struct OutputGeometry
  {
    std::vector<std::array<double, 3>>       points;
    std::vector<std::array<unsigned int, 2>>  segments;
    std::vector<unsigned int>                 segment_body;
    std::vector<std::string>                  body_names;
    std::vector<std::array<double, 3>>        body_directions;  // motion direction, unit
    std::vector<unsigned int>                 point_body;
    std::vector<double>                       point_coordinate; // x along its body
    std::vector<unsigned int>                 contact_points;   // one drawn point per contact
    SparseMatrix                              displacement_map; // 3 * points x n
    // points x n: the cross-section's rotation at each point where a body has it as a field of its
    // own (a Timoshenko beam's θ), drawn as each DoF field's `<name>_rotation`; 0 x 0: none has.
    SparseMatrix                              rotation_map;
  };

  // Closed-form modes, where the structure has them (today: one uniform beam pinned at both ends
  // with nothing attached): ω_j = (jπ/L)² √(EI/ρA) and the DoF interpolation (values and slopes at
  // the nodes) of the mass-normalised shapes √(2/(ρA L)) sin(jπx/L), so that a contact or probe at
  // a node sees the exact shape. A modal solver may take them instead of the FE modes.
  struct ExactModes
  {
    std::string name; // e.g. "pinned-pinned beam"; empty: the structure has none
    std::function<void(unsigned int n_modes, Vector &omegas, Eigen::MatrixXd &shapes)> compute;

    bool available() const { return static_cast<bool>(compute); }
  };

  // The continuous bodies behind the discretisation, for solvers that work on the continuum
  // rather than on M and K (the wave-mode reference): each body's data and end conditions, where
  // its DoFs sit, where its finite-element field is polynomial, and the row that evaluates that
  // field at any x. Plain data plus one closure: no mesh.
  struct ContinuumBody
  {
    // The continuum the body's primary field discretises, as the continuum-based solvers (the
    // wave modes, the rod's wave map, the closed forms) know it; `other` for what they do not
    // take (a point mass, a tube, any new kind), which they refuse by the kind's name.
    enum class Field
    {
      bending, // Euler–Bernoulli: stiffness EI, deflection
      axial,   // St Venant: stiffness EA, axial displacement
      other
    };
    enum class End
    {
      free,
      pinned,
      clamped, // a rod's fixed end
      sliding
    };
    std::string  name;
    std::string  kind;                  // its kind's name in the case file (Type = ...)
    Field        field = Field::other;
    bool         repeated_frequencies = false; // its modes come in pairs (bending in two planes)
    double       length          = 0.0;
    double       stiffness       = 0.0;
    double       mass_per_length = 0.0;
    End          left = End::free, right = End::free;
    bool         lumped_mass = false;
    unsigned int first_dof = 0, n_dofs = 0;     // its slice of the global DoF vector
    std::vector<double> dof_coordinates;        // x of each of its DoFs (kind: dof_kinds)
    std::vector<double> element_boundaries;     // the FE field is a polynomial between two
    std::function<SparseRow(double x)> displacement_row; // global row of the field at x
  };

  struct Continuum
  {
    std::vector<ContinuumBody> bodies; // in the order of the case file
    unsigned int n_lumped_elements = 0; // masses, springs and dashpots on or between bodies
  };

  // A two-sided clearance support (Antunes et al. 2017): the contacts with its lower and upper
  // stops, the probe at the supported point, and whether the stops are oscillators (masses on
  // springs and dashpots, bodies of the model) or rigid.
  struct ClearanceSupport
  {
    std::string  name;
    unsigned int lower = 0, upper = 0; // indices into StructuralModel::contacts
    unsigned int probe    = 0;         // index into StructuralModel::probes
    double       lower_gap = 0.0, upper_gap = 0.0; // δ⁻ < 0 < δ⁺
    bool         flexible  = false;
    double       preload   = 0.0;
  };

  struct StructuralModel
  {
    std::string  name;
    unsigned int n_elements = 0; // finite elements of all bodies, for reports

    SparseMatrix   mass;      // M, symmetric positive definite on the free DoFs
    SparseMatrix   stiffness; // K, symmetric positive semi-definite
    SparseMatrix   damping;   // C: Rayleigh and dashpots
    SparseMatrix   dashpots;  // the lumped dashpots' part of C (modal solvers project it)
    LowRankDamping modal_damping;

    std::vector<LoadTerm> loads;
    std::vector<Contact>  contacts;
    std::vector<Probe>    probes;
    std::vector<ClearanceSupport> supports;
    // Supports of tubes moving in both transverse planes (annular, flat bar, polygonal; with
    // friction): geometry in model/spatial_support.h. Not expanded into `contacts`.
    std::vector<SpatialSupport> spatial_supports;
    std::vector<DofKind>  dof_kinds;

    Vector initial_displacement;
    Vector initial_velocity;

    OutputGeometry geometry;
    ExactModes     exact_modes;
    // ½ uᵀ K u evaluated from the elements' strains (beam curvatures at Gauss points) instead of
    // from K u, whose nodal forces cancel to (πh/L)⁴ of their size on fine beam meshes: the
    // Rayleigh quotient of the modes uses it (doc/theory.md §8). Empty: ½ uᵀ K u.
    std::function<double(const Vector &u)> strain_energy;
    Continuum      continuum;

    Eigen::Index n_dofs() const { return mass.rows(); }

    // f(t) = sum_k spatial_k a_k(t)
    Vector load(double t) const;
    // C v, including the low-rank modal part.
    Vector damping_force(const Vector &v) const;

    double kinetic_energy(const Vector &v) const;
    // ½ uᵀ K u plus the energy of the elastic contacts' springs, ½ k min(g, 0)².
    double potential_energy(const Vector &u) const;
  };
} // namespace vibroimpact::model
