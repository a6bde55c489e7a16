// One attempt of a Siconos numerics solver, owned: the dense matrix it was given and its solver
// options, freed however the attempt ends. Shared by the LCP and friction-contact wrappers.
#pragma once

#include <NumericsMatrix.h>
#include <SolverOptions.h>

#include <cstdlib>

namespace vibroimpact::contact
{
  // The matrix is allocated by NM_create (so NM_free frees memory Siconos owns:
  // NM_create_from_data would not copy), and the options are created per attempt (lcp_enum keeps
  // work buffers sized for one problem in its options). A problem struct that points at them is
  // the caller's, on the stack: frictionContactProblem_free would free its q and μ too.
  struct SiconosAttempt
  {
    NumericsMatrix *matrix  = nullptr;
    SolverOptions  *options = nullptr;

    SiconosAttempt() = default;
    SiconosAttempt(const SiconosAttempt &) = delete;
    SiconosAttempt &operator=(const SiconosAttempt &) = delete;
    ~SiconosAttempt()
    {
      if (matrix)
        NM_free(matrix);
      if (options)
        {
          solver_options_delete(options); // frees the contents only
          std::free(options);
        }
    }
  };
} // namespace vibroimpact::contact
