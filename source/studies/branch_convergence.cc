// Mesh convergence of a nonsmooth mode (see the header): a continuation per mesh, the branches
// interpolated at fixed energies on their backbone points, tables, rates and plots.
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/studies/branch_convergence.h>
#include <vibroimpact/studies/continuation_study.h>
#include <vibroimpact/studies/exact_solutions.h>

#include <deal.II/base/convergence_table.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

namespace vibroimpact::studies
{
  namespace
  {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();

    // The part of the period during which a contact is closed, summed over the contacts, from the
    // flow's events: a contact is closed from a sticking_start (a massless node landing, a
    // sticking phase) to the next separation; one whose first event is a separation was closed at
    // t = 0. Impacts of e > 0 are instants and count nothing.
    double contact_fraction(const periodic::PeriodicFlowMap &flow, const periodic::BranchPoint &p)
    {
      const auto   events   = flow.flow(p.state, p.period, 0.0, false).events;
      unsigned int contacts = 0;
      for (const auto &e : events)
        contacts = std::max(contacts, e.contact + 1);
      double closed_time = 0;
      for (unsigned int c = 0; c < contacts; ++c)
        {
          bool   closed = false;
          double since  = 0;
          for (const auto &e : events)
            if (e.contact == c && e.kind == periodic::ContactEvent::Kind::sticking_start)
              closed = true, since = e.time;
            else if (e.contact == c && e.kind == periodic::ContactEvent::Kind::separation)
              {
                closed_time += e.time - (closed ? since : 0.0);
                closed = false;
              }
          if (closed)
            closed_time += p.period - since;
        }
      return closed_time / p.period;
    }

    // The points of the backbone stretch around segment (k, k + 1) that a cubic uses: k − 1 and
    // k + 2 when they are backbone points continuing the segment's direction in E (not past a
    // fold), so the stencil is monotone in ln E.
    std::vector<std::size_t> stencil(const MeshBranch &b, const std::size_t k)
    {
      const double             direction = b.energy[k + 1] - b.energy[k];
      std::vector<std::size_t> points{k, k + 1};
      if (k > 0 && b.tongue[k - 1].empty() && (b.energy[k] - b.energy[k - 1]) * direction > 0)
        points.insert(points.begin(), k - 1);
      if (k + 2 < b.energy.size() && b.tongue[k + 2].empty() && (b.energy[k + 2] - b.energy[k + 1]) * direction > 0)
        points.push_back(k + 2);
      return points;
    }

    // Lagrange interpolation of y(x) at x0 through the points (x_i, y_i).
    double lagrange(const std::vector<double> &x, const std::vector<double> &y, const double x0)
    {
      double sum = 0;
      for (std::size_t i = 0; i < x.size(); ++i)
        {
          double weight = 1;
          for (std::size_t j = 0; j < x.size(); ++j)
            if (j != i)
              weight *= (x0 - x[j]) / (x[i] - x[j]);
          sum += weight * y[i];
        }
      return sum;
    }

    // Energies spanning the range every branch's backbone covers (from its lowest to its highest
    // backbone point, the meshes without two such points left out): five, log-spaced strictly
    // inside it, so that no energy sits on the end of a branch (a grazing, where ω(E) is not
    // smooth). Tongues inside that range are reported where they fall.
    std::vector<double> default_energies(const std::vector<MeshBranch> &meshes)
    {
      double low = 0, high = std::numeric_limits<double>::infinity();
      for (const auto &m : meshes)
        {
          double mesh_low = std::numeric_limits<double>::infinity(), mesh_high = 0;
          for (std::size_t k = 0; k < m.energy.size(); ++k)
            if (m.tongue[k].empty())
              mesh_low = std::min(mesh_low, m.energy[k]), mesh_high = std::max(mesh_high, m.energy[k]);
          if (mesh_high > mesh_low)
            low = std::max(low, mesh_low), high = std::min(high, mesh_high);
        }
      if (!(high > low) || !std::isfinite(high))
        return {};
      std::vector<double> energies;
      for (unsigned int i = 0; i < 5; ++i)
        energies.push_back(low * std::pow(high / low, (i + 0.5) / 5));
      return energies;
    }

