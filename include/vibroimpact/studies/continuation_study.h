// The continuation study of a case's Continuation subsection: its families (or its forced
// response) traced on a period map, one family a rank over MPI and gathered on rank 0 in the
// order of Families; then written as branch.csv, the chosen orbits (orbit_<b>_<k>.csv + .pvd)
// and the frequency–energy plot (fep.png). The `continue` verb and the Python module both call
// it. On SIGINT/SIGTERM the branches keep the orbits converged so far, written and marked
// INTERRUPTED.
#pragma once

#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/studies/continuation_curves.h>
#include <vibroimpact/integrators/moreau_jean_settings.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/structure/case_description.h>

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::studies
{
  struct CaseFile;

  // The case's model and the period map Continuation/Flow map names (its time-stepping settings
  // from the Moreau-Jean subsection, through the solver registry), checked: io::InputError.
  struct ContinuationSetup
  {
    periodic::ContinuationCase                 continuation;
    std::unique_ptr<model::StructuralModel>    model; // the flow keeps a reference to it
    std::unique_ptr<periodic::PeriodicFlowMap> flow;
    // With Continuation/Follow: the map as a function of Second parameter (from a case file only).
    CurveSetup curves;
  };
  ContinuationSetup prepare_continuation(const CaseFile &c);
  // The same from its parts (the mesh-convergence study builds one per refined description).
  ContinuationSetup prepare_continuation(const structure::CaseDescription &description,
                                         const periodic::ContinuationCase &continuation,
                                         const integrators::MoreauJeanSettings &moreau_jean);

  struct ContinuationResult
  {
    std::vector<periodic::Branch> branches;           // on rank 0, in the order of Families
    std::vector<double>           linear_frequencies; // free families: ω of each family's mode
    // With Continuation/Follow: the curves of special points, on rank 0 (continuation_curves.h).
    std::vector<periodic::SpecialPointCurve> curves;
    // How the orbits were solved ("event-driven map": shooting on it; "harmonic balance H=41 N=512
    // on the event-driven map's model") and an orbit's unknowns (a free family's two more aside).
    std::string                   method;
    unsigned int                  unknowns = 0;
    int                           interrupt_signal = 0; // the signal that stopped it, 0: none
    double                        wall_time        = 0; // seconds

    bool any_orbit() const;
  };

  // What `continue` says, on one line, when no family has an orbit: the case file, each family
  // with why it stopped (families that stopped alike together), and the entry whose value to
  // change: the start's (Start energy factor, Simulation time, Start period, Minimum frequency),
  // unless the reason names one itself.
  std::string no_orbit_message(const ContinuationResult &result, const periodic::ContinuationCase &c);

  // The families a case traces (each a linear mode; one for a forced response or a start that is
  // not a linear mode), in the order of Families.
  std::vector<double> families_of(const periodic::ContinuationCase &cc);

  // Every rank calls it; the result is complete on rank 0 only. Throws io::InputError for a
  // family the flow cannot start, NumericalFailure for a rank's failure (none after a signal).
  ContinuationResult run_continuation(const periodic::ContinuationCase &c, periodic::PeriodicFlowMap &flow,
                                      MPI_Comm comm, bool quiet);

  // The case's families traced one after another on this process, without MPI (what
  // run_continuation does on one rank): for studies that run many continuations (`converge`).
  // Throws as run_continuation.
  std::vector<periodic::Branch> trace_families(const periodic::ContinuationCase &cc, periodic::PeriodicFlowMap &flow,
                                               bool quiet);

  // Per branch, per point: the internal-resonance tongue it lies on (periodic/tongues.h), empty
  // on the backbone and for forced responses: branch.csv's `tongue` column.
  std::vector<std::vector<std::string>> tongue_labels(const std::vector<periodic::Branch> &branches,
                                                      const periodic::ContinuationCase    &cc,
                                                      const periodic::PeriodicFlowMap     &flow);

  // branch.csv's columns and rows (one row per orbit; the probes at t = Sampling phase T of one
  // sampled period), as write_continuation writes them and the Python module returns them.
  io::CsvTable branch_table(const ContinuationResult &result, const periodic::ContinuationCase &c,
                            periodic::PeriodicFlowMap &flow, const model::StructuralModel &model);
  // at_frequencies.csv (forced responses with Report frequencies): the branches' orbits at those
  // frequencies, with branch.csv's columns up to the probes' (`point`: the branch point before).
  io::CsvTable at_frequencies_table(const ContinuationResult &result, const periodic::ContinuationCase &c,
                                    periodic::PeriodicFlowMap &flow, const model::StructuralModel &model);

  // One period of a branch point (Continuation/Orbit points) sampled at Orbit samples times:
  // orbit_<family>_<point>.csv's table (time, total_energy, gap_<contact>, u_ and v_<probe>) and
  // the states of every DoF, which orbit_<family>_<point>.pvd draws.
  struct SampledOrbit
  {
    std::string            name; // orbit_<family>_<point>
    std::size_t            family = 0, point = 0;
    periodic::OrbitSamples samples;
    io::CsvTable           table;
  };
  // The Orbit points of every family that has them (a family that stopped short has fewer).
  std::vector<SampledOrbit> sampled_orbits(const ContinuationResult &result, const periodic::ContinuationCase &c,
                                           periodic::PeriodicFlowMap &flow, const model::StructuralModel &model);

  // What `continue` warns of after a run, a line each: families that stopped on a failure,
  // points flagged `jumped` (a period change, or a restart that found only a far orbit), and
  // Orbit points a family stopped short of.
  std::vector<std::string> continuation_warnings(const ContinuationResult &result, const periodic::ContinuationCase &c);

  // Per family: family, points, stable, first/last energy and frequency, the impacts per period
  // at both ends, the most Newton iterations, flow evaluations and why it stopped.
  io::CsvTable families_table(const ContinuationResult &result);
  // The summary `continue` prints: the method and its size (ContinuationResult::method, unknowns),
  // then a line per family (from families_table) and one per restart.
  std::vector<std::string> continuation_summary(const ContinuationResult &result, const model::StructuralModel &model,
                                                unsigned int n_ranks);

  // branch.csv, the orbits of Orbit points, fep.gp/fep.png and, after a signal, INTERRUPTED.
  void write_continuation(const ContinuationResult &result, const periodic::ContinuationCase &c,
                          periodic::PeriodicFlowMap &flow, const model::StructuralModel &model,
                          io::OutputFolder &out);
} // namespace vibroimpact::studies
