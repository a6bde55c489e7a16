// A C1 cubic Hermite field on a body's mesh (doc/theory.md, "Euler–Bernoulli beam"): the element
// matrices, rows, loads and strain energy of a beam's deflection and of each of a tube's two.
#include <vibroimpact/structure/hermite_cubic.h>

#include "body_fields.h"

#include <array>
#include <stdexcept>

namespace vibroimpact::structure
{
  namespace
  {
    // 4-point Gauss–Legendre on [0, 1]: exact for the mass integrand (degree 6).
    constexpr std::array<double, 4> gauss_points{{0.5 - 0.5 * 0.8611363115940526,
                                                  0.5 - 0.5 * 0.3399810435848563,
                                                  0.5 + 0.5 * 0.3399810435848563,
                                                  0.5 + 0.5 * 0.8611363115940526}};
    constexpr std::array<double, 4> gauss_weights{{0.5 * 0.3478548451374538,
                                                   0.5 * 0.6521451548625461,
                                                   0.5 * 0.6521451548625461,
                                                   0.5 * 0.3478548451374538}};

    void add_end_constraints(const EndCondition condition, const std::vector<unsigned int> &end_dofs,
                             std::vector<unsigned int> &constrained)
    {
      // end_dofs = {value, slope}
      if (condition == EndCondition::pinned || condition == EndCondition::clamped)
        constrained.push_back(end_dofs[0]);
      if (condition == EndCondition::sliding || condition == EndCondition::clamped)
        constrained.push_back(end_dofs[1]);
    }
  } // namespace

  HermiteField::HermiteField(const BodyDescription &body, const EndCondition left, const EndCondition right,
                             const std::string &case_file, const std::string &mesh_directory)
    : MeshField(make_element_table(body, ElementFamily::hermite_c1, case_file, mesh_directory))
  {
    std::vector<unsigned int> constrained;
    add_end_constraints(left, table_.left_end_dofs, constrained);
    add_end_constraints(right, table_.right_end_dofs, constrained);
    hold(constrained);
  }

  std::vector<model::DofKind> HermiteField::dof_kinds() const
  {
    std::vector<model::DofKind> kinds(n_free_);
    for (const auto &element : table_.elements)
      for (unsigned int i = 0; i < 4; ++i)
        if (free_[element.dofs[i]] >= 0)
          kinds[free_[element.dofs[i]]] = (i % 2 == 0) ? model::DofKind::transverse : model::DofKind::slope;
    return kinds;
  }

  void HermiteField::assemble(const double EI, const double rhoA, const double lumped_fraction, const unsigned int offset,
                              Triplets &mass, Triplets &stiffness) const
  {
    for (const auto &element : table_.elements)
      {
        const double h       = element.x_right - element.x_left;
        double       k[4][4] = {}, m[4][4] = {};
        for (unsigned int q = 0; q < gauss_points.size(); ++q)
          {
            const auto   N = HermiteCubic::values(gauss_points[q], h);
            const auto   B = HermiteCubic::second_derivatives(gauss_points[q], h);
            const double w = gauss_weights[q] * h;
            for (unsigned int i = 0; i < 4; ++i)
              for (unsigned int j = 0; j < 4; ++j)
                {
                  k[i][j] += EI * B[i] * B[j] * w;
                  m[i][j] += rhoA * N[i] * N[j] * w;
                }
          }
        if (lumped_fraction == 1.0) // blends are refused for beams and tubes (case_parameters.cc)
          {
            // HRZ: the consistent diagonal scaled so that the translations carry rho A h,
            // which gives rho A h / 2 and rho A h^3 / 78.
            const double scale = rhoA * h / (m[0][0] + m[2][2]);
            for (unsigned int i = 0; i < 4; ++i)
              for (unsigned int j = 0; j < 4; ++j)
                m[i][j] = (i == j) ? m[i][i] * scale : 0.0;
          }
        for (unsigned int i = 0; i < 4; ++i)
          for (unsigned int j = 0; j < 4; ++j)
            {
              const int I = free_[element.dofs[i]], J = free_[element.dofs[j]];
              if (I < 0 || J < 0)
                continue;
              stiffness.emplace_back(I + offset, J + offset, k[i][j]);
              if (m[i][j] != 0.0)
                mass.emplace_back(I + offset, J + offset, m[i][j]);
            }
      }
  }

  double HermiteField::strain_energy(const double EI, const double *u) const
  {
    // ½ ∫ EI w''² from the curvature at the Gauss points: a sum of squares, where uᵀ K u
    // would subtract nodal forces of size EI u/h³ to leave EI w''''.
    double energy = 0.0;
    for (const auto &element : table_.elements)
      {
        const double h = element.x_right - element.x_left;
        double       nodal[4];
        for (unsigned int i = 0; i < 4; ++i)
          nodal[i] = free_[element.dofs[i]] >= 0 ? u[free_[element.dofs[i]]] : 0.0;
        for (unsigned int q = 0; q < gauss_points.size(); ++q)
          {
            const auto   B         = HermiteCubic::second_derivatives(gauss_points[q], h);
            const double curvature = B[0] * nodal[0] + B[1] * nodal[1] + B[2] * nodal[2] + B[3] * nodal[3];
            energy += 0.5 * EI * curvature * curvature * gauss_weights[q] * h;
          }
      }
    return energy;
  }

  Row HermiteField::row(const double x, const unsigned int offset) const
  {
    return element_row(table_, free_, x, offset, "beam", [](const double xi, const double h) {
      return HermiteCubic::values(xi, h);
    });
  }

  void HermiteField::add_load(const ScalarFunction &q, const unsigned int offset, model::Vector &f) const
  {
    for (const auto &element : table_.elements)
      {
        const double h = element.x_right - element.x_left;
        for (unsigned int p = 0; p < gauss_points.size(); ++p)
          {
            const auto   N = HermiteCubic::values(gauss_points[p], h);
            const double w = gauss_weights[p] * h * q(element.x_left + gauss_points[p] * h);
            for (unsigned int i = 0; i < 4; ++i)
              if (free_[element.dofs[i]] >= 0)
                f[free_[element.dofs[i]] + offset] += w * N[i];
          }
      }
  }

  void HermiteField::interpolate(const ScalarFunction &w, const ScalarFunction &dw, const unsigned int offset,
                                 model::Vector &values) const
  {
    for (const auto &element : table_.elements)
      {
        const double nodal[4] = {w(element.x_left), dw(element.x_left), w(element.x_right), dw(element.x_right)};
        for (unsigned int i = 0; i < 4; ++i)
          if (free_[element.dofs[i]] >= 0)
            values[free_[element.dofs[i]] + offset] = nodal[i];
      }
  }
} // namespace vibroimpact::structure
