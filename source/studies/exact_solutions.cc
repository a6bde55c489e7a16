// Closed-form natural frequencies the convergence studies measure against (see
// studies/exact_solutions.h).
#include <vibroimpact/structure/body.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/studies/exact_solutions.h>
#include <vibroimpact/structure/timoshenko_description.h>

#include <boost/math/tools/roots.hpp>

#include <cmath>

namespace vibroimpact::studies
{
  double clamped_free_root(const unsigned int j)
  {
    // cos x + 1 / cosh x changes sign once in [(j-1) pi, j pi]; this form does not overflow.
    const auto f = [](double x) { return std::cos(x) + 1.0 / std::cosh(x); };
    const double lower = (j - 1) * M_PI, upper = j * M_PI;
    std::uintmax_t iterations = 200;
    const auto [a, b] = boost::math::tools::toms748_solve(
      f, lower, upper, boost::math::tools::eps_tolerance<double>(52), iterations);
    return 0.5 * (a + b);
  }

  std::vector<double> exact_frequencies(const ExactSolution                solution,
                                        const structure::CaseDescription &description,
                                        const unsigned int                 n)
  {
    using structure::BodyType;
    using structure::EndCondition;
    const auto fail = [&](const std::string &reason) {
      throw io::InputError(description.filename, "Convergence/Exact solution", reason);
    };
    if (solution == ExactSolution::none)
      return {};
    if (description.bodies.size() != 1 || !description.elements.empty())
      fail("an exact solution needs a case of exactly one body and no lumped elements");
    const auto &body = description.bodies.front();
    // The closed forms are of one planar Euler–Bernoulli beam or one axial rod.
    const auto &kind = structure::kind_traits(body.type);
    const bool  beam = kind.bending && !kind.in_space, rod = !kind.bending && !kind.point;

    std::vector<double> omegas;
    switch (solution)
      {
        case ExactSolution::pinned_pinned_beam:
          if (!beam || body.left != EndCondition::pinned || body.right != EndCondition::pinned)
            fail("'pinned-pinned beam' needs a beam with both ends pinned");
          for (unsigned int j = 1; j <= n; ++j)
            omegas.push_back(std::pow(j * M_PI / body.length, 2) * std::sqrt(body.stiffness / body.mass_per_length));
          break;
        case ExactSolution::clamped_free_beam:
          if (!beam || body.left != EndCondition::clamped || body.right != EndCondition::free)
            fail("'clamped-free beam' needs a beam clamped at x = 0 and free at x = L");
          for (unsigned int j = 1; j <= n; ++j)
            omegas.push_back(std::pow(clamped_free_root(j) / body.length, 2) *
                             std::sqrt(body.stiffness / body.mass_per_length));
          break;
        case ExactSolution::fixed_free_rod:
          if (!rod || body.left != EndCondition::clamped || body.right != EndCondition::free)
            fail("'fixed-free rod' needs a rod fixed at x = 0 and free at x = L");
          for (unsigned int j = 1; j <= n; ++j)
            omegas.push_back((2.0 * j - 1) * M_PI / (2 * body.length) *
                             std::sqrt(body.stiffness / body.mass_per_length));
          break;
        case ExactSolution::pinned_pinned_timoshenko_beam:
          {
            if (body.type.name() != "timoshenko beam" || body.left != EndCondition::pinned ||
                body.right != EndCondition::pinned)
              fail("'pinned-pinned timoshenko beam' needs a timoshenko beam with both ends pinned");
            const auto &t = body.kind_entries<structure::TimoshenkoDescription>();
            omegas = structure::pinned_pinned_timoshenko_frequencies(body.stiffness, t.shear_stiffness,
                                                                     body.mass_per_length, t.rotary_inertia,
                                                                     body.length, n);
          }
          break;
        case ExactSolution::none:
          break;
      }
    return omegas;
  }

  periodic::Rod rod_against_stop(const structure::CaseDescription &description)
  {
    const auto fail = [&](const std::string &reason) {
      throw io::InputError(description.filename, "Convergence/Exact solution",
                           "the rod's nonsmooth mode needs " + reason);
    };
    exact_frequencies(ExactSolution::fixed_free_rod, description, 1); // one fixed-free rod
    const auto &body = description.bodies.front();
    if (description.contacts.size() != 1)
      fail("exactly one contact");
    const auto &contact = description.contacts.front();
    // The stop must face the end's positive displacement (side above: g = g0 − u(L)).
    if (contact.point.body != body.name || std::abs(contact.point.x - body.length) > 1e-12 * body.length ||
        !contact.other.is_ground() || contact.side != structure::ContactSide::above || !(contact.gap > 0))
      fail("its contact at the free end x = L, on the ground, side above, with a positive gap");
    periodic::Rod rod;
    rod.length     = body.length;
    rod.EA         = body.stiffness;
    rod.wave_speed = std::sqrt(body.stiffness / body.mass_per_length);
    rod.gap        = contact.gap;
    return rod;
  }
} // namespace vibroimpact::studies
