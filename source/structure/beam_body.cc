// Euler–Bernoulli beam with C1 cubic Hermite elements (doc/theory.md, "Euler–Bernoulli beam").
#include <vibroimpact/structure/hermite_cubic.h>

#include <vibroimpact/structure/body.h>
#include "element_table.h"

#include <algorithm>
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

    class BeamBody : public Body
    {
    public:
      BeamBody(const BodyDescription &description,
               const std::string     &case_file,
               const std::string     &mesh_directory)
        : Body(description)
        , table_(make_element_table(description, ElementFamily::hermite_c1, case_file, mesh_directory))
      {
        std::vector<unsigned int> constrained;
        add_end_constraints(description.left, table_.left_end_dofs, constrained);
        add_end_constraints(description.right, table_.right_end_dofs, constrained);
        free_ = free_numbering(table_.n_dofs, constrained);
        n_free_ = table_.n_dofs - static_cast<unsigned int>(constrained.size());
      }

      unsigned int n_dofs() const override { return n_free_; }
      unsigned int n_elements() const override { return table_.elements.size(); }

      std::vector<model::DofKind> dof_kinds() const override
      {
        std::vector<model::DofKind> kinds(n_free_);
        for (const auto &element : table_.elements)
          for (unsigned int i = 0; i < 4; ++i)
            if (free_[element.dofs[i]] >= 0)
              kinds[free_[element.dofs[i]]] =
                (i % 2 == 0) ? model::DofKind::transverse : model::DofKind::slope;
        return kinds;
      }

      void assemble(Triplets &mass, Triplets &stiffness) const override
      {
        const double EI  = description().stiffness;
        const double rhoA = description().mass_per_length;
        for (const auto &element : table_.elements)
          {
            const double h = element.x_right - element.x_left;
            double       k[4][4] = {}, m[4][4] = {};
            for (unsigned int q = 0; q < gauss_points.size(); ++q)
              {
                const auto N   = HermiteCubic::values(gauss_points[q], h);
                const auto B   = HermiteCubic::second_derivatives(gauss_points[q], h);
                const double w = gauss_weights[q] * h;
                for (unsigned int i = 0; i < 4; ++i)
                  for (unsigned int j = 0; j < 4; ++j)
                    {
                      k[i][j] += EI * B[i] * B[j] * w;
                      m[i][j] += rhoA * N[i] * N[j] * w;
                    }
              }
            if (description().lumped_fraction == 1.0) // blends are refused for beams (case_parameters.cc)
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
                  stiffness.emplace_back(I, J, k[i][j]);
                  if (m[i][j] != 0.0)
                    mass.emplace_back(I, J, m[i][j]);
                }
          }
      }

      std::optional<double> strain_energy(const model::Vector &u) const override
      {
        // ½ ∫ EI w''² from the curvature at the Gauss points: a sum of squares, where uᵀ K u
        // would subtract nodal forces of size EI u/h³ to leave EI w''''.
        const double EI     = description().stiffness;
        double       energy = 0.0;
        for (const auto &element : table_.elements)
          {
            const double h = element.x_right - element.x_left;
            double       nodal[4];
            for (unsigned int i = 0; i < 4; ++i)
              nodal[i] = free_[element.dofs[i]] >= 0 ? u[free_[element.dofs[i]]] : 0.0;
            for (unsigned int q = 0; q < gauss_points.size(); ++q)
              {
                const auto B         = HermiteCubic::second_derivatives(gauss_points[q], h);
                const double curvature = B[0] * nodal[0] + B[1] * nodal[1] + B[2] * nodal[2] + B[3] * nodal[3];
                energy += 0.5 * EI * curvature * curvature * gauss_weights[q] * h;
              }
          }
        return energy;
      }

      Row displacement_row(const double x) const override
      {
        const int e = find_element(table_, x);
        if (e < 0)
          throw std::out_of_range("outside the beam");
        const auto  &element = table_.elements[e];
        const double h       = element.x_right - element.x_left;
        const auto   N       = HermiteCubic::values((x - element.x_left) / h, h);
        Row          row;
        for (unsigned int i = 0; i < 4; ++i)
          if (free_[element.dofs[i]] >= 0 && N[i] != 0.0)
            row.emplace_back(free_[element.dofs[i]], N[i]);
        return row;
      }

      model::Vector distributed_load(const ScalarFunction &q) const override
      {
        model::Vector f = model::Vector::Zero(n_free_);
        for (const auto &element : table_.elements)
          {
            const double h = element.x_right - element.x_left;
            for (unsigned int p = 0; p < gauss_points.size(); ++p)
              {
                const auto   N = HermiteCubic::values(gauss_points[p], h);
                const double w = gauss_weights[p] * h * q(element.x_left + gauss_points[p] * h);
                for (unsigned int i = 0; i < 4; ++i)
                  if (free_[element.dofs[i]] >= 0)
                    f[free_[element.dofs[i]]] += w * N[i];
              }
          }
        return f;
      }

      model::Vector interpolate(const ScalarFunction &u, const ScalarFunction &du) const override
      {
        model::Vector values = model::Vector::Zero(n_free_);
        for (const auto &element : table_.elements)
          {
            const double nodal[4] = {u(element.x_left), du(element.x_left), u(element.x_right), du(element.x_right)};
            for (unsigned int i = 0; i < 4; ++i)
              if (free_[element.dofs[i]] >= 0)
                values[free_[element.dofs[i]]] = nodal[i];
          }
        return values;
      }

      std::vector<double> sample_coordinates(const unsigned int samples_per_element) const override
      {
        return uniform_samples(table_, samples_per_element);
      }

      std::array<double, 3> motion_direction() const override { return description().deflection; }

    private:
      static void add_end_constraints(const EndCondition               condition,
                                      const std::vector<unsigned int> &end_dofs,
                                      std::vector<unsigned int>       &constrained)
      {
        // end_dofs = {value, slope}
        if (condition == EndCondition::pinned || condition == EndCondition::clamped)
          constrained.push_back(end_dofs[0]);
        if (condition == EndCondition::sliding || condition == EndCondition::clamped)
          constrained.push_back(end_dofs[1]);
      }

      ElementTable     table_;
      std::vector<int> free_;
      unsigned int     n_free_ = 0;
    };
  } // namespace

  std::vector<double> uniform_samples(const ElementTable &table, const unsigned int samples_per_element)
  {
    std::vector<double> x;
    const unsigned int  s = std::max(1u, samples_per_element);
    for (const auto &element : table.elements)
      for (unsigned int k = 0; k < s; ++k)
        x.push_back(element.x_left + (element.x_right - element.x_left) * k / s);
    if (!table.elements.empty())
      x.push_back(table.elements.back().x_right);
    return x;
  }

  namespace
  {
    const BodyKindRegistration registration{
      {"beam", "beam: Euler–Bernoulli, C1 Hermite elements (transverse deflection and slope)", 0,
       [](const BodyDescription &description, const std::string &case_file, const std::string &mesh_directory) {
         return std::make_unique<BeamBody>(description, case_file, mesh_directory);
       }}};
  } // namespace
} // namespace vibroimpact::structure