    // One mesh: its continuation set up and traced (the first family), kept with its flow map
    // for the contact fractions asked later.
    struct TracedMesh
    {
      MeshBranch                    branch;
      ContinuationSetup             setup;
      std::vector<periodic::Branch> branches;
      // Branch points = at energies: the orbit at each energy, empty where Newton failed.
      std::vector<std::optional<periodic::BranchPoint>> at_energies;
    };

    // Branch points = at energies: each orbit alone, the family's start (doc/periodic.md §11) at
    // that energy solved and nothing continued, so the mesh's branch is these orbits.
    void solve_at_energies(TracedMesh &traced, const std::vector<double> &energies)
    {
      auto        &m    = traced.branch;
      const auto  &flow = *traced.setup.flow;
      const double graze = flow.grazing_energy(static_cast<unsigned int>(traced.setup.continuation.families.front()));
      unsigned int found = 0;
      for (const double energy : energies)
        {
          periodic::ContinuationCase one          = traced.setup.continuation;
          one.families.resize(1);
          one.settings.start_energy_factor        = energy / graze;
          one.settings.max_points                 = 1;
          one.settings.tongue_jump                = 0;
          one.max_energy_factor                   = std::max(one.max_energy_factor, 2 * energy / graze);
          one.settings.max_energy                 = std::max(one.settings.max_energy, 2 * energy);
          std::optional<periodic::BranchPoint> orbit;
          try
            {
              const auto branches = trace_families(one, *traced.setup.flow, true);
              if (!branches.empty() && !branches.front().points.empty() &&
                  std::abs(branches.front().points.front().energy / energy - 1) < 1e-9)
                orbit = branches.front().points.front();
            }
          catch (const integrators::NumericalFailure &)
            {
            }
          traced.at_energies.push_back(orbit);
          if (orbit)
            m.energy.push_back(energy), m.frequency.push_back(orbit->frequency), m.tongue.emplace_back(), ++found;
        }
      m.stop_reason = "orbits solved at " + std::to_string(found) + " of " + std::to_string(energies.size()) +
                      " energies";
      m.failed = found == 0;
    }

    TracedMesh trace_mesh(const structure::CaseDescription &description, const periodic::ContinuationCase &cc,
                          const integrators::MoreauJeanSettings &moreau_jean, const unsigned int cycle,
                          const std::vector<double> *at_energies)
    {
      const auto                 start   = std::chrono::steady_clock::now();
      structure::CaseDescription refined = description;
      for (auto &body : refined.bodies)
        body.refinements += cycle;
      TracedMesh traced{MeshBranch{}, prepare_continuation(refined, cc, moreau_jean), {}, {}};
      auto      &m = traced.branch;
      m.cycle      = cycle;
      m.n_elements = traced.setup.model->n_elements;
      m.n_modes    = static_cast<unsigned int>(traced.setup.flow->dimension() / 2);
      if (at_energies)
        {
          solve_at_energies(traced, *at_energies);
          m.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          return traced;
        }
      try
        {
          traced.branches = trace_families(traced.setup.continuation, *traced.setup.flow, true);
        }
      catch (const integrators::NumericalFailure &e)
        {
          m.failed      = true;
          m.stop_reason = e.what();
        }
      if (!traced.branches.empty())
        {
          const auto &b = traced.branches.front();
          m.tongue      = tongue_labels(traced.branches, traced.setup.continuation, *traced.setup.flow).front();
          for (const auto &p : b.points)
            m.energy.push_back(p.energy), m.frequency.push_back(p.frequency);
          m.stop_reason = b.stop_reason;
          m.failed      = b.failed;
        }
      m.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return traced;
    }

    // A scanned map's family at E itself (its staircase is not interpolated): the map's orbit
    // there, when E lies in the scanned range (else outside, as for a branch that does not reach it).
    BranchValue orbit_at(const periodic::PeriodicFlowMap &flow, const periodic::ContinuationCase &cc,
                         const MeshBranch &branch, const double energy)
    {
      BranchValue value{EnergyCover::outside, nan, nan, nan, nan};
      if (branch.energy.empty() || energy < *std::min_element(branch.energy.begin(), branch.energy.end()) ||
          energy > *std::max_element(branch.energy.begin(), branch.energy.end()))
        return value;
      const auto  orbit = flow.one_impact_orbit(static_cast<unsigned int>(cc.families.front()), energy, cc.cycles_of(0));
      if (!orbit)
        return value;
      periodic::BranchPoint p;
      p.state                = orbit->first;
      p.period               = orbit->second;
      value.cover            = EnergyCover::backbone;
      value.frequency        = 2 * M_PI / p.period;
      value.contact_fraction = contact_fraction(flow, p);
      return value;
    }

