// The convergence study of a case (`vibroimpact converge`, the Python module's Case.converge()),
// chosen by its Convergence subsection: natural frequencies on bisected meshes
// (modal_convergence.h) or response quantities under mesh, time-step or mode refinement
// (convergence.h) or a Continuation branch on bisected meshes at fixed energies
// (branch_convergence.h), returned as data with the table text; write_convergence then writes
// convergence.txt and, for a response, convergence.csv and convergence.png (for a branch also
// branches.csv and branches.png), and after a signal INTERRUPTED.
// As every study: prepare (all input checks, before any output), run, write.
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/integrators/moreau_jean_settings.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/studies/branch_convergence.h>
#include <vibroimpact/studies/convergence.h>
#include <vibroimpact/studies/modal_convergence.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class OutputFolder;
}

namespace vibroimpact::studies
{
  struct CaseFile;

  struct ConvergenceSetup
  {
    std::string                                filename;
    structure::CaseDescription                 description;
    ConvergenceSettings                        settings;
    std::shared_ptr<const integrators::Solver> solver; // response studies
    integrators::RunControl                    control;
    // The reference run (Convergence/Reference run), read with its own overrides: its model,
    // solver and control; run first.
    struct ReferenceRun
    {
      model::StructuralModel                     model;
      std::shared_ptr<const integrators::Solver> solver;
      integrators::RunControl                    control;
    };
    std::optional<ReferenceRun> reference;
    // Branch studies: the Continuation subsection and the Moreau-Jean settings its flow maps share.
    periodic::ContinuationCase      continuation;
    integrators::MoreauJeanSettings moreau_jean;
  };

  struct ConvergenceResult
  {
    std::optional<ModalConvergence>    frequencies; // Convergence/Study = frequencies
    std::optional<ResponseConvergence> response;    // Convergence/Study = response
    std::optional<BranchConvergence>   branch;      // Convergence/Study = branch
    std::string                        table;       // convergence.txt
    std::vector<std::string>           warnings;    // round-off in the finest meshes
    int                                interrupt_signal = 0; // the signal that stopped it, 0: none
  };

  // Builds the coarsest model (input errors before any output) and checks that the refinement
  // applies to the case and its solver: io::InputError naming Convergence/<Entry>.
  ConvergenceSetup prepare_convergence(const CaseFile &c);
  // on_cycle(k) after cycle k. After SIGINT/SIGTERM: the cycles finished before it, marked
  // with interrupt_signal (io::Interrupted when none had finished).
  ConvergenceResult run_convergence(const ConvergenceSetup &setup, const std::function<void(unsigned int)> &on_cycle = {});
  void              write_convergence(const ConvergenceResult &result, io::OutputFolder &out);
} // namespace vibroimpact::studies
