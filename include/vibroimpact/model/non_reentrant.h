// The libraries under the solvers that keep mutable global state between calls, and the one lock
// each that makes their calls take turns, so that several cases can be solved in threads at once
// (the Python module releases the GIL; doc/python.md "Threads"). Everything else the library
// touches is per call: its own state lives in the objects of one run.
//
// Hold a lock for the whole span a library's state lives in (an ARPACK eigensolve is many calls
// sharing its Fortran SAVE variables; a LOCA run shares Teuchos' statics from its first object
// to its last). The LOCA lock is the only one held while another is taken (a run's flow
// evaluations solve LCPs, plan FFTs); the others guard library calls only: no cycle, no deadlock.
#pragma once

#include <mutex>
#include <shared_mutex>

namespace vibroimpact::model
{
  // FFTW's planner (fftw_plan_*, fftw_destroy_plan): its twiddle tables and plan cache are
  // global and unguarded (FFTW manual §5.4). fftw_execute on one's own plan needs no lock; the
  // random loads' inverse transforms, planned once per size and shared, are run under it.
  std::mutex &fftw_planner_mutex();

  // ARPACK's reverse-communication Lanczos (dsaupd/dseupd, through deal.II's ArpackSolver): its
  // state between calls is in Fortran SAVE variables, one copy per process.
  std::mutex &arpack_mutex();

  // Siconos numerics' drivers (lcp_driver_DenseMatrix, fc2d_driver, fc3d_driver): its 3-D
  // one-contact Newton solvers set and clear file-scope function pointers (Function, F,
  // jacobianF in fc3d_onecontact_nonsmooth_Newton_solvers.c, Siconos 4.4).
  std::mutex &siconos_mutex();

  // Trilinos LOCA/NOX over Teuchos, built without HAVE_TEUCHOS_THREAD_SAFE (Debian's Trilinos
  // 13): reference counts are not atomic and the default streams and parameter validators are
  // shared statics. One continuation run (stepper, groups, parameter lists) at a time.
  std::mutex &loca_mutex();

  // OpenBLAS's thread count is the process's, and a product's partial sums round differently
  // with another count (ARPACK's, LOCA's and Siconos' BLAS calls: the six-support beam's energy,
  // the tube's frequencies change in their last bits). A run that sets it (a sweep:
  // studies::OneBlasThread) holds this exclusively; a run that must give its serial bits while
  // others run in threads holds it shared (the Python module's verbs).
  std::shared_mutex &blas_threads_mutex();
} // namespace vibroimpact::model