    std::string short_number(const double value)
    {
      std::ostringstream text;
      text << std::setprecision(4) << value;
      return text.str();
    }

    const char *cover_name(const EnergyCover cover)
    {
      return cover == EnergyCover::backbone ? "backbone" : cover == EnergyCover::tongue ? "tongue" : "outside";
    }
  } // namespace

  BranchValue interpolate_branch(const MeshBranch &b, const double energy,
                                 const std::function<double(std::size_t)> &contact_fraction)
  {
    BranchValue value{EnergyCover::outside, nan, nan, nan, nan};
    for (std::size_t k = 0; k + 1 < b.energy.size(); ++k)
      {
        if ((b.energy[k] - energy) * (b.energy[k + 1] - energy) > 0)
          continue; // not between these two points
        if (!b.tongue[k].empty() || !b.tongue[k + 1].empty())
          {
            value.cover = EnergyCover::tongue; // unless a backbone stretch further on covers it
            continue;
          }
        std::vector<double> x, omega, fraction;
        for (const std::size_t i : stencil(b, k))
          {
            x.push_back(std::log(b.energy[i]));
            omega.push_back(b.frequency[i]);
            fraction.push_back(contact_fraction(i));
          }
        value.cover            = EnergyCover::backbone;
        value.frequency        = lagrange(x, omega, std::log(energy));
        value.contact_fraction = lagrange(x, fraction, std::log(energy));
        return value;
      }
    return value;
  }

  namespace
  {
    // The reference at each energy: the closed form, or the finest mesh's interpolated values.
    void set_reference(BranchConvergence &result, const ConvergenceSettings &settings,
                       const structure::CaseDescription &description)
    {
      result.reference_frequency.assign(result.energies.size(), nan);
      result.reference_contact_fraction.assign(result.energies.size(), nan);
      if (settings.exact == ExactSolution::fixed_free_rod)
        {
          const auto rod   = rod_against_stop(description);
          result.closed_form = rod;
          result.reference = "the closed form of the continuum rod's first nonsmooth mode";
          for (std::size_t e = 0; e < result.energies.size(); ++e)
            {
              const auto p                         = periodic::rod_first_nonsmooth_mode(rod, result.energies[e]);
              result.reference_frequency[e]        = p.frequency;
              result.reference_contact_fraction[e] = p.contact_duration / p.period;
            }
          return;
        }
      result.finest_is_reference = true;
      result.reference = "the finest mesh (" + std::to_string(result.meshes.back().n_elements) + " elements)";
      for (std::size_t e = 0; e < result.energies.size(); ++e)
        {
          result.reference_frequency[e]        = result.values[e].back().frequency;
          result.reference_contact_fraction[e] = result.values[e].back().contact_fraction;
        }
    }
  } // namespace

