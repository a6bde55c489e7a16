// One body of a structure, discretised: its DoFs (after the end conditions are eliminated),
// element matrices, and the rows that evaluate its displacement anywhere along it.
// Heavy deal.II headers stay in the .cc files.
#pragma once

#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/structure/case_description.h>

#include <Eigen/Sparse>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::io
{
  class ParameterSection;
}

namespace vibroimpact::structure
{
  // A linear functional of a body's free DoFs: sum of weight * u[dof].
  using Row      = std::vector<std::pair<unsigned int, double>>;
  using Triplets = std::vector<Eigen::Triplet<double>>;
  using ScalarFunction = std::function<double(double)>;

  // What the code outside a kind's own file asks of it (the case binder, the model builder, the
  // refusals, the estimates), so that it never names the kind.
  struct BodyKindTraits
  {
    enum class Trait
    {
      point,
      bending,
      in_space,
      blended_mass
    };
    BodyKindTraits() = default;
    // A kind's traits in one line: the continuum its field is and the traits it has, e.g.
    // BodyKindTraits(model::ContinuumBody::Field::bending, {Trait::bending}).
    BodyKindTraits(const model::ContinuumBody::Field field, const std::initializer_list<Trait> traits)
      : continuum(field)
    {
      const auto has = [&traits](const Trait t) { return std::find(traits.begin(), traits.end(), t) != traits.end(); };
      point        = has(Trait::point);
      bending      = has(Trait::bending);
      in_space     = has(Trait::in_space);
      blended_mass = has(Trait::blended_mass);
    }

    // A rigid point mass: no length, mesh, ends or elements; its one point is x = 0 and its
    // `Mass` entry its mass.
    bool point = false;
    // Transverse bending on C1 Hermite elements: holds clearance supports; `Bending stiffness`
    // is its stiffness, its ends are a beam's (free|pinned|clamped|sliding), and its frequency
    // error and round-off go as (πh/L)^4 (else an axial field's: fixed|free, (πh/L)^2).
    bool bending = false;
    // Deflects in both transverse planes (a second deflection field): holds supports in space,
    // takes loads at an angle (its own entries, BodyKind::bind_entries, give its radius).
    bool in_space = false;
    // Takes a blended mass matrix ((1 − f) consistent + f lumped).
    bool blended_mass = false;
    // Its field in the continuum description (model::ContinuumBody) the continuum-based solvers read.
    model::ContinuumBody::Field continuum = model::ContinuumBody::Field::other;
    // Its elements' weight in the model-size estimate, in beam elements (empty: 1).
    std::function<double(const BodyDescription &)> element_weight;
  };

  class Body
  {
  public:
    explicit Body(BodyDescription description)
      : description_(std::move(description))
    {}
    virtual ~Body() = default;

    const BodyDescription &description() const { return description_; }
    const std::string     &name() const { return description_.name; }

    virtual unsigned int               n_dofs() const    = 0;
    virtual std::vector<model::DofKind> dof_kinds() const = 0;
    virtual unsigned int               n_elements() const = 0;

    // Mass and stiffness entries in the body's own free numbering.
    virtual void assemble(Triplets &mass, Triplets &stiffness) const = 0;

    // Displacement at x in [0, length] (for a mass body, x is ignored).
    virtual Row displacement_row(double x) const = 0;

    // ½ uᵀ K u of the body's free DoFs from its strains at the quadrature points, where the body
    // can evaluate it without the cancellation of K u (beams); empty: use K.
    virtual std::optional<double> strain_energy(const model::Vector &) const { return std::nullopt; }

    // Consistent nodal forces of a load q(x) per unit length.
    virtual model::Vector distributed_load(const ScalarFunction &q) const = 0;

    // DoF values that interpolate u(x) (beams also take the slope u'(x)).
    virtual model::Vector interpolate(const ScalarFunction &u, const ScalarFunction &du) const = 0;

    // Coordinates where the drawn body is sampled: every node and samples_per_element - 1
    // points inside each element, ascending.
    virtual std::vector<double> sample_coordinates(unsigned int samples_per_element) const = 0;

    // The spatial direction of the body's displacement DoFs, for drawing.
    virtual std::array<double, 3> motion_direction() const = 0;

    // The radius of its cross-section where a support in space holds it (a tube's Outer radius);
    // 0: a line.
    virtual double outer_radius() const { return 0.0; }

    // The cross-section's rotation at x where it is a field of its own (a Timoshenko beam's θ,
    // drawn); empty: the body has none (a beam's slope is w', not a field of its own).
    virtual Row rotation_row(double /*x*/) const { return {}; }

