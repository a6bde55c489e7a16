// The initial state u0, v0 (body expressions, a scaled mode or a static load shape) and the
// check that it and its energies are finite, blaming the entry that set them.
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/expression.h>

#include "assembly.h"

#include <Eigen/SparseCholesky>

namespace vibroimpact::structure
{
  namespace
  {
    // Largest displacement over the drawn points: the peak of a shape between nodes too.
    double peak_displacement(const model::OutputGeometry &geometry, const Vector &u)
    {
      return (geometry.displacement_map * u).cwiseAbs().maxCoeff();
    }
  } // namespace

  void set_initial_state(model::StructuralModel &m,
                         const Assembly         &assembly,
                         const CaseDescription  &description)
  {
    const auto &file = description.filename;
    m.initial_displacement = Vector::Zero(assembly.n_dofs());
    m.initial_velocity     = Vector::Zero(assembly.n_dofs());
    for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
      {
        const Body       &body    = *assembly.bodies()[b];
        const std::string section = "Body " + body.name() + "/";
        for (const auto &field : body.initial_expressions())
          {
            const auto u = parse_expression(field.displacement, file, section + field.displacement_entry);
            const auto v = parse_expression(field.velocity, file, section + field.velocity_entry);
            if (description.initial_state.type == InitialStateType::expressions)
              m.initial_displacement += assembly.place(b, body.interpolate_field(field.field, u.value, u.derivative));
            m.initial_velocity += assembly.place(b, body.interpolate_field(field.field, v.value, v.derivative));
          }
      }

    const auto &initial = description.initial_state;
    if (initial.type == InitialStateType::mode)
      {
        if (initial.mode > m.n_dofs())
          assembly.fail("Initial state/Mode", "the model has only " + std::to_string(m.n_dofs()) + " modes");
        const auto   modes = model::compute_modes(m, initial.mode);
        const Vector shape = modes.shapes.col(initial.mode - 1);
        m.initial_displacement = initial.amplitude / peak_displacement(m.geometry, shape) * shape;
      }
    else if (initial.type == InitialStateType::static_load)
      {
        const SparseRow r = assembly.row(initial.load_point, "Initial state", "Load body", "Load position");
        Eigen::SimplicialLDLT<model::SparseMatrix> factor(m.stiffness);
        if (factor.info() != Eigen::Success || factor.vectorD().minCoeff() <= 0)
          assembly.fail("Initial state/Type",
                        "a static initial state needs a structure held against rigid-body motion");
        Vector u = factor.solve(initial.force * Vector(r));
        if (initial.target_displacement != 0.0)
          {
            const double at_load = r.dot(u);
            if (std::abs(at_load) == 0.0)
              assembly.fail("Initial state/Target displacement", "the loaded point does not move");
            u *= initial.target_displacement / at_load;
          }
        m.initial_displacement = u;
      }
  }

  // A non-finite initial field or energy, blamed on the entry that set it: the body's
  // expression, or the Initial state entry that scaled a mode or static shape.
  void check_finite_initial_state(const model::StructuralModel &m, const Assembly &assembly,
                                  const CaseDescription &description)
  {
    const auto &initial = description.initial_state;
    // The body holding the largest (or a non-finite) entry of a field.
    const auto body_entry = [&](const Vector &field, const std::string &entry) {
      Eigen::Index worst = 0;
      for (Eigen::Index i = 0; i < field.size(); ++i)
        if (!std::isfinite(field[i]) || std::abs(field[i]) > std::abs(field[worst]))
          {
            worst = i;
            if (!std::isfinite(field[i]))
              break;
          }
      std::size_t b = 0;
      while (b + 1 < assembly.bodies().size() && worst >= static_cast<Eigen::Index>(assembly.offset(b + 1)))
        ++b;
      return "Body " + assembly.bodies()[b]->name() + "/" + entry;
    };
    const auto displacement_entry = [&] {
      switch (initial.type)
        {
          case InitialStateType::mode:
            return std::string("Initial state/Amplitude");
          case InitialStateType::static_load:
            return std::string(initial.target_displacement != 0.0 ? "Initial state/Target displacement" :
                                                                     "Initial state/Force");
          case InitialStateType::expressions:
            break;
        }
      return body_entry(m.initial_displacement, "Initial displacement");
    };
    if (!m.initial_displacement.allFinite())
      assembly.fail(displacement_entry(), "the initial displacement is not finite (nan or inf)");
    if (!m.initial_velocity.allFinite())
      assembly.fail(body_entry(m.initial_velocity, "Initial velocity"), "the initial velocity is not finite (nan or inf)");
    if (!std::isfinite(m.potential_energy(m.initial_displacement)))
      assembly.fail(displacement_entry(), "the initial strain energy overflows a double");
    if (!std::isfinite(m.kinetic_energy(m.initial_velocity)))
      assembly.fail(body_entry(m.initial_velocity, "Initial velocity"), "the initial kinetic energy overflows a double");
  }
} // namespace vibroimpact::structure
