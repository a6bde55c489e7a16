// The convergence study (see the header): the checks of a case's Convergence subsection, the
// study it chooses and its files.
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/write_error.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/continuation_study.h>
#include <vibroimpact/studies/convergence_study.h>

#include <sstream>
#include <stdexcept>

namespace vibroimpact::studies
{
  namespace
  {
    // The solver can be refined as asked (a time step to halve, a number of modes to double).
    void check_refinement(const CaseFile &c, const model::StructuralModel &model)
    {
      const auto &settings = c.convergence;
      const auto &solver   = c.solver();
      const bool  refine_h = settings.refine == Refinement::time_step || settings.refine == Refinement::mesh_and_time_step;
      if (refine_h && !solver.time_step())
        throw io::InputError(c.filename, "Convergence/Refine", "solver " + solver.name() + " has no time step to refine");
      if (settings.refine == Refinement::modes && !(solver.number_of_modes().value_or(0) > 0))
        throw io::InputError(c.filename, "Convergence/Refine",
                             "solver " + solver.name() + " has no (finite) number of modes to double");
      integrators::check_run(solver, model, c.run, c.filename);
    }

    // A branch study: a Continuation section of free families, refined by the mesh, against the
    // rod's closed form or the finest mesh; the coarsest continuation set up once to check it.
    void check_branch_study(const CaseFile &c)
    {
      const auto &settings = c.convergence;
      if (!c.continuation.section_given || c.continuation.kind != periodic::OrbitKind::free)
        throw io::InputError(c.filename, "Convergence/Study",
                             "a branch study needs a Continuation section of free families (Kind = free)");
      if (settings.refine != Refinement::mesh)
        throw io::InputError(c.filename, "Convergence/Refine", "a branch study refines the mesh only");
      if (settings.exact != ExactSolution::none && settings.exact != ExactSolution::fixed_free_rod)
        throw io::InputError(c.filename, "Convergence/Exact solution",
                             "a branch study knows the closed form of the fixed-free rod only");
      if (settings.exact == ExactSolution::fixed_free_rod)
        rod_against_stop(c.description);
      prepare_continuation(c);
    }

    std::size_t finished_cycles(const ConvergenceResult &result)
    {
      return result.frequencies ? result.frequencies->rows.size()
             : result.response  ? result.response->rows.size()
                                : result.branch->meshes.size();
    }
  } // namespace

  ConvergenceSetup prepare_convergence(const CaseFile &c)
  {
    // The coarsest model, built now so that input errors surface before any output.
    const auto  model        = structure::build_model(c.description);
    const auto &settings     = c.convergence;
    const bool  refines_mesh = settings.study == ConvergenceStudy::frequencies || settings.refine == Refinement::mesh ||
                              settings.refine == Refinement::mesh_and_time_step;
    if (refines_mesh && model.n_elements == 0)
      throw io::InputError(c.filename, "Convergence/Refine", "the case has no finite elements to refine (only point masses)");
    ConvergenceSetup setup{c.filename, c.description, settings, c.solver().clone(), c.run, std::nullopt, {}, {}};
    if (settings.study == ConvergenceStudy::branch)
      {
        check_branch_study(c);
        setup.continuation = c.continuation;
        setup.moreau_jean  = c.settings_of<integrators::MoreauJeanSettings>();
        return setup;
      }
    if (settings.study == ConvergenceStudy::frequencies)
      {
        exact_frequencies(settings.exact, c.description, c.description.n_modes);
        return setup;
      }
    check_refinement(c, model);
    if (!settings.reference_run.empty())
      {
        const CaseFile rc        = read_run(c, c.find_run(settings.reference_run, "Convergence/Reference run"));
        auto           ref_model = structure::build_model(rc.description);
        integrators::check_run(rc.solver(), ref_model, rc.run, rc.filename);
        setup.reference = ConvergenceSetup::ReferenceRun{std::move(ref_model), rc.solver().clone(), rc.run};
      }
    return setup;
  }

  ConvergenceResult run_convergence(const ConvergenceSetup &setup, const std::function<void(unsigned int)> &on_cycle)
  {
    ConvergenceResult  result;
    std::ostringstream table;
    if (setup.settings.study == ConvergenceStudy::frequencies)
      {
        result.frequencies = run_modal_convergence(setup.description, setup.settings, on_cycle);
        result.frequencies->write_table(table);
        result.warnings = result.frequencies->round_off_warnings();
      }
    else if (setup.settings.study == ConvergenceStudy::branch)
      {
        result.branch = run_branch_convergence(setup.description, setup.continuation, setup.moreau_jean,
                                               setup.settings, on_cycle);
        result.branch->write_table(table);
      }
    else
      {
        std::unique_ptr<integrators::ResponseHistory> reference;
        if (setup.reference)
          reference = std::make_unique<integrators::ResponseHistory>(integrators::run_to_history(
            *setup.reference->solver, setup.reference->model, setup.reference->control));
        try
          {
            result.response = run_response_convergence(setup.description, *setup.solver, setup.control, setup.settings,
                                                       reference.get(), on_cycle);
          }
        catch (const std::invalid_argument &e)
          {
            throw io::InputError(setup.filename, "Convergence/Quantities", e.what());
          }
        result.response->write_table(table);
      }
    result.interrupt_signal = io::interrupt_signal();
    if (result.interrupt_signal != 0)
      table << "# interrupted by signal " << result.interrupt_signal << ": the " << finished_cycles(result)
            << " cycles finished before it\n";
    result.table = table.str();
    return result;
  }

  void write_convergence(const ConvergenceResult &result, io::OutputFolder &out)
  {
    if (result.response)
      {
        io::write_csv_table(out / "convergence.csv", result.response->table());
        result.response->plot(out.staging());
      }
    if (result.branch)
      {
        io::write_csv_table(out / "convergence.csv", result.branch->table());
        io::write_csv_table(out / "branches.csv", result.branch->branches_table());
        result.branch->plot(out.staging());
      }
    io::write_file(out / "convergence.txt", result.table);
    if (result.interrupt_signal != 0)
      io::write_file(out / "INTERRUPTED", "interrupted by signal " + std::to_string(result.interrupt_signal) +
                                            ": convergence.txt holds the " + std::to_string(finished_cycles(result)) +
                                            " cycles finished before it\n");
  }
} // namespace vibroimpact::studies
