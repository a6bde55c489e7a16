// A scalar FE_Q field on a body's mesh (doc/theory.md, "Axial rod"): a rod's axial displacement,
// a tube's axial displacement and twist, with deal.II's FE_Q of degree 1 or 2.
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/fe/fe_q.h>

#include "body_fields.h"

#include <algorithm>
#include <stdexcept>

namespace vibroimpact::structure
{
  struct LagrangeField::Shapes
  {
    explicit Shapes(const unsigned int degree)
      : fe(degree)
    {}
    dealii::FE_Q<1> fe;
  };

  namespace
  {
    // m <- (1 - f) m + f diag(row sums of m): the row sums are the lumped mass (positive for
    // degree 1 and 2 in 1D; for these degrees they equal the Gauss-Lobatto spectral-element mass,
    // so f = p/(p + 1) is Ainsworth & Wajid's (2010) optimal blend: the frequency error falls as
    // h^(2p + 2) instead of h^(2p)).
    void blend_with_lumped(std::vector<double> &m, const unsigned int n, const double f)
    {
      if (f == 0.0)
        return; // bit for bit the consistent matrix
      for (unsigned int i = 0; i < n; ++i)
        {
          double sum = 0;
          for (unsigned int j = 0; j < n; ++j)
            sum += m[i * n + j], m[i * n + j] *= 1.0 - f;
          m[i * n + i] += f * sum;
        }
    }
  } // namespace

  LagrangeField::LagrangeField(const BodyDescription &body, const EndCondition left, const EndCondition right,
                               const std::string &case_file, const std::string &mesh_directory)
    : MeshField(make_element_table(body, ElementFamily::lagrange, case_file, mesh_directory))
    , shapes_(std::make_shared<const Shapes>(body.degree))
  {
    std::vector<unsigned int> constrained;
    if (left == EndCondition::clamped)
      constrained.push_back(table_.left_end_dofs[0]);
    if (right == EndCondition::clamped)
      constrained.push_back(table_.right_end_dofs[0]);
    hold(constrained);
  }

  void LagrangeField::assemble(const double stiffness, const double inertia, const double lumped_fraction,
                               const unsigned int offset, Triplets &mass, Triplets &stiffness_entries) const
  {
    const auto              &fe = shapes_->fe;
    const dealii::QGauss<1>  quadrature(fe.degree + 1);
    const unsigned int       n = fe.n_dofs_per_cell();
    std::vector<double>      k(n * n), m(n * n);
    for (const auto &element : table_.elements)
      {
        const double h = element.x_right - element.x_left;
        std::fill(k.begin(), k.end(), 0.0);
        std::fill(m.begin(), m.end(), 0.0);
        for (unsigned int q = 0; q < quadrature.size(); ++q)
          {
            const auto  &p = quadrature.point(q);
            const double w = quadrature.weight(q) * h;
            for (unsigned int i = 0; i < n; ++i)
              for (unsigned int j = 0; j < n; ++j)
                {
                  k[i * n + j] += stiffness * fe.shape_grad(i, p)[0] * fe.shape_grad(j, p)[0] / (h * h) * w;
                  m[i * n + j] += inertia * fe.shape_value(i, p) * fe.shape_value(j, p) * w;
                }
          }
        blend_with_lumped(m, n, lumped_fraction);
        for (unsigned int i = 0; i < n; ++i)
          for (unsigned int j = 0; j < n; ++j)
            {
              const int I = free_[element.dofs[i]], J = free_[element.dofs[j]];
              if (I < 0 || J < 0)
                continue;
              stiffness_entries.emplace_back(I + offset, J + offset, k[i * n + j]);
              if (m[i * n + j] != 0.0)
                mass.emplace_back(I + offset, J + offset, m[i * n + j]);
            }
      }
  }

