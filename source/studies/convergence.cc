// Convergence of response quantities (impacts, forces, norms of history columns) under mesh,
// time-step or mode refinement, against exact values, a reference run or the finest cycle.
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/parameter_file.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/convergence.h>

#include <deal.II/base/convergence_table.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace vibroimpact::studies
{
  namespace
  {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();

    double to_number(const std::string &text, const std::string &what)
    {
      try
        {
          std::size_t used  = 0;
          const double value = std::stod(text, &used);
          if (used == text.size() && std::isfinite(value))
            return value;
        }
      catch (const std::exception &)
        {}
      throw std::invalid_argument(what + " '" + text + "' is not a number");
    }

    unsigned int to_index(const std::string &text)
    {
      const double k = to_number(text, "the index");
      if (!(k >= 1) || k != std::floor(k))
        throw std::invalid_argument("the index '" + text + "' must be 1, 2, ...");
      return static_cast<unsigned int>(k);
    }

    // A contact's index: a planar contact's in contact_names(), a support in space's after them
    // (n_contacts + its index in support_names()), so that every quantity naming a contact takes
    // either.
    int contact_index(const integrators::ResponseHistory &h, const std::string &name)
    {
      const auto &names = h.contact_names();
      const auto  it    = std::find(names.begin(), names.end(), name);
      if (it != names.end())
        return static_cast<int>(it - names.begin());
      const auto &supports = h.support_names();
      const auto  in_space = std::find(supports.begin(), supports.end(), name);
      if (in_space == supports.end())
        throw std::invalid_argument("the case has no contact named '" + name + "'");
      return static_cast<int>(names.size() + (in_space - supports.begin()));
    }

    using Arguments = std::vector<std::string>;

    // [t0, t1] from the arguments at `first` and after, by default the whole run.
    std::pair<double, double> window(const Arguments &args, const std::size_t first, const double final_time)
    {
      return std::pair<double, double>{args.size() > first ? to_number(args[first], "t0") : 0.0,
                                       args.size() > first + 1 ? to_number(args[first + 1], "t1") : final_time};
    }

    // The impacts at one contact (contact < 0: at all of them, planar and in space), in time order;
    // a support in space's carry its contact_index().
    std::vector<integrators::ContactEvent> impacts_of(const integrators::ResponseHistory &h, const int contact)
    {
      std::vector<integrators::ContactEvent> out;
      for (const auto &e : h.impacts())
        if (contact < 0 || static_cast<int>(e.contact) == contact)
          out.push_back(e);
      const auto n_planar = static_cast<unsigned int>(h.contact_names().size());
      for (const auto &e : h.support_events())
        if (e.kind == integrators::ContactEvent::Kind::impact &&
            (contact < 0 || static_cast<int>(n_planar + e.support) == contact))
          {
            integrators::ContactEvent impact;
            impact.time          = e.time;
            impact.contact       = n_planar + e.support;
            impact.pre_velocity  = e.pre_velocity;
            impact.post_velocity = e.post_velocity;
            impact.impulse       = e.impulse;
            out.push_back(impact);
          }
      std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.time < b.time; });
      return out;
    }

    // ∫ f dt over [t0, t1] on the rows (trapezoids), and the span covered.
    std::pair<double, double> integral(const std::vector<double> &times, const std::vector<double> &f, const double t0,
                                       const double t1)
    {
      double sum = 0, span = 0;
      for (std::size_t k = 1; k < times.size(); ++k)
        if (times[k - 1] >= t0 && times[k] <= t1)
          {
            sum += 0.5 * (f[k - 1] + f[k]) * (times[k] - times[k - 1]);
            span += times[k] - times[k - 1];
          }
      return std::pair<double, double>{sum, span};
    }

    // "impact time" or "impact impulse" of the k-th impact (at a contact, or at any).
    double kth_impact(const integrators::ResponseHistory &h, const std::string &kind, const Arguments &args)
    {
      const unsigned int k      = to_index(args[0]);
      const auto         events = impacts_of(h, args.size() > 1 ? contact_index(h, args[1]) : -1);
      if (events.size() < k)
        throw std::invalid_argument("the run has " + std::to_string(events.size()) + " impacts, not " +
                                    std::to_string(k));
      return kind == "impact time" ? events[k - 1].time : events[k - 1].impulse;
    }

    // The k-th sticking phase, from the impact that began it to its release.
    double contact_duration(const integrators::ResponseHistory &h, const Arguments &args, const double final_time)
    {
      const unsigned int k       = to_index(args[0]);
      const int          contact = args.size() > 1 ? contact_index(h, args[1]) : -1;
      std::vector<integrators::StickingPhase> phases;
      for (const auto &p : h.sticking_phases(final_time))
        if (contact < 0 || static_cast<int>(p.contact) == contact)
          phases.push_back(p);
      if (phases.size() < k)
        throw std::invalid_argument("the run has " + std::to_string(phases.size()) + " sticking phases, not " +
                                    std::to_string(k));
      const auto &phase = phases[k - 1];
      double      start = phase.start;
      for (const auto &e : impacts_of(h, static_cast<int>(phase.contact)))
        if (e.time <= phase.start)
          start = e.time;
      return phase.end - start;
    }

    // "impulse", "peak force" or "mean force" of a contact over a window.
    double contact_force(const integrators::ResponseHistory &h, const std::string &kind, const Arguments &args,
                         const std::vector<double> &times, const double final_time)
    {
      const auto  index    = static_cast<std::size_t>(contact_index(h, args[0]));
      const bool  planar   = index < h.contact_names().size();
      const auto &name     = planar ? h.contact_names()[index] : h.support_names()[index - h.contact_names().size()];
      const auto [t0, t1]  = window(args, 1, final_time);
      const auto  impulse  = h.column((planar ? "impulse_" : "normal_impulse_") + name);
      const auto  force    = h.column((planar ? "force_" : "normal_force_") + name);
      double     total = 0, peak = -std::numeric_limits<double>::infinity();
      for (std::size_t k = 0; k < times.size(); ++k)
        if (times[k] > t0 && times[k] <= t1)
          {
            total += impulse[k];
            peak = std::max(peak, force[k]);
          }
      return kind == "impulse" ? total : kind == "mean force" ? total / (t1 - t0) : peak;
    }

    double impact_count(const integrators::ResponseHistory &h, const Arguments &args, const double final_time)
    {
      const auto [t0, t1] = window(args, 0, final_time);
      double count = 0;
      for (const auto &e : impacts_of(h, args.size() > 2 ? contact_index(h, args[2]) : -1))
        count += e.time >= t0 && e.time <= t1;
      return count;
    }

    // "rms" (over the time the rows cover) or "max" of a column over a window.
    double column_measure(const integrators::ResponseHistory &h, const std::string &kind, const Arguments &args,
                          const std::vector<double> &times, const double final_time)
    {
      const auto values   = h.column(args[0]);
      const auto [t0, t1] = window(args, 1, final_time);
      if (kind == "max")
        {
          double peak = -std::numeric_limits<double>::infinity();
          for (std::size_t k = 0; k < times.size(); ++k)
            if (times[k] >= t0 && times[k] <= t1)
              peak = std::max(peak, values[k]);
          return peak;
        }
      std::vector<double> squares(values.size());
      for (std::size_t k = 0; k < values.size(); ++k)
        squares[k] = values[k] * values[k];
      const auto [sum, span] = integral(times, squares, t0, t1);
      return span > 0 ? std::sqrt(sum / span) : nan;
    }

    // L2(column) against the other run, interpolated at this run's rows, over their common span.
    double l2_difference(const integrators::ResponseHistory &h, const integrators::ResponseHistory *against,
                         const Arguments &args, const std::vector<double> &times)
    {
      if (!against)
        throw std::invalid_argument("L2 needs a run to compare with");
      const auto values = h.column(args[0]);
      const auto other  = against->column(args[0]);
      const auto other_times = against->times();
      std::vector<double> squares(values.size());
      for (std::size_t k = 0; k < values.size(); ++k)
        {
          const double d = values[k] - integrators::interpolate(other_times, other, times[k]);
          squares[k]     = d * d;
        }
      return std::sqrt(integral(times, squares, std::max(times.front(), other_times.front()),
                                std::min(times.back(), other_times.back()))
                         .first);
    }

  } // namespace

  void bind_convergence_parameters(io::ParameterSection &s, ConvergenceSettings &c)
  {
    s.add("Study", c.study,
          io::Choices<ConvergenceStudy>{{"frequencies", ConvergenceStudy::frequencies},
                                        {"response", ConvergenceStudy::response},
                                        {"branch", ConvergenceStudy::branch}},
          "frequencies: natural frequencies on bisected meshes; response: the case run through Simulation/Solver "
          "on refined discretisations, with the Quantities of its response history; branch: the Continuation "
          "family traced on bisected meshes, its frequency and contact fraction at the Energies.");
    s.add("Exact solution", c.exact,
          io::Choices<ExactSolution>{{"none", ExactSolution::none},
                                     {"pinned-pinned beam", ExactSolution::pinned_pinned_beam},
                                     {"clamped-free beam", ExactSolution::clamped_free_beam},
                                     {"fixed-free rod", ExactSolution::fixed_free_rod},
                                     {"pinned-pinned timoshenko beam", ExactSolution::pinned_pinned_timoshenko_beam}},
          "Closed-form frequencies to measure errors against (frequencies); for a branch study, fixed-free rod "
          "is the continuum rod's first nonsmooth mode against its stop; none: the finest mesh.");
    s.add("Refinement cycles", c.n_cycles, 1, 12,
          "Discretisations in the study: the case's own, then refined once per further cycle.");
    s.add("Refine", c.refine,
          io::Choices<Refinement>{{"mesh", Refinement::mesh},
                                  {"time step", Refinement::time_step},
                                  {"mesh and time step", Refinement::mesh_and_time_step},
                                  {"modes", Refinement::modes}},
          "What each response cycle refines: the mesh (bisected), the solver's time step (halved), both (h ∝ "
          "dx), or the solver's number of modes (doubled).");
    s.add("Quantities", c.quantities,
          "Response quantities, separated by ';', each optionally '= exact value': impact time(k[, contact]), "
          "impact impulse(k[, contact]), contact duration(k[, contact]), impulse(contact, t0, t1), peak "
          "force(contact, t0, t1), mean force(contact, t0, t1), impacts(t0, t1[, contact]), final energy, "
          "rms(column[, t0, t1]), max(column[, t0, t1]), L2(column). A contact is a planar one or a support in space "
          "(its normal impulse and force; max(wear_work_<support>) is its wear work to t1).",
          ';');
    s.add("Reference run", c.reference_run,
          "A run (subsection Run <name>) whose response the cycles are measured against; empty: each quantity's "
          "exact value, else the finest cycle (with a Richardson estimate).");
    s.add("Energies", c.energies, io::positive(),
          "Branch study: total energies at which each mesh's branch is interpolated (in log E, between "
          "backbone points, never across a tongue), separated by ','; empty: five spanning the range every "
          "branch covers.");
    s.add("Branch points", c.orbits_at_energies,
          io::Choices<bool>{{"traced", false}, {"at energies", true}},
          "Branch study: traced: each mesh's family continued and interpolated at the Energies; at energies: "
          "each mesh's orbit solved at each of the Energies alone, by Newton from the family's start (no "
          "continuation, no tongue labels: for fine meshes where a whole family takes too long).");
    if (!s.reading())
      return;
    for (const auto &q : c.quantities)
      try
        {
          ResponseQuantity check(q);
        }
      catch (const std::invalid_argument &e)
        {
          s.fail("Quantities", "'" + q + "': " + e.what());
        }
    if (c.orbits_at_energies && c.energies.empty())
      s.fail("Branch points", "'at energies' needs the Energies to solve the orbits at");
    if (c.study == ConvergenceStudy::response && c.quantities.empty())
      s.fail("Quantities", "a response study needs at least one quantity");
  }

  ResponseQuantity::ResponseQuantity(const std::string &text)
  {
    std::string body = text;
    const auto  close = body.rfind(')');
    const auto  equal = body.find('=', close == std::string::npos ? 0 : close);
    if (equal != std::string::npos)
      {
        exact_ = to_number(io::trim(body.substr(equal + 1)), "the exact value");
        body   = body.substr(0, equal);
      }
    name_             = io::trim(body);
    const auto open   = name_.find('(');
    kind_             = io::trim(name_.substr(0, open));
    if (open != std::string::npos)
      {
        if (name_.back() != ')')
          throw std::invalid_argument("missing ')'");
        args_ = io::split_list(name_.substr(open + 1, name_.size() - open - 2));
      }
    const auto arguments = [&](std::size_t low, std::size_t high) {
      if (args_.size() < low || args_.size() > high)
        throw std::invalid_argument(kind_ + " takes " + std::to_string(low) +
                                    (high > low ? " to " + std::to_string(high) : "") + " arguments");
    };
    if (kind_ == "impact time" || kind_ == "impact impulse" || kind_ == "contact duration")
      {
        arguments(1, 2);
        to_index(args_[0]);
      }
    else if (kind_ == "impulse" || kind_ == "peak force" || kind_ == "mean force")
      {
        arguments(3, 3);
        to_number(args_[1], "t0");
        to_number(args_[2], "t1");
      }
    else if (kind_ == "impacts")
      {
        arguments(2, 3);
        to_number(args_[0], "t0");
        to_number(args_[1], "t1");
      }
    else if (kind_ == "final energy")
      arguments(0, 0);
    else if (kind_ == "rms" || kind_ == "max")
      {
        if (args_.size() != 1 && args_.size() != 3)
          throw std::invalid_argument(kind_ + " takes a column, optionally with t0, t1");
      }
    else if (kind_ == "L2")
      {
        arguments(1, 1);
        if (exact_)
          throw std::invalid_argument("L2 is measured against a run, not an exact value");
      }
    else
      throw std::invalid_argument("unknown quantity '" + kind_ + "'");
  }

  void ResponseQuantity::check_names(const integrators::ResponseHistory &h) const
  {
    const auto column = [&](const std::string &name) {
      if (!h.has_column(name))
        throw std::invalid_argument("the response history has no column '" + name + "'");
    };
    if ((kind_ == "impact time" || kind_ == "impact impulse" || kind_ == "contact duration") && args_.size() > 1)
      contact_index(h, args_[1]);
    else if (kind_ == "impulse" || kind_ == "peak force" || kind_ == "mean force")
      contact_index(h, args_[0]);
    else if (kind_ == "impacts" && args_.size() > 2)
      contact_index(h, args_[2]);
    else if (kind_ == "rms" || kind_ == "max" || kind_ == "L2")
      column(args_[0]);
  }

  double ResponseQuantity::evaluate(const integrators::ResponseHistory &h, const integrators::ResponseHistory *against,
                                    const double final_time) const
  {
    const std::vector<double> times = h.times();
    if (kind_ == "impact time" || kind_ == "impact impulse")
      return kth_impact(h, kind_, args_);
    if (kind_ == "contact duration")
      return contact_duration(h, args_, final_time);
    if (kind_ == "impulse" || kind_ == "peak force" || kind_ == "mean force")
      return contact_force(h, kind_, args_, times, final_time);
    if (kind_ == "impacts")
      return impact_count(h, args_, final_time);
    if (kind_ == "final energy")
      return h.column("total_energy").back();
    if (kind_ == "rms" || kind_ == "max")
      return column_measure(h, kind_, args_, times, final_time);
    return l2_difference(h, against, args_, times);
  }

  namespace
  {
    // Cycle k's discretisation: the mesh bisected k more times, the time step halved or the
    // modes doubled k times.
    model::StructuralModel refined_model(const structure::CaseDescription &description, const Refinement refine,
                                         const unsigned int cycle)
    {
      structure::CaseDescription refined = description;
      if (refine == Refinement::mesh || refine == Refinement::mesh_and_time_step)
        for (auto &body : refined.bodies)
          body.refinements += cycle;
      return structure::build_model(refined);
    }

    std::unique_ptr<integrators::Solver> refined_solver(const integrators::Solver &solver, const Refinement refine,
                                                        const unsigned int cycle)
    {
      auto refined = solver.clone();
      if (refine == Refinement::time_step || refine == Refinement::mesh_and_time_step)
        refined->set_time_step(*solver.time_step() / std::pow(2.0, cycle));
      if (refine == Refinement::modes)
        refined->set_number_of_modes(*solver.number_of_modes() << cycle);
      return refined;
    }

    // Richardson: from the three finest cycles, where the finest is the reference (NaN where
    // a quantity has an exact value or no estimate).
    std::vector<double> richardson_estimates(const std::vector<ResponseQuantity>        &quantities,
                                             const std::vector<ResponseConvergenceRow> &rows)
    {
      std::vector<double> estimates(quantities.size(), nan);
      const std::size_t   n = rows.size();
      for (std::size_t q = 0; q < quantities.size() && n >= 3; ++q)
        if (!quantities[q].is_difference() && !quantities[q].exact())
          {
            const double v1 = rows[n - 3].values[q], v2 = rows[n - 2].values[q], v3 = rows[n - 1].values[q];
            const double p  = std::log2(std::abs(v1 - v2) / std::abs(v2 - v3));
            if (std::isfinite(p) && p > 0)
              estimates[q] = v3 + (v3 - v2) / (std::pow(2.0, p) - 1);
          }
      return estimates;
    }
  } // namespace

  double ResponseConvergence::observed_rate(const unsigned int q, const unsigned int row) const
  {
    return std::log2(rows.at(row - 1).errors.at(q) / rows.at(row).errors.at(q));
  }

  void ResponseConvergence::write_table(std::ostream &out) const
  {
    dealii::ConvergenceTable table;
    const bool has_h = !rows.empty() && rows.front().time_step > 0;
    const bool has_modes = !rows.empty() && rows.front().n_modes > 0;
    for (const auto &row : rows)
      {
        table.add_value("cycle", row.cycle);
        table.add_value("elements", row.n_elements);
        if (has_h)
          {
            table.add_value("h", row.time_step);
            table.set_scientific("h", true);
            table.set_precision("h", 3);
          }
        if (has_modes)
          table.add_value("modes", row.n_modes);
        for (std::size_t q = 0; q < quantities.size(); ++q)
          {
            const std::string value = quantities[q], error = "error " + std::to_string(q + 1);
            table.add_value(value, row.values[q]);
            table.set_precision(value, 10);
            table.add_value(error, row.errors[q]);
            table.set_scientific(error, true);
            table.set_precision(error, 3);
          }
      }
    for (std::size_t q = 0; q < quantities.size(); ++q)
      table.evaluate_convergence_rates("error " + std::to_string(q + 1), dealii::ConvergenceTable::reduction_rate_log2);
    out << "# response convergence: errors against " << reference << "; rates log2(e_coarse / e_fine)\n";
    for (std::size_t q = 0; q < quantities.size(); ++q)
      {
        out << "# error " << q + 1 << ": " << quantities[q];
        if (!std::isnan(reference_values[q]))
          out << " (reference " << reference_values[q] << ")";
        if (!std::isnan(richardson[q]))
          out << " (Richardson estimate " << richardson[q] << ")";
        out << "\n";
      }
    table.write_text(out, dealii::TableHandler::org_mode_table);
  }

  io::CsvTable ResponseConvergence::table() const
  {
    std::vector<std::string> columns{"cycle", "elements", "time_step", "modes", "wall_time"};
    for (std::size_t q = 0; q < quantities.size(); ++q)
      {
        columns.push_back("value_" + std::to_string(q + 1));
        columns.push_back("error_" + std::to_string(q + 1));
      }
    io::CsvTable table(columns);
    for (const auto &row : rows)
      {
        std::vector<double> values{double(row.cycle), double(row.n_elements), row.time_step, double(row.n_modes),
                                   row.wall_time};
        for (std::size_t q = 0; q < quantities.size(); ++q)
          {
            values.push_back(row.values[q]);
            values.push_back(row.errors[q]);
          }
        table.add_row(values);
      }
    return table;
  }

  void ResponseConvergence::plot(const std::filesystem::path &folder) const
  {
    if (rows.size() < 2)
      return;
    const bool by_modes = rows.front().n_modes > 0 && rows.front().n_modes != rows.back().n_modes;
    const bool by_h     = !by_modes && rows.front().time_step > 0 && rows.front().time_step != rows.back().time_step &&
                      rows.front().n_elements == rows.back().n_elements;
    const std::string x = by_modes ? "column(\"modes\")" : by_h ? "1/column(\"time_step\")" : "column(\"elements\")";
    std::ostringstream gp;
    gp << "# Errors of convergence.csv against the refinement: gnuplot convergence.gp\n"
       << "set terminal pngcairo size 900,600 noenhanced\nset output 'convergence.png'\n"
       << "set datafile separator ','\nset logscale xy\nset grid\nset key outside right\n"
       << "set xlabel " << io::gnuplot_quote(by_modes ? "modes" : by_h ? "1 / time step" : "elements") << "\n"
       << "set ylabel 'error'\nset title " << io::gnuplot_quote("convergence against " + reference) << "\nplot ";
    for (std::size_t q = 0; q < quantities.size(); ++q)
      gp << (q ? ", \\\n     " : "") << "'convergence.csv' using (" << x << "):(column(\"error_" << q + 1
         << "\")) with linespoints lw 2 title " << io::gnuplot_quote(quantities[q]);
    gp << "\n";
    io::run_gnuplot(folder / "convergence.gp", gp.str());
  }

  ResponseConvergence run_response_convergence(const structure::CaseDescription        &description,
                                               const integrators::Solver               &solver,
                                               const integrators::RunControl           &control,
                                               const ConvergenceSettings               &settings,
                                               const integrators::ResponseHistory      *reference,
                                               const std::function<void(unsigned int)> &on_cycle)
  {
    std::vector<ResponseQuantity> quantities;
    ResponseConvergence           result;
    for (const auto &text : settings.quantities)
      {
        quantities.emplace_back(text);
        result.quantities.push_back(quantities.back().name());
      }
    {
      const integrators::ResponseHistory shape(structure::build_model(description));
      for (const auto &q : quantities)
        q.check_names(shape);
    }
    // After SIGINT/SIGTERM the cycles finished are kept; the one under way is abandoned at its
    // next sample (run_to_history throws).
    std::vector<integrators::ResponseHistory> histories;
    for (unsigned int cycle = 0; cycle < settings.n_cycles && io::interrupt_signal() == 0; ++cycle)
      {
        const auto start      = std::chrono::steady_clock::now();
        const auto run_solver = refined_solver(solver, settings.refine, cycle);
        const auto model      = refined_model(description, settings.refine, cycle);
        integrators::check_run(*run_solver, model, control, description.filename);
        try
          {
            histories.push_back(integrators::run_to_history(*run_solver, model, control));
          }
        catch (const io::Interrupted &)
          {
            break;
          }
        result.rows.push_back({cycle, model.n_elements, run_solver->time_step().value_or(0.0),
                               run_solver->number_of_modes().value_or(0u),
                               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), {}, {}});
        if (on_cycle)
          on_cycle(cycle);
      }
    if (histories.empty())
      io::throw_if_interrupted("before the first cycle finished: nothing written");
    const bool interrupted = io::interrupt_signal() != 0;

    // The reference: a run, else each quantity's exact value, else the finest cycle.
    const bool by_finest = !reference;
    const integrators::ResponseHistory *against = reference ? reference : &histories.back();
    result.reference = reference ? "run " + settings.reference_run : "the exact values or the finest cycle";
    result.reference_values.assign(quantities.size(), nan);
    result.richardson.assign(quantities.size(), nan);
    bool finest_used = false;
    for (std::size_t q = 0; q < quantities.size(); ++q)
      {
        const auto &quantity = quantities[q];
        if (quantity.is_difference())
          finest_used = finest_used || by_finest;
        else if (quantity.exact() && !reference)
          result.reference_values[q] = *quantity.exact();
        else
          {
            result.reference_values[q] = quantity.evaluate(*against, nullptr, control.final_time);
            finest_used                = finest_used || by_finest;
          }
      }
    for (std::size_t r = 0; r < histories.size(); ++r)
      for (std::size_t q = 0; q < quantities.size(); ++q)
        {
          const double value = quantities[q].evaluate(histories[r], against, control.final_time);
          result.rows[r].values.push_back(value);
          result.rows[r].errors.push_back(quantities[q].is_difference() ? value :
                                                                          std::abs(value - result.reference_values[q]));
        }
    if (by_finest)
      result.richardson = richardson_estimates(quantities, result.rows);
    if (finest_used)
      {
        result.reference = reference ? result.reference : "the finest cycle (" + std::to_string(histories.size() - 1) +
                                                            ") where no exact value is given";
        if (!interrupted)
          result.rows.pop_back(); // the reference itself has no error to report
        else // its values are among the few the signal left: kept, without errors
          for (std::size_t q = 0; q < quantities.size(); ++q)
            if (quantities[q].is_difference() || !quantities[q].exact())
              result.rows.back().errors[q] = nan;
      }
    else if (!reference)
      result.reference = "the exact values";
    return result;
  }
} // namespace vibroimpact::studies
