// `vibroimpact continue case.prm`: families of periodic orbits (subsection Continuation), written
// as branch.csv, a frequency–energy plot (fep.png) and, for chosen points, the orbit over one
// period (orbit_<family>_<point>.csv and .pvd).
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/periodic/flow_map_registry.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/continuation_study.h>

#include <deal.II/base/mpi.h>

#include "case_file.h"
#include "verbs.h"

#include <cstdio>
#include <iostream>
#include <memory>

namespace vibroimpact::app
{
  namespace
  {
    // The map Continuation/Flow map names (periodic/flow_map_registry.h); every map with impacts
    // shares the Moreau-Jean subsection's energy correction.
    std::unique_ptr<periodic::PeriodicFlowMap> make_flow(const CaseFile &c, const model::StructuralModel &model)
    {
      const auto &mj = dynamic_cast<const integrators::MoreauJeanSolver &>(c.solver("moreau-jean")).settings();
      return periodic::make_flow_map({model, c.continuation, mj});
    }

    // Every rank reads the same file and fails the same way: only rank 0 reports.
    struct ContinuationCaseRead
    {
      std::unique_ptr<CaseFile>                  c;
      std::unique_ptr<model::StructuralModel>    model;
      std::unique_ptr<periodic::PeriodicFlowMap> flow;
      std::string                                destination;
      int                                        exit_code = 0; // non-root ranks: the error's code
    };

    ContinuationCaseRead read_continuation_case(const CommonOptions &options, const bool root)
    {
      ContinuationCaseRead r;
      try
        {
          r.c     = std::make_unique<CaseFile>(read_case_file(options.case_file, options.overrides));
          r.model = std::make_unique<model::StructuralModel>(structure::build_model(r.c->description));
          periodic::check_continuation(r.c->continuation, *r.model);
          r.flow        = make_flow(*r.c, *r.model);
          r.destination = output_directory(options, r.c->description);
        }
      catch (const io::InputError &)
        {
          if (root)
            throw;
          r.exit_code = io::exit_bad_input;
        }
      catch (const std::exception &)
        {
          if (root)
            throw;
          r.exit_code = io::exit_numerical_failure;
        }
      return r;
    }

    // Rank 0's folder, checked and locked before computing; every rank learns whether it failed.
    std::unique_ptr<io::OutputFolder> open_output(const std::string &destination, const bool root,
                                                  const MPI_Comm comm, bool &failed)
    {
      std::string                       error;
      std::unique_ptr<io::OutputFolder> out;
      if (root)
        try
          {
            out = std::make_unique<io::OutputFolder>(destination, "continue");
          }
        catch (const io::InputError &e)
          {
            error = e.what();
          }
      failed = dealii::Utilities::MPI::max(error.empty() ? 0u : 1u, comm) > 0;
      if (failed && root)
        std::cerr << "vibroimpact: error: " << error << "\n";
      return out;
    }

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
            if (branch.points[k].jumped)
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
  } // namespace

  int run_continue(const CommonOptions &options, int &argc, char **&argv)
  {
    dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
    io::install_interrupt_handlers(); // MPI_Init resets SIGTERM to its default
    const MPI_Comm     comm    = MPI_COMM_WORLD;
    const unsigned int n_ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
    const bool         root    = dealii::Utilities::MPI::this_mpi_process(comm) == 0;

    auto read = read_continuation_case(options, root);
    if (read.exit_code != 0)
      return read.exit_code;
    bool       no_folder = false;
    const auto out       = open_output(read.destination, root, comm, no_folder);
    if (no_folder)
      return io::exit_bad_input;

    const auto &cc     = read.c->continuation;
    const auto  result = studies::run_continuation(cc, *read.flow, comm, options.quiet);
    if (!root)
      return io::exit_success;
    if (!result.any_orbit())
      {
        if (result.interrupt_signal != 0)
          throw io::Interrupted(result.interrupt_signal, "during the continuation: no orbit had converged, nothing written");
        for (const auto &branch : result.branches)
          std::fprintf(stderr, "vibroimpact: error: %s: %s\n", branch.family.c_str(), branch.stop_reason.c_str());
        std::fprintf(stderr, "vibroimpact: error: no periodic orbit converged (nothing written)\n");
        return io::exit_numerical_failure;
      }
    studies::write_continuation(result, cc, *read.flow, *read.model, *out);
    out->commit(result.interrupt_signal != 0);
    report_branches(result, *read.flow, *read.model, n_ranks, options.quiet);
    return result.interrupt_signal != 0 ? 128 + result.interrupt_signal : io::exit_success;
  }
} // namespace vibroimpact::app
