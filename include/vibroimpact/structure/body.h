// One body of a structure, discretised: its DoFs (after the end conditions are eliminated),
// element matrices, and the rows that evaluate its displacement anywhere along it.
// Heavy deal.II headers stay in the .cc files.
#pragma once

#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/structure/case_description.h>

#include <Eigen/Sparse>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vibroimpact::structure
{
  // A linear functional of a body's free DoFs: sum of weight * u[dof].
  using Row      = std::vector<std::pair<unsigned int, double>>;
  using Triplets = std::vector<Eigen::Triplet<double>>;
  using ScalarFunction = std::function<double(double)>;

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

    double length() const { return description_.type == BodyType::mass ? 0.0 : description_.length; }

  private:
    BodyDescription description_;
  };

  // Builds the body's mesh (uniform or read from its mesh file, then refined), its DoFs and
  // constraints. mesh_directory resolves relative mesh paths. Throws io::InputError.
  std::unique_ptr<Body> make_body(const BodyDescription &description,
                                  const std::string     &case_file,
                                  const std::string     &mesh_directory);
} // namespace vibroimpact::structure
