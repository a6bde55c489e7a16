// `vibroimpact continue case.prm`: families of periodic orbits (subsection Continuation), written
// as branch.csv, a frequency–energy plot (fep.png) and, for chosen points, the orbit over one
// period (orbit_<family>_<point>.csv and .pvd).
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/studies/continuation_study.h>

#include <deal.II/base/mpi.h>

#include "rank_zero.h"
#include "verbs.h"

#include <cstdio>
#include <iostream>
#include <memory>

namespace vibroimpact::app
{
  namespace
  {
    void report_branches(const studies::ContinuationResult &result, const periodic::PeriodicFlowMap &flow,
                         const model::StructuralModel &m, const unsigned int n_ranks, const bool quiet)
    {
      if (!quiet)
        std::printf("%s: %s map, %u unknowns, %u rank%s, %.3g s\n", m.name.c_str(), flow.name().c_str(),
                    unsigned(flow.dimension()), n_ranks, n_ranks == 1 ? "" : "s", result.wall_time);
      for (const auto &branch : result.branches)
        {
          if (branch.failed)
            std::fprintf(stderr, "vibroimpact: warning: %s stopped after %zu points: %s\n", branch.family.c_str(),
                         branch.points.size(), branch.stop_reason.c_str());
          for (std::size_t k = 0; k < branch.points.size(); ++k)
            if (branch.points[k].jumped && branch.points[k].restarted)
              std::fprintf(stderr,
                           "vibroimpact: warning: %s, point %zu: a restart past a failure found only an orbit far "
                           "from the last one (at %.6g rad/s): a break in the branch (branch.csv columns 'restarted', "
                           "'jumped')\n",
                           branch.family.c_str(), k, branch.points[k].frequency);
            else if (branch.points[k].jumped)
              std::fprintf(stderr,
                           "vibroimpact: warning: %s, point %zu: the period changed by more than %g %% in one step "
                           "(T = %.6g): possibly another family (branch.csv column 'jumped')\n",
                           branch.family.c_str(), k, 100 * periodic::BranchPoint::jump_tolerance,
                           branch.points[k].period);
          if (quiet || branch.points.empty())
            continue;
          const auto &first = branch.points.front(), &last = branch.points.back();
          unsigned    stable = 0, newton = 0;
          for (const auto &p : branch.points)
            stable += p.stable, newton = std::max(newton, p.newton_iterations);
          std::printf("  %s: %zu points (%u stable), energy %.6g .. %.6g, frequency %.6g .. %.6g rad/s, impacts per "
                      "period %u .. %u, at most %u Newton iterations, %lu flow evaluations; stopped: %s\n",
                      branch.family.c_str(), branch.points.size(), stable, first.energy, last.energy, first.frequency,
                      last.frequency, first.impacts, last.impacts, newton, branch.flow_evaluations,
                      branch.stop_reason.c_str());
          for (const auto &reason : branch.restarts)
            std::printf("    restarted past: %s\n", reason.c_str());
        }
      if (result.interrupt_signal != 0)
        std::fprintf(stderr, "vibroimpact: interrupted by signal %d: the orbits converged before it are written, "
                             "marked INTERRUPTED\n", result.interrupt_signal);
    }

    // An orbit point a family stopped short of (or beyond Maximum points: a quick run of an
    // example with fewer points keeps its Orbit points): its orbit file is missing, and the user
    // is told so rather than left to look.
    void warn_orbits_not_written(const studies::ContinuationResult &result, const periodic::ContinuationCase &cc)
    {
      for (std::size_t b = 0; b < result.branches.size(); ++b)
        for (const double k : cc.orbit_points)
          if (k >= result.branches[b].points.size())
            std::fprintf(stderr,
                         "vibroimpact: warning: %s: Continuation/Orbit points: %s stopped after %zu points: no "
                         "orbit_%zu_%lu written\n",
                         cc.filename.c_str(), result.branches[b].family.c_str(), result.branches[b].points.size(), b,
                         static_cast<unsigned long>(k));
    }
  } // namespace

  int run_continue(const CommonOptions &options, int &argc, char **&argv)
  {
    dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
    io::install_interrupt_handlers(); // MPI_Init resets SIGTERM to its default
    const MPI_Comm     comm    = MPI_COMM_WORLD;
    const unsigned int n_ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
    const bool         root    = dealii::Utilities::MPI::this_mpi_process(comm) == 0;

    studies::ContinuationSetup setup;
    std::string                destination;
    if (const int code = read_on_every_rank(root,
                                            [&] {
                                              const auto c = studies::read_case_file(options.case_file, options.overrides);
                                              setup        = studies::prepare_continuation(c);
                                              destination  = output_directory(options, c.description);
                                            });
        code != io::exit_success)
      return code;
    bool       no_folder = false;
    const auto out       = open_root_output(destination, "continue", comm, no_folder);
    if (no_folder)
      return io::exit_bad_input;

    auto      &[cc, model, flow] = setup;
    const auto result            = studies::run_continuation(cc, *flow, comm, options.quiet);
    if (!root)
      return io::exit_success;
    if (!result.any_orbit())
      {
        if (result.interrupt_signal != 0)
          throw io::Interrupted(result.interrupt_signal, "during the continuation: no orbit had converged, nothing written");
        std::fprintf(stderr, "vibroimpact: error: %s\n", studies::no_orbit_message(result, cc).c_str());
        return io::exit_numerical_failure;
      }
    studies::write_continuation(result, cc, *flow, *model, *out);
    out->commit(result.interrupt_signal != 0);
    report_branches(result, *flow, *model, n_ranks, options.quiet);
    warn_orbits_not_written(result, cc);
    return result.interrupt_signal != 0 ? 128 + result.interrupt_signal : io::exit_success;
  }
} // namespace vibroimpact::app