  void LagrangeField::assemble_shear(const LagrangeField &rotation, const double shear_stiffness,
                                     const unsigned int offset, const unsigned int rotation_offset,
                                     Triplets &stiffness_entries) const
  {
    const auto             &fe = shapes_->fe;
    const dealii::QGauss<1> reduced(fe.degree);
    const unsigned int      n = fe.n_dofs_per_cell();
    // The element's unknowns: this field's n, then the rotation's n; B = [N_w'  −N_θ] at a point.
    std::vector<double> k(4 * n * n), B(2 * n);
    for (std::size_t e = 0; e < table_.elements.size(); ++e)
      {
        const auto  &element = table_.elements[e];
        const double h       = element.x_right - element.x_left;
        std::fill(k.begin(), k.end(), 0.0);
        for (unsigned int q = 0; q < reduced.size(); ++q)
          {
            const auto &p = reduced.point(q);
            for (unsigned int i = 0; i < n; ++i)
              B[i] = fe.shape_grad(i, p)[0] / h, B[n + i] = -fe.shape_value(i, p);
            const double w = shear_stiffness * reduced.weight(q) * h;
            for (unsigned int i = 0; i < 2 * n; ++i)
              for (unsigned int j = 0; j < 2 * n; ++j)
                k[i * 2 * n + j] += w * B[i] * B[j];
          }
        const auto global = [&](const unsigned int i) -> int {
          const int local = i < n ? free_[element.dofs[i]] : rotation.free_[rotation.table_.elements[e].dofs[i - n]];
          return local < 0 ? -1 : local + static_cast<int>(i < n ? offset : rotation_offset);
        };
        for (unsigned int i = 0; i < 2 * n; ++i)
          for (unsigned int j = 0; j < 2 * n; ++j)
            if (global(i) >= 0 && global(j) >= 0)
              stiffness_entries.emplace_back(global(i), global(j), k[i * 2 * n + j]);
      }
  }

  double LagrangeField::strain_energy(const double stiffness, const double *u) const
  {
    // ½ ∫ stiffness u'² from the strain at the Gauss points: a sum of squares.
    const auto             &fe = shapes_->fe;
    const dealii::QGauss<1> quadrature(fe.degree + 1);
    double                  energy = 0.0;
    for (const auto &element : table_.elements)
      {
        const double h = element.x_right - element.x_left;
        for (unsigned int q = 0; q < quadrature.size(); ++q)
          {
            double strain = 0.0;
            for (unsigned int i = 0; i < fe.n_dofs_per_cell(); ++i)
              if (free_[element.dofs[i]] >= 0)
                strain += fe.shape_grad(i, quadrature.point(q))[0] / h * u[free_[element.dofs[i]]];
            energy += 0.5 * stiffness * strain * strain * quadrature.weight(q) * h;
          }
      }
    return energy;
  }

  Row LagrangeField::row(const double x, const unsigned int offset) const
  {
    const auto &fe = shapes_->fe;
    return element_row(table_, free_, x, offset, "rod", [&fe](const double xi, double) {
      std::vector<double> values(fe.n_dofs_per_cell());
      for (unsigned int i = 0; i < values.size(); ++i)
        values[i] = fe.shape_value(i, dealii::Point<1>(xi));
      return values;
    });
  }

  void LagrangeField::add_load(const ScalarFunction &q, const unsigned int offset, model::Vector &f) const
  {
    const auto             &fe = shapes_->fe;
    const dealii::QGauss<1> quadrature(fe.degree + 3);
    for (const auto &element : table_.elements)
      {
        const double h = element.x_right - element.x_left;
        for (unsigned int p = 0; p < quadrature.size(); ++p)
          {
            const auto  &point = quadrature.point(p);
            const double w     = quadrature.weight(p) * h * q(element.x_left + point[0] * h);
            for (unsigned int i = 0; i < fe.n_dofs_per_cell(); ++i)
              if (free_[element.dofs[i]] >= 0)
                f[free_[element.dofs[i]] + offset] += w * fe.shape_value(i, point);
          }
      }
  }

  void LagrangeField::interpolate(const ScalarFunction &u, const ScalarFunction &, const unsigned int offset,
                                  model::Vector &values) const
  {
    const auto &support = shapes_->fe.get_unit_support_points();
    for (const auto &element : table_.elements)
      for (unsigned int i = 0; i < support.size(); ++i)
        if (free_[element.dofs[i]] >= 0)
          values[free_[element.dofs[i]] + offset] = u(element.x_left + support[i][0] * (element.x_right - element.x_left));
  }
} // namespace vibroimpact::structure