  BranchConvergence run_branch_convergence(const structure::CaseDescription        &description,
                                           const periodic::ContinuationCase        &continuation,
                                           const integrators::MoreauJeanSettings   &moreau_jean,
                                           const ConvergenceSettings               &settings,
                                           const std::function<void(unsigned int)> &on_cycle)
  {
    if (settings.exact == ExactSolution::fixed_free_rod)
      rod_against_stop(description); // an input error before any continuation
    std::vector<TracedMesh> traced;
    BranchConvergence       result;
    for (unsigned int cycle = 0; cycle < settings.n_cycles && io::interrupt_signal() == 0; ++cycle)
      {
        try
          {
            traced.push_back(trace_mesh(description, continuation, moreau_jean, cycle,
                                        settings.orbits_at_energies ? &settings.energies : nullptr));
          }
        catch (const io::Interrupted &)
          {
            break;
          }
        if (io::interrupt_signal() != 0) // its continuation stopped midway: the finished meshes are kept
          {
            traced.pop_back();
            break;
          }
        result.meshes.push_back(traced.back().branch);
        if (on_cycle)
          on_cycle(cycle);
      }
    if (traced.empty())
      io::throw_if_interrupted("before the first mesh finished: nothing written");
    // The finished meshes' contact fractions and orbits at the energies are what is kept: their
    // flows run to the end, also when a signal comes now.
    const io::UninterruptedScope finishing;
    result.energies = settings.energies.empty() ? default_energies(result.meshes) : settings.energies;
    for (std::size_t e = 0; e < result.energies.size(); ++e)
      {
        const double energy = result.energies[e];
        result.values.emplace_back();
        for (const auto &t : traced)
          if (settings.orbits_at_energies)
            {
              const auto &orbit = t.at_energies[e];
              result.values.back().push_back(
                orbit ? BranchValue{EnergyCover::backbone, orbit->frequency, contact_fraction(*t.setup.flow, *orbit), nan,
                                    nan}
                      : BranchValue{EnergyCover::outside, nan, nan, nan, nan});
            }
          else
          {
            // Contact fractions cost a flow each: only for the points an interpolation uses.
            const auto fraction = [&t](const std::size_t k) {
              return contact_fraction(*t.setup.flow, t.branches.front().points[k]);
            };
            result.values.back().push_back(t.setup.flow->scanned_in_energy()
                                             ? orbit_at(*t.setup.flow, t.setup.continuation, t.branch, energy)
                                             : interpolate_branch(t.branch, energy, fraction));
          }
      }
    set_reference(result, settings, description);
    for (std::size_t e = 0; e < result.energies.size(); ++e)
      for (std::size_t m = 0; m < result.meshes.size(); ++m)
        {
          auto &v = result.values[e][m];
          if (result.finest_is_reference && m + 1 == result.meshes.size())
            continue; // the reference has no error
          v.frequency_error = std::abs(v.frequency / result.reference_frequency[e] - 1);
          v.contact_error   = std::abs(v.contact_fraction - result.reference_contact_fraction[e]);
        }
    return result;
  }

  double BranchConvergence::observed_rate(const unsigned int e, const unsigned int m, const bool contact) const
  {
    const auto &coarse = values.at(e).at(m - 1), &fine = values.at(e).at(m);
    return contact ? std::log2(coarse.contact_error / fine.contact_error)
                   : std::log2(coarse.frequency_error / fine.frequency_error);
  }

  double BranchConvergence::richardson_order(const unsigned int e, const bool contact) const
  {
    const std::size_t n = meshes.size();
    if (n < 3)
      return nan;
    const auto value = [&](const std::size_t m) {
      return contact ? values.at(e)[m].contact_fraction : values.at(e)[m].frequency;
    };
    return std::log2(std::abs(value(n - 3) - value(n - 2)) / std::abs(value(n - 2) - value(n - 1)));
  }

  std::pair<double, unsigned int> BranchConvergence::largest_frequency_error(const std::size_t mesh) const
  {
    if (!closed_form || energies.empty())
      return {nan, 0};
    const auto   [low, high] = std::minmax_element(energies.begin(), energies.end());
    const auto  &m           = meshes.at(mesh);
    double       largest     = 0;
    unsigned int points      = 0;
    for (std::size_t k = 0; k < m.energy.size(); ++k)
      if (m.tongue[k].empty() && m.energy[k] >= *low && m.energy[k] <= *high)
        {
          const double exact = periodic::rod_first_nonsmooth_mode(*closed_form, m.energy[k]).frequency;
          largest            = std::max(largest, std::abs(m.frequency[k] / exact - 1));
          ++points;
        }
    return {points > 0 ? largest : nan, points};
  }

