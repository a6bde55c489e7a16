// Axial (St Venant) rod with deal.II's FE_Q elements of degree 1 or 2 (doc/theory.md, "Axial rod").
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/fe/fe_q.h>

#include <vibroimpact/structure/body.h>
#include "element_table.h"

#include <stdexcept>

namespace vibroimpact::structure
{
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

    class RodBody : public Body
    {
    public:
      RodBody(const BodyDescription &description,
              const std::string     &case_file,
              const std::string     &mesh_directory)
        : Body(description)
        , fe_(description.degree)
        , table_(make_element_table(description, ElementFamily::lagrange, case_file, mesh_directory))
      {
        std::vector<unsigned int> constrained;
        if (description.left == EndCondition::clamped)
          constrained.push_back(table_.left_end_dofs[0]);
        if (description.right == EndCondition::clamped)
          constrained.push_back(table_.right_end_dofs[0]);
        free_   = free_numbering(table_.n_dofs, constrained);
        n_free_ = table_.n_dofs - static_cast<unsigned int>(constrained.size());
      }

      unsigned int n_dofs() const override { return n_free_; }
      unsigned int n_elements() const override { return table_.elements.size(); }
      std::vector<model::DofKind> dof_kinds() const override
      {
        return std::vector<model::DofKind>(n_free_, model::DofKind::axial);
      }

      void assemble(Triplets &mass, Triplets &stiffness) const override
      {
        const double             EA   = description().stiffness;
        const double             rhoA = description().mass_per_length;
        const dealii::QGauss<1>  quadrature(fe_.degree + 1);
        const unsigned int       n = fe_.n_dofs_per_cell();
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
                      k[i * n + j] += EA * fe_.shape_grad(i, p)[0] * fe_.shape_grad(j, p)[0] / (h * h) * w;
                      m[i * n + j] += rhoA * fe_.shape_value(i, p) * fe_.shape_value(j, p) * w;
                    }
              }
            blend_with_lumped(m, n, description().lumped_fraction);
            for (unsigned int i = 0; i < n; ++i)
              for (unsigned int j = 0; j < n; ++j)
                {
                  const int I = free_[element.dofs[i]], J = free_[element.dofs[j]];
                  if (I < 0 || J < 0)
                    continue;
                  stiffness.emplace_back(I, J, k[i * n + j]);
                  if (m[i * n + j] != 0.0)
                    mass.emplace_back(I, J, m[i * n + j]);
                }
          }
      }

      Row displacement_row(const double x) const override
      {
        const int e = find_element(table_, x);
        if (e < 0)
          throw std::out_of_range("outside the rod");
        const auto  &element = table_.elements[e];
        const double h       = element.x_right - element.x_left;
        const dealii::Point<1> p((x - element.x_left) / h);
        Row row;
        for (unsigned int i = 0; i < fe_.n_dofs_per_cell(); ++i)
          {
            const double value = fe_.shape_value(i, p);
            if (free_[element.dofs[i]] >= 0 && value != 0.0)
              row.emplace_back(free_[element.dofs[i]], value);
          }
        return row;
      }

      model::Vector distributed_load(const ScalarFunction &q) const override
      {
        const dealii::QGauss<1> quadrature(fe_.degree + 3);
        model::Vector           f = model::Vector::Zero(n_free_);
        for (const auto &element : table_.elements)
          {
            const double h = element.x_right - element.x_left;
            for (unsigned int p = 0; p < quadrature.size(); ++p)
              {
                const auto  &point = quadrature.point(p);
                const double w     = quadrature.weight(p) * h * q(element.x_left + point[0] * h);
                for (unsigned int i = 0; i < fe_.n_dofs_per_cell(); ++i)
                  if (free_[element.dofs[i]] >= 0)
                    f[free_[element.dofs[i]]] += w * fe_.shape_value(i, point);
              }
          }
        return f;
      }

      model::Vector interpolate(const ScalarFunction &u, const ScalarFunction &) const override
      {
        model::Vector values = model::Vector::Zero(n_free_);
        const auto   &support = fe_.get_unit_support_points();
        for (const auto &element : table_.elements)
          for (unsigned int i = 0; i < support.size(); ++i)
            if (free_[element.dofs[i]] >= 0)
              values[free_[element.dofs[i]]] =
                u(element.x_left + support[i][0] * (element.x_right - element.x_left));
        return values;
      }

      std::vector<double> sample_coordinates(const unsigned int samples_per_element) const override
      {
        return uniform_samples(table_, samples_per_element);
      }

      std::array<double, 3> motion_direction() const override { return description().axis; }

    private:
      dealii::FE_Q<1>  fe_;
      ElementTable     table_;
      std::vector<int> free_;
      unsigned int     n_free_ = 0;
    };
  } // namespace

  namespace
  {
    const BodyKindRegistration registration{
      {"rod", "rod: axial, FE_Q elements", 1,
       [](const BodyDescription &description, const std::string &case_file, const std::string &mesh_directory) {
         return std::make_unique<RodBody>(description, case_file, mesh_directory);
       }}};
  } // namespace
} // namespace vibroimpact::structure