    // A body with more than one displacement field (a tube: BodyField) answers for each; the
    // defaults describe a body whose only field is its primary one, so beams, rods and masses
    // need nothing more. A field the body does not have gives an empty row and zero vectors.
    virtual std::vector<BodyField> fields() const { return {BodyField::primary}; }
    virtual Row                    field_row(double x, BodyField field) const
    {
      return field == BodyField::primary ? displacement_row(x) : Row{};
    }
    virtual model::Vector field_load(BodyField field, const ScalarFunction &q) const
    {
      return field == BodyField::primary ? distributed_load(q) : model::Vector::Zero(n_dofs());
    }
    virtual model::Vector interpolate_field(BodyField field, const ScalarFunction &u, const ScalarFunction &du) const
    {
      return field == BodyField::primary ? interpolate(u, du) : model::Vector::Zero(n_dofs());
    }
    // The direction in space a field's displacement is drawn along (twist: none, zero).
    virtual std::array<double, 3> field_direction(BodyField field) const
    {
      return field == BodyField::primary ? motion_direction() : std::array<double, 3>{{0, 0, 0}};
    }
    bool has_field(BodyField field) const
    {
      for (const BodyField f : fields())
        if (f == field)
          return true;
      return false;
    }

    // The expressions of the initial state of each field the case file sets, with the entries
    // that hold them (blamed when they do not parse): a body's own Initial displacement and
    // Initial velocity for its primary field; a kind with more fields adds its own.
    struct InitialExpressions
    {
      BodyField   field;
      std::string displacement, velocity;             // muparser expressions of x
      std::string displacement_entry, velocity_entry; // e.g. "Initial displacement e2"
    };
    virtual std::vector<InitialExpressions> initial_expressions() const;

    // The material and geometric data of the case file the body's matrices are made of, by
    // entry name ("Length", "Bending stiffness", ...): what the model builder blames when the
    // matrices overflow.
    virtual std::vector<std::pair<std::string, double>> material_data() const;

    double length() const { return kind_traits().point ? 0.0 : description_.length; }
    const BodyKindTraits &kind_traits() const;

  private:
    BodyDescription description_;
  };

  // Builds the body's mesh (uniform or read from its mesh file, then refined), its DoFs and
  // constraints, by the registered kind the description names. mesh_directory resolves relative
  // mesh paths. Throws io::InputError.
  std::unique_ptr<Body> make_body(const BodyDescription &description,
                                  const std::string     &case_file,
                                  const std::string     &mesh_directory);

  // A kind of body as users name it in `Body <name>/Type`, with its clause of that entry's
  // documentation and the function that builds one. A kind registers itself in its own .cc:
  //
  //   namespace { const BodyKindRegistration registration{{"tube", "tube: ...", 3, factory_of<TubeBody>(), traits}}; }
  //
  // and `Body <name>/Type`, `vibroimpact parameters` and make_body then know it.
  struct BodyKind
  {
    using Factory = std::function<std::unique_ptr<Body>(const BodyDescription &description,
                                                        const std::string     &case_file,
                                                        const std::string     &mesh_directory)>;
    std::string    name;          // as users write it
    std::string    documentation; // "name: what it is", joined by "; " into the Type entry's text
    unsigned int   listing = 0;   // place in the Type entry's list of names (ties: by name)
    Factory        make;
    BodyKindTraits traits;
    // The entries only this kind reads (a tube's radius and fields), declared in every Body
    // section (after the common ones) and read and checked where the body is of this kind;
    // empty: none.
    std::function<void(io::ParameterSection &section, BodyDescription &body)> bind_entries;
  };

  // The factory of a kind whose Body class is made of (description, case file, mesh directory).
  template <typename KindBody>
  BodyKind::Factory factory_of()
  {
    return [](const BodyDescription &description, const std::string &case_file, const std::string &mesh_directory) {
      return std::make_unique<KindBody>(description, case_file, mesh_directory);
    };
  }

  class BodyKindRegistry
  {
  public:
    // Every registered kind, in listing order; the pointers stay valid for the program's life.
    static std::vector<const BodyKind *> kinds();
    // Throws std::invalid_argument for a kind nobody registered.
    static const BodyKind &find(BodyType type);
    // The registered point-mass kind (what a flexible support's stop masses are made of).
    static BodyType point_mass();
    // Throws std::logic_error for a name registered twice.
    static void add(BodyKind kind);
  };

  // The traits of the kind a description names (BodyKindRegistry::find(type).traits).
  inline const BodyKindTraits &kind_traits(const BodyType type) { return BodyKindRegistry::find(type).traits; }

  // Registers a body kind when the library (or program) that holds it loads.
  struct BodyKindRegistration
  {
    explicit BodyKindRegistration(BodyKind kind) { BodyKindRegistry::add(std::move(kind)); }
  };
} // namespace vibroimpact::structure
