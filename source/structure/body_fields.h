// The one-dimensional fields bodies are made of, each on its body's mesh with its own end
// conditions: a C1 cubic Hermite field (a beam's deflection; each of a tube's two), an FE_Q
// field (a rod's axial displacement; a tube's axial displacement and twist), and a shear-deformable
// plane of two FE_Q fields (a Timoshenko beam; each plane of a Timoshenko tube). A body places each
// field at an offset in its own DoF numbering, so that a beam and a tube share one element code.
// Internal to the structure module; deal.II stays in the .cc files.
#pragma once

#include <vibroimpact/structure/body.h>
#include <vibroimpact/structure/timoshenko_description.h>

#include "element_table.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vibroimpact::structure
{
  // What every field shares: its mesh and DoF numbering, the DoFs its end conditions hold
  // (`constrained`) eliminated; the row of the field at x from its shape functions.
  class MeshField
  {
  public:
    unsigned int        n_dofs() const { return n_free_; }
    unsigned int        n_elements() const { return static_cast<unsigned int>(table_.elements.size()); }
    const ElementTable &table() const { return table_; }

  protected:
    explicit MeshField(ElementTable table)
      : table_(std::move(table))
    {}
    void hold(const std::vector<unsigned int> &constrained)
    {
      free_   = free_numbering(table_.n_dofs, constrained);
      n_free_ = table_.n_dofs - static_cast<unsigned int>(constrained.size());
    }

    ElementTable     table_;
    std::vector<int> free_;
    unsigned int     n_free_ = 0;
  };

  // Transverse deflection w(x) with its slope w'(x) at every vertex (doc/theory.md,
  // "Euler–Bernoulli beam"): pinned w = 0, sliding w' = 0, clamped both.
  class HermiteField : public MeshField
  {
  public:
    HermiteField(const BodyDescription &body, EndCondition left, EndCondition right, const std::string &case_file,
                 const std::string &mesh_directory);

    // transverse for the values, slope for the slopes, in the field's free numbering.
    std::vector<model::DofKind> dof_kinds() const;

    // Element matrices of ∫ EI w''² and ∫ ρA w², consistent (lumped_fraction 0) or HRZ-lumped
    // (1; a blend is refused for bending bodies by the case binder), at `offset`.
    void assemble(double EI, double rhoA, double lumped_fraction, unsigned int offset, Triplets &mass,
                  Triplets &stiffness) const;

    // ½ ∫ EI w''² from the curvature at the Gauss points; u points at the field's first DoF.
    double strain_energy(double EI, const double *u) const;

    // w(x) as a row (throws std::out_of_range outside the mesh).
    Row row(double x, unsigned int offset) const;

    // f += consistent nodal forces of q(x) per unit length.
    void add_load(const ScalarFunction &q, unsigned int offset, model::Vector &f) const;

    // The DoF values that interpolate w and w'.
    void interpolate(const ScalarFunction &w, const ScalarFunction &dw, unsigned int offset,
                     model::Vector &values) const;
  };

  // A scalar field u(x) with deal.II's FE_Q of the body's Element degree; clamped (fixed) ends
  // hold u = 0, every other end condition leaves it free.
  class LagrangeField : public MeshField
  {
  public:
    LagrangeField(const BodyDescription &body, EndCondition left, EndCondition right, const std::string &case_file,
                  const std::string &mesh_directory);

    // Element matrices of ∫ stiffness u'² and ∫ inertia u² (EA, ρA for axial motion; GJ, ρJ for
    // twist), the mass blended with its row sums by lumped_fraction, at `offset`.
    void assemble(double stiffness, double inertia, double lumped_fraction, unsigned int offset, Triplets &mass,
                  Triplets &stiffness_entries) const;

    // ½ ∫ stiffness u'² at the Gauss points (a sum of squares); u points at the first DoF.
    double strain_energy(double stiffness, const double *u) const;

    // A Timoshenko beam's shear term ∫ κGA (w' − θ)², this field w at `offset`, `rotation` θ (on
    // the same mesh, same degree) at `rotation_offset`, by Gauss rules of one point fewer than
    // the field's (selective reduced integration: the shear does not lock as the beam gets
    // slender; doc/theory.md, "Timoshenko beam").
    void assemble_shear(const LagrangeField &rotation, double shear_stiffness, unsigned int offset,
                        unsigned int rotation_offset, Triplets &stiffness_entries) const;

    // axial for every DoF (a rod's displacement; a tube's twist is labelled by the tube).
    std::vector<model::DofKind> dof_kinds() const { return std::vector<model::DofKind>(n_dofs(), model::DofKind::axial); }

    Row  row(double x, unsigned int offset) const;
    void add_load(const ScalarFunction &q, unsigned int offset, model::Vector &f) const;
    // The DoF values that interpolate u (a C0 field takes no derivative: du is not read).
    void interpolate(const ScalarFunction &u, const ScalarFunction &du, unsigned int offset,
                     model::Vector &values) const;

  private:
    struct Shapes; // FE_Q and its quadratures, in the .cc
    std::shared_ptr<const Shapes> shapes_;
  };

  // A shear-deformable beam in one plane (doc/theory.md, "Timoshenko beam"): its deflection w and
  // the cross-section's rotation θ, each a LagrangeField of the body's Element degree on one mesh,
  // DoFs w then θ, with the energies ½∫EI θ'² + ½∫κGA (w' − θ)² and ½∫ρA ẇ² + ½∫ρI θ̇² (κGA and
  // ρI from the body's TimoshenkoDescription). Pinned and clamped ends hold w, clamped and sliding
  // ones θ. A Timoshenko beam is one; a Timoshenko tube has one in each transverse plane.
  class TimoshenkoPlane
  {
  public:
    TimoshenkoPlane(const BodyDescription &body, const EndCondition left, const EndCondition right,
                    const std::string &case_file, const std::string &mesh_directory)
      : w_(body, holds_deflection(left), holds_deflection(right), case_file, mesh_directory)
      , theta_(body, holds_rotation(left), holds_rotation(right), case_file, mesh_directory)
      , shear_(body.kind_entries<TimoshenkoDescription>())
    {}

    unsigned int        n_dofs() const { return w_.n_dofs() + theta_.n_dofs(); }
    unsigned int        n_elements() const { return w_.n_elements(); }
    const ElementTable &table() const { return w_.table(); }

    std::vector<model::DofKind> dof_kinds() const
    {
      std::vector<model::DofKind> kinds(w_.n_dofs(), model::DofKind::transverse);
      kinds.resize(n_dofs(), model::DofKind::slope); // θ: the cross-section's rotation
      return kinds;
    }

    // The plane's mass and stiffness at `offset` (EI and ρA the body's; the shear term by reduced
    // integration, LagrangeField::assemble_shear).
    void assemble(const double EI, const double rhoA, const double lumped_fraction, const unsigned int offset,
                  Triplets &mass, Triplets &stiffness) const
    {
      w_.assemble(0.0, rhoA, lumped_fraction, offset, mass, stiffness);
      theta_.assemble(EI, shear_.rotary_inertia, lumped_fraction, offset + w_.n_dofs(), mass, stiffness);
      w_.assemble_shear(theta_, shear_.shear_stiffness, offset, offset + w_.n_dofs(), stiffness);
    }

    // No strain energy of its own: the shear's reduced quadrature is K's, so ½ uᵀKu is the one.
    std::optional<double> strain_energy(double, const double *) const { return std::nullopt; }

    Row  row(const double x, const unsigned int offset) const { return w_.row(x, offset); }
    Row  rotation_row(const double x, const unsigned int offset) const { return theta_.row(x, offset + w_.n_dofs()); }
    void add_load(const ScalarFunction &q, const unsigned int offset, model::Vector &f) const
    {
      w_.add_load(q, offset, f);
    }
    // w from u, θ from u' (the Euler–Bernoulli rotation of the same deflection).
    void interpolate(const ScalarFunction &u, const ScalarFunction &du, const unsigned int offset,
                     model::Vector &values) const
    {
      w_.interpolate(u, u, offset, values);
      theta_.interpolate(du, du, offset + w_.n_dofs(), values);
    }

  private:
    static EndCondition holds_deflection(const EndCondition end)
    {
      return end == EndCondition::pinned || end == EndCondition::clamped ? EndCondition::clamped : EndCondition::free;
    }
    static EndCondition holds_rotation(const EndCondition end)
    {
      return end == EndCondition::clamped || end == EndCondition::sliding ? EndCondition::clamped : EndCondition::free;
    }

    LagrangeField         w_, theta_;
    TimoshenkoDescription shear_;
  };

  // A body made of one field on its whole mesh at offset 0 (a beam's deflection, a rod's axial
  // displacement), with the body's stiffness, mass per unit length and mass matrix: the Body
  // answers that are the field's; the kind adds its direction (and a beam its strain energy).
  template <typename Field>
  class OneFieldBody : public Body
  {
  public:
    OneFieldBody(const BodyDescription &d, const std::string &case_file, const std::string &mesh_directory)
      : Body(d)
      , field_(d, d.left, d.right, case_file, mesh_directory)
    {}

    unsigned int                n_dofs() const override { return field_.n_dofs(); }
    unsigned int                n_elements() const override { return field_.n_elements(); }
    std::vector<model::DofKind> dof_kinds() const override { return field_.dof_kinds(); }
    Row                         displacement_row(const double x) const override { return field_.row(x, 0); }

    void assemble(Triplets &mass, Triplets &stiffness) const override
    {
      const auto &d = description();
      field_.assemble(d.stiffness, d.mass_per_length, d.lumped_fraction, 0, mass, stiffness);
    }

    model::Vector distributed_load(const ScalarFunction &q) const override
    {
      model::Vector f = model::Vector::Zero(n_dofs());
      field_.add_load(q, 0, f);
      return f;
    }

    model::Vector interpolate(const ScalarFunction &u, const ScalarFunction &du) const override
    {
      model::Vector values = model::Vector::Zero(n_dofs());
      field_.interpolate(u, du, 0, values);
      return values;
    }

    std::vector<double> sample_coordinates(const unsigned int samples_per_element) const override
    {
      return uniform_samples(field_.table(), samples_per_element);
    }

  protected:
    Field field_;
  };
} // namespace vibroimpact::structure