  void BranchConvergence::write_table(std::ostream &out) const
  {
    out << "# branch convergence: frequency (relative error) and contact fraction (absolute error) at fixed "
           "energies against "
        << reference << "; rates log2(e_coarse / e_fine)\n";
    for (const auto &m : meshes)
      {
        unsigned int tongue = 0;
        for (const auto &label : m.tongue)
          tongue += !label.empty();
        out << "# mesh " << m.cycle << ": " << m.n_elements << " elements, " << m.n_modes << " modes, "
            << m.energy.size() << " points (" << tongue << " on tongues)";
        if (!m.energy.empty())
          out << ", E " << *std::min_element(m.energy.begin(), m.energy.end()) << " .. "
              << *std::max_element(m.energy.begin(), m.energy.end());
        out << ", " << m.wall_time << " s; stopped: " << m.stop_reason << "\n";
      }
    if (closed_form && !energies.empty())
      {
        // A staircase (a scanned map) is off the closed form by an amount that depends on where
        // E falls on its step, so the rate at one energy wanders; over the band it does not.
        out << "\n# largest frequency error against the closed form over each mesh's backbone points with E in "
            << *std::min_element(energies.begin(), energies.end()) << " .. "
            << *std::max_element(energies.begin(), energies.end()) << "\n";
        dealii::ConvergenceTable band;
        for (std::size_t m = 0; m < meshes.size(); ++m)
          {
            const auto [error, points] = largest_frequency_error(m);
            band.add_value("elements", meshes[m].n_elements);
            band.add_value("points", points);
            band.add_value("largest frequency error", error);
          }
        band.set_scientific("largest frequency error", true);
        band.set_precision("largest frequency error", 3);
        band.evaluate_convergence_rates("largest frequency error", dealii::ConvergenceTable::reduction_rate_log2);
        band.write_text(out, dealii::TableHandler::org_mode_table);
      }
    const std::size_t rows = finest_is_reference ? meshes.size() - 1 : meshes.size();
    for (std::size_t e = 0; e < energies.size(); ++e)
      {
        out << "\n# E = " << energies[e] << ": reference frequency " << reference_frequency[e]
            << ", contact fraction " << reference_contact_fraction[e] << "; order from the three finest meshes: "
            << "frequency " << richardson_order(unsigned(e), false) << ", contact fraction "
            << richardson_order(unsigned(e), true) << "\n";
        dealii::ConvergenceTable table;
        for (std::size_t m = 0; m < rows; ++m)
          {
            const auto &v = values[e][m];
            table.add_value("elements", meshes[m].n_elements);
            table.add_value("modes", meshes[m].n_modes);
            table.add_value("where", std::string(cover_name(v.cover)));
            table.add_value("frequency", v.frequency);
            table.add_value("frequency error", v.frequency_error);
            table.add_value("contact fraction", v.contact_fraction);
            table.add_value("contact error", v.contact_error);
          }
        table.set_precision("frequency", 10);
        table.set_precision("contact fraction", 6);
        for (const std::string column : {"frequency error", "contact error"})
          {
            table.set_scientific(column, true);
            table.set_precision(column, 3);
            table.evaluate_convergence_rates(column, dealii::ConvergenceTable::reduction_rate_log2);
          }
        table.write_text(out, dealii::TableHandler::org_mode_table);
      }
  }

  io::CsvTable BranchConvergence::table() const
  {
    io::CsvTable table({"energy_index", "energy", "cycle", "elements", "modes", "frequency", "frequency_error",
                        "frequency_rate", "contact_fraction", "contact_error", "contact_rate",
                        "reference_frequency", "reference_contact_fraction", "frequency_order", "contact_order"});
    io::CsvTable::Column where{"where", io::CsvTable::Column::Kind::text, {}, {}};
    for (std::size_t e = 0; e < energies.size(); ++e)
      for (std::size_t m = 0; m < meshes.size(); ++m)
        {
          const auto  &v = values[e][m];
          const double f_rate = m > 0 ? observed_rate(unsigned(e), unsigned(m), false) : nan;
          const double c_rate = m > 0 ? observed_rate(unsigned(e), unsigned(m), true) : nan;
          table.add_row({double(e), energies[e], double(meshes[m].cycle), double(meshes[m].n_elements),
                         double(meshes[m].n_modes), v.frequency, v.frequency_error, f_rate, v.contact_fraction,
                         v.contact_error, c_rate, reference_frequency[e], reference_contact_fraction[e],
                         richardson_order(unsigned(e), false), richardson_order(unsigned(e), true)});
          where.cells.push_back(cover_name(v.cover));
        }
    table.columns.push_back(std::move(where));
    return table;
  }

  io::CsvTable BranchConvergence::branches_table() const
  {
    io::CsvTable         table({"cycle", "elements", "point", "energy", "frequency", "closed_form_frequency"});
    io::CsvTable::Column tongue{"tongue", io::CsvTable::Column::Kind::text, {}, {}};
    for (const auto &m : meshes)
      for (std::size_t k = 0; k < m.energy.size(); ++k)
        {
          const double exact =
            closed_form ? periodic::rod_first_nonsmooth_mode(*closed_form, m.energy[k]).frequency : nan;
          table.add_row({double(m.cycle), double(m.n_elements), double(k), m.energy[k], m.frequency[k], exact});
          tongue.cells.push_back(m.tongue[k]);
        }
    table.columns.push_back(std::move(tongue));
    return table;
  }

