// The bodies as continua (for solvers that do not use M and K, such as the wave modes) and the
// closed-form modes of a lone pinned–pinned beam.
#include "assembly.h"

namespace vibroimpact::structure
{
  namespace
  {
    model::ContinuumBody::End continuum_end(const EndCondition end)
    {
      switch (end)
        {
          case EndCondition::pinned:
            return model::ContinuumBody::End::pinned;
          case EndCondition::clamped:
            return model::ContinuumBody::End::clamped;
          case EndCondition::sliding:
            return model::ContinuumBody::End::sliding;
          case EndCondition::free:
          default:
            return model::ContinuumBody::End::free;
        }
    }
  } // namespace

  // The closed-form modes of a lone uniform pinned–pinned beam (nothing attached: no masses,
  // springs or dampers), interpolated at its DoFs: the closure keeps only each DoF's
  // coordinate and kind (from the model's continuum description), not the mesh.
  model::ExactModes exact_modes(const model::StructuralModel &m)
  {
    using Body = model::ContinuumBody;
    const auto &bodies = m.continuum.bodies;
    if (bodies.size() != 1 || m.continuum.n_lumped_elements != 0)
      return {};
    const Body &beam = bodies.front();
    if (beam.field != Body::Field::bending || beam.left != Body::End::pinned || beam.right != Body::End::pinned)
      return {};
    std::vector<std::pair<double, bool>> dofs; // (x, is slope)
    for (std::size_t i = 0; i < beam.dof_coordinates.size(); ++i)
      dofs.emplace_back(beam.dof_coordinates[i], m.dof_kinds[beam.first_dof + i] == model::DofKind::slope);
    const double L = beam.length, rhoA = beam.mass_per_length, c = std::sqrt(beam.stiffness / rhoA);
    return {"pinned-pinned beam", [dofs, L, rhoA, c](const unsigned int n, Vector &omegas, Eigen::MatrixXd &shapes) {
              const double amplitude = std::sqrt(2 / (rhoA * L));
              omegas.resize(n);
              shapes.resize(static_cast<Eigen::Index>(dofs.size()), n);
              for (unsigned int j = 0; j < n; ++j)
                {
                  const double k = (j + 1) * M_PI / L;
                  omegas[j]      = k * k * c;
                  for (std::size_t i = 0; i < dofs.size(); ++i)
                    shapes(static_cast<Eigen::Index>(i), j) =
                      dofs[i].second ? amplitude * k * std::cos(k * dofs[i].first) : amplitude * std::sin(k * dofs[i].first);
                }
            }};
  }

  // The bodies as continua (for the wave-mode reference): data, ends, where the DoFs sit, and
  // a row closure that keeps the body (not the assembly) alive.
  model::Continuum make_continuum(const Assembly &assembly, const CaseDescription &description)
  {
    model::Continuum continuum;
    continuum.n_lumped_elements = static_cast<unsigned int>(description.elements.size());
    for (std::size_t b = 0; b < assembly.bodies().size(); ++b)
      {
        const auto  body = assembly.bodies()[b];
        const auto &d    = body->description();
        model::ContinuumBody c;
        c.name            = d.name;
        c.kind            = d.type.name();
        c.field           = body->kind_traits().continuum;
        c.repeated_frequencies = body->kind_traits().in_space;
        c.length          = body->length();
        c.stiffness       = d.stiffness;
        c.mass_per_length = d.mass_per_length;
        c.left            = continuum_end(d.left);
        c.right           = continuum_end(d.right);
        c.lumped_mass     = d.lumped_fraction == 1.0;
        c.first_dof       = assembly.offset(b);
        c.n_dofs          = body->n_dofs();
        if (!body->kind_traits().point)
          {
            // Each field's DoFs are its own (a tube's fields sit in separate blocks): the sums
            // give every DoF its coordinate.
            Vector value_x = Vector::Zero(body->n_dofs()), slope_x = Vector::Zero(body->n_dofs());
            for (const BodyField field : body->fields())
              {
                value_x += body->interpolate_field(field, [](double x) { return x; }, [](double) { return 0.0; });
                slope_x += body->interpolate_field(field, [](double) { return 0.0; }, [](double x) { return x; });
              }
            const auto   kinds   = body->dof_kinds();
            for (std::size_t i = 0; i < kinds.size(); ++i)
              c.dof_coordinates.push_back(kinds[i] == model::DofKind::slope ? slope_x[i] : value_x[i]);
            c.element_boundaries = body->sample_coordinates(1);
          }
        else
          c.dof_coordinates = {0.0};
        const unsigned int offset = assembly.offset(b), n = assembly.n_dofs();
        c.displacement_row        = [body, offset, n](double x) {
          SparseRow row(n);
          for (const auto &[dof, weight] : body->displacement_row(std::clamp(x, 0.0, body->length())))
            row.coeffRef(offset + dof) += weight;
          return row;
        };
        continuum.bodies.push_back(std::move(c));
      }
    return continuum;
  }
} // namespace vibroimpact::structure
