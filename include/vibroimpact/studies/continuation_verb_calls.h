// The library calls of `continue` and `converge` (see studies/verb_calls.h), in the continuation
// library with the studies they run, made by the command line and the Python module alike.
#pragma once

#include <vibroimpact/studies/continuation_study.h>
#include <vibroimpact/studies/convergence_study.h>
#include <vibroimpact/studies/verb_calls.h>

#include <mpi.h>

namespace vibroimpact::studies
{
  // Read, prepared, the folder opened, the cycles run as one progress phase (a bar drawn unless
  // quiet), written and committed (an interrupted study's finished cycles: see VerbCallOptions).
  ConvergenceResult converge_verb(const VerbCallOptions &options);

  // After each rank prepared `setup` (rank 0 with the folder, the others none): this rank's
  // families, one progress phase each, then on rank 0, when an orbit converged, the files written
  // and committed. A result without orbits is returned unwritten (the caller says why).
  ContinuationResult continuation_verb(ContinuationSetup &setup, MPI_Comm comm, io::OutputFolder *out,
                                       const VerbCallOptions &options);

  // How many families rank `rank` of `n_ranks` traces: one for a forced response or a start that
  // is not a linear mode, else its share of Continuation/Families (round-robin).
  unsigned int families_on_rank(const periodic::ContinuationCase &cc, unsigned int rank, unsigned int n_ranks);
} // namespace vibroimpact::studies