  void BranchConvergence::plot(const std::filesystem::path &folder) const
  {
    // branches.csv: 1 cycle, 2 elements, 3 point, 4 energy, 5 frequency, 6 closed form, 7 tongue.
    std::ostringstream gp;
    gp << "# The branches of branches.csv over each other: gnuplot branches.gp\n"
       << "set terminal pngcairo size 1000,650 noenhanced\nset output 'branches.png'\n"
       << "set datafile separator ','\nset logscale x\nset grid\nset key outside right\n"
       << "set xlabel 'energy'\nset ylabel 'frequency [rad/s]'\n"
       << "set title 'the branch per mesh (crosses: tongue points); dotted: the tabulated energies'\n";
    for (const double e : energies)
      gp << "set arrow from first " << e << ", graph 0 to first " << e << ", graph 1 nohead dt 3 lc 'gray'\n";
    gp << "plot ";
    bool first = true;
    for (std::size_t m = 0; m < meshes.size(); ++m)
      {
        if (meshes[m].energy.empty())
          continue; // gnuplot refuses a plot whose every series is empty
        const std::string name = std::to_string(meshes[m].n_elements) + " elements";
        gp << (first ? "" : ", \\\n     ") << "'branches.csv' every ::1 using (($1 == " << meshes[m].cycle
           << " && strcol(7) eq '') ? $4 : 1/0):5 with linespoints pt 7 ps 0.6 lc " << m + 1
           << " title " << io::gnuplot_quote(name) << ", \\\n     'branches.csv' every ::1 using (($1 == "
           << meshes[m].cycle << " && strcol(7) ne '') ? $4 : 1/0):5 with points pt 2 lc " << m + 1
           << " title " << io::gnuplot_quote(name + ", tongue");
        first = false;
      }
    if (first)
      return; // no branch at any mesh: nothing to draw
    if (closed_form)
      gp << ", \\\n     'branches.csv' every ::1 using 4:6 smooth unique with lines lw 2 lc 'black' title 'closed form'";
    gp << "\n";
    io::run_gnuplot(folder / "branches.gp", gp.str());
    // Against the finest mesh it has no error row of its own: a plot wants two meshes with errors
    // (one is a single x value: gnuplot's "empty x range", e.g. a study stopped after two meshes).
    if (energies.empty() || meshes.size() < (closed_form ? 2u : 3u) || (!closed_form && meshes.back().energy.empty()))
      return; // (a finest mesh without a family leaves every error undefined: nothing to draw)
    // convergence.csv: 3 cycle, 4 elements, 7 frequency error, 10 contact error.
    std::ostringstream errors;
    errors << "# Errors of convergence.csv against the elements: gnuplot convergence.gp\n"
           << "set terminal pngcairo size 1200,650 noenhanced\nset output 'convergence.png'\n"
           << "set datafile separator ','\nset logscale xy\nset grid\nset key outside right\n"
           << "set xlabel 'elements'\nset ylabel 'error'\nset title "
           << io::gnuplot_quote("errors at fixed energies against " + reference) << "\n";
    // Against a closed form, the largest frequency error over each branch (convergence.txt's band
    // table) as a datablock: the line that converges where a staircase's single energies wander.
    const bool band = closed_form.has_value();
    if (band)
      {
        errors << "$band << EOD\n";
        for (std::size_t m = 0; m < meshes.size(); ++m)
          if (const auto [error, points] = largest_frequency_error(m); points > 0)
            errors << meshes[m].n_elements << "," << error << "\n"; // the separator set above
        errors << "EOD\n";
      }
    errors << "plot ";
    if (band)
      errors << "$band using 1:2 with linespoints lw 3 pt 5 lc 'black' title 'largest frequency error over the "
                "band', \\\n     ";
    for (std::size_t e = 0; e < energies.size(); ++e)
      for (const int column : {7, 10})
        errors << (e || column == 10 ? ", \\\n     " : "") << "'convergence.csv' every ::1 using (($1 == " << e
               << ") ? $4 : 1/0):" << column << " with linespoints lc " << e + 1 << (column == 7 ? " pt 7" : " pt 4 dt 2")
               << " title " << io::gnuplot_quote((column == 7 ? "frequency, E = " : "contact fraction, E = ") +
                                                  short_number(energies[e]));
    errors << "\n";
    io::run_gnuplot(folder / "convergence.gp", errors.str());
  }
} // namespace vibroimpact::studies
