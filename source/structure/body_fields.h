// The one-dimensional fields bodies are made of, each on its body's mesh with its own end
// conditions: a C1 cubic Hermite field (a beam's deflection; each of a tube's two) and an FE_Q
// field (a rod's axial displacement; a tube's axial displacement and twist). A body places each
// field at an offset in its own DoF numbering, so that a beam and a tube share one element code.
// Internal to the structure module; deal.II stays in the .cc files.
#pragma once

#include <vibroimpact/structure/body.h>

#include "element_table.h"

#include <memory>
#include <string>
#include <vector>

namespace vibroimpact::structure
{
  // Transverse deflection w(x) with its slope w'(x) at every vertex (doc/theory.md,
  // "Euler–Bernoulli beam"): pinned w = 0, sliding w' = 0, clamped both.
  class HermiteField
  {
  public:
    HermiteField(const BodyDescription &body, EndCondition left, EndCondition right, const std::string &case_file,
                 const std::string &mesh_directory);

    unsigned int        n_dofs() const { return n_free_; }
    unsigned int        n_elements() const { return static_cast<unsigned int>(table_.elements.size()); }
    const ElementTable &table() const { return table_; }

    // transverse for the values, slope for the slopes, in the field's free numbering.
    std::vector<model::DofKind> dof_kinds() const;

    // Element matrices of ∫ EI w''² and ∫ ρA w², consistent or HRZ-lumped, at `offset`.
    void assemble(double EI, double rhoA, bool lumped, unsigned int offset, Triplets &mass, Triplets &stiffness) const;

    // ½ ∫ EI w''² from the curvature at the Gauss points; u points at the field's first DoF.
    double strain_energy(double EI, const double *u) const;

    // w(x) as a row (throws std::out_of_range outside the mesh).
    Row row(double x, unsigned int offset) const;

    // f += consistent nodal forces of q(x) per unit length.
    void add_load(const ScalarFunction &q, unsigned int offset, model::Vector &f) const;

    // The DoF values that interpolate w and w'.
    void interpolate(const ScalarFunction &w, const ScalarFunction &dw, unsigned int offset,
                     model::Vector &values) const;

  private:
    ElementTable     table_;
    std::vector<int> free_;
    unsigned int     n_free_ = 0;
  };

  // A scalar field u(x) with deal.II's FE_Q of the body's Element degree; clamped (fixed) ends
  // hold u = 0, every other end condition leaves it free.
  class LagrangeField
  {
  public:
    LagrangeField(const BodyDescription &body, EndCondition left, EndCondition right, const std::string &case_file,
                  const std::string &mesh_directory);

    unsigned int        n_dofs() const { return n_free_; }
    unsigned int        n_elements() const { return static_cast<unsigned int>(table_.elements.size()); }
    const ElementTable &table() const { return table_; }

    // Element matrices of ∫ stiffness u'² and ∫ inertia u² (EA, ρA for axial motion; GJ, ρJ for
    // twist), the mass blended with its row sums by lumped_fraction, at `offset`.
    void assemble(double stiffness, double inertia, double lumped_fraction, unsigned int offset, Triplets &mass,
                  Triplets &stiffness_entries) const;

    // ½ ∫ stiffness u'² at the Gauss points (a sum of squares); u points at the first DoF.
    double strain_energy(double stiffness, const double *u) const;

    Row  row(double x, unsigned int offset) const;
    void add_load(const ScalarFunction &q, unsigned int offset, model::Vector &f) const;
    void interpolate(const ScalarFunction &u, unsigned int offset, model::Vector &values) const;

  private:
    struct Shapes; // FE_Q and its quadratures, in the .cc
    std::shared_ptr<const Shapes> shapes_;
    ElementTable                  table_;
    std::vector<int>              free_;
    unsigned int                  n_free_ = 0;
  };
} // namespace vibroimpact::structure
