// Convergence studies: `vibroimpact converge`. The "Convergence" subsection chooses the study:
//  - frequencies (modal_convergence.h): natural frequencies on bisected meshes;
//  - response: the case run through its solver on successively refined discretisations (the
//    mesh, the time step, both at a fixed ratio h ∝ dx, or the number of modes: each cycle
//    halves dx or h, or doubles the modes), with quantities read from each run's response
//    history by name, their errors against exact values, a reference run or the finest cycle,
//    and observed rates (deal.II ConvergenceTable), plus a Richardson estimate where no
//    reference is given;
//  - branch (branch_convergence.h): the case's Continuation family traced on bisected meshes,
//    its frequency and contact fraction at fixed energies against a closed form or the finest mesh.
//
// Quantities ("Convergence/Quantities", separated by ';', each optionally "= exact value"):
//   impact time(k[, contact])        time of the k-th impact (of the contact; default: any)
//   impact impulse(k[, contact])     its impulse
//   contact duration(k[, contact])   from the impact that starts the k-th sticking phase to its
//                                     separation (a persistent contact: the bar on the wall)
//   impulse(contact, t0, t1)         total impulse delivered in [t0, t1]
//   peak force(contact, t0, t1)      largest mean-over-a-row force in [t0, t1]
//   mean force(contact, t0, t1)      impulse in [t0, t1] / (t1 − t0)
//   impacts(t0, t1[, contact])       number of impacts in [t0, t1]
//   final energy                     total energy at the final time
//   rms(column[, t0, t1])            RMS of a history column (u_<probe>, force_<contact>, ...)
//   max(column[, t0, t1])            largest value of a column
//   L2(column)                       √∫(x − x_ref)² dt of a column against the reference run or
//                                     the finest cycle, on the common time span
#pragma once

#include <vibroimpact/integrators/response_history.h>
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/csv_table.h>
#include <vibroimpact/structure/case_description.h>
#include <vibroimpact/studies/exact_solutions.h>

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace vibroimpact::io
{
  class ParameterSection;
}

namespace vibroimpact::studies
{
  enum class ConvergenceStudy
  {
    frequencies,
    response,
    branch
  };

  enum class Refinement
  {
    mesh,               // every body bisected once more per cycle
    time_step,          // the solver's time step halved per cycle
    mesh_and_time_step, // both: h ∝ dx
    modes               // the solver's number of modes doubled per cycle
  };

  struct ConvergenceSettings
  {
    ConvergenceStudy         study    = ConvergenceStudy::frequencies;
    ExactSolution            exact    = ExactSolution::none; // frequencies
    unsigned int             n_cycles = 4;
    Refinement               refine   = Refinement::mesh;
    std::vector<std::string> quantities;    // response
    std::string              reference_run; // a "Run <name>"; empty: exact values or the finest cycle
    std::vector<double>      energies;      // branch: where the branches are compared; empty: chosen
    // branch: each mesh's orbit solved at each of the energies (Newton from the family's start),
    // not the family traced and interpolated: for meshes where a whole family costs too long.
    bool                     orbits_at_energies = false;
  };

  void bind_convergence_parameters(io::ParameterSection &section, ConvergenceSettings &settings);

  // One quantity of a response history (the grammar above).
  class ResponseQuantity
  {
  public:
    // Throws std::invalid_argument with the reason when the text is not a quantity.
    explicit ResponseQuantity(const std::string &text);

    const std::string    &name() const { return name_; } // as written, without "= exact"
    std::optional<double> exact() const { return exact_; }
    // L2(column): a difference, measured against another run rather than a value.
    bool is_difference() const { return kind_ == "L2"; }

    // Throws std::invalid_argument when the contact or column it names is not in histories of
    // this shape (check before running anything).
    void check_names(const integrators::ResponseHistory &history) const;

    // Throws std::invalid_argument naming what the history lacks (a column, the k-th impact).
    double evaluate(const integrators::ResponseHistory &history, const integrators::ResponseHistory *against,
                    double final_time) const;

  private:
    std::string              name_, kind_;
    std::vector<std::string> args_;
    std::optional<double>    exact_;
  };

  struct ResponseConvergenceRow
  {
    unsigned int        cycle = 0;
    unsigned int        n_elements = 0;
    double              time_step  = 0.0; // 0: the solver has none
    unsigned int        n_modes    = 0;   // 0: the solver has none
    double              wall_time  = 0.0;
    std::vector<double> values;           // per quantity
    std::vector<double> errors;           // per quantity, against the reference (NaN: none)
  };

  struct ResponseConvergence
  {
    std::vector<std::string>            quantities;
    std::string                         reference; // "exact", "run <name>", "finest cycle"
    std::vector<double>                 reference_values;
    std::vector<ResponseConvergenceRow> rows;
    std::vector<double>                 richardson; // per quantity (NaN where no estimate)

    // Observed rate of quantity q between rows r − 1 and r: log2(e_{r−1} / e_r).
    double observed_rate(unsigned int quantity, unsigned int row) const;
    // deal.II ConvergenceTable text with rates, and the Richardson estimates.
    void write_table(std::ostream &out) const;
    // convergence.csv: cycle, elements, time_step, modes, wall_time, value_q and error_q per
    // quantity (written by write_convergence, returned by the Python module).
    io::CsvTable table() const;
    // convergence.png: log–log errors against the refinement (gnuplot).
    void plot(const std::filesystem::path &folder) const;
  };

  // Runs the case cycle by cycle (cycle 0: as given). reference: the reference run's history, or
  // null. on_cycle(k) after each cycle.
  ResponseConvergence run_response_convergence(const structure::CaseDescription   &description,
                                               const integrators::Solver          &solver,
                                               const integrators::RunControl      &control,
                                               const ConvergenceSettings          &settings,
                                               const integrators::ResponseHistory *reference,
                                               const std::function<void(unsigned int)> &on_cycle = {});
} // namespace vibroimpact::studies
