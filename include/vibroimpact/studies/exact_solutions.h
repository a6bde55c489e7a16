// Closed-form natural frequencies the finite elements are verified against (doc/theory.md), and
// the closed-form nonsmooth mode a branch study measures FE branches against.
#pragma once

#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/structure/case_description.h>

#include <string>
#include <vector>

namespace vibroimpact::studies
{
  enum class ExactSolution
  {
    none,
    pinned_pinned_beam, // omega_j = (j pi)^2 sqrt(EI / rho A) / L^2
    clamped_free_beam,  // omega_j = (beta_j L)^2 sqrt(EI / rho A) / L^2, cos bL cosh bL = -1
    fixed_free_rod,     // omega_j = (2j - 1) pi c / (2 L), c = sqrt(EA / rho A)
    pinned_pinned_timoshenko_beam // both branches of its dispersion relation at k = j pi / L
  };

  // The j-th root (j from 1) of cos x cosh x = -1.
  double clamped_free_root(unsigned int j);

  // The first n angular frequencies of the one body of the case. Throws io::InputError
  // (parameter "Convergence/Exact solution") when the case is not that structure.
  std::vector<double> exact_frequencies(ExactSolution                      solution,
                                        const structure::CaseDescription &description,
                                        unsigned int                       n);

  // The continuum of a fixed–free rod whose free end meets a rigid stop at gap g (one rod, one
  // contact at x = L on the ground, on the side the end moves toward when stretched), for the
  // closed-form first nonsmooth mode (periodic::rod_first_nonsmooth_mode). Throws io::InputError
  // (parameter "Convergence/Exact solution") when the case is not that structure.
  periodic::Rod rod_against_stop(const structure::CaseDescription &description);
} // namespace vibroimpact::studies
