// Cost of one event-driven period map with its Jacobian (what each Newton iteration of
// `vibroimpact continue` pays) on the fixed–free rod of examples/rod_nonsmooth_mode with a massless
// end node, as the mesh grows: the uncoupled oscillators of each closed set (closed forms) against
// the dense exponentials of the same model, and the oscillators scanned at the highest mode's
// step throughout (coarse_scan = false, what they did before the scan stepped over the modes that
// cannot switch the contact). The start is the rod at rest with the static shape of
// an end force, at 4 E_g: one contact phase per period. Also the two maps through rigid impacts
// (what the other continue examples pay): the event-driven map of a pinned beam on an obstacle
// (examples/pinned_beam_backbone, 4 modes; free flight in closed form or by dense exponentials)
// and the Moreau–Jean map of the 2-DOF chain, on their one-impact orbit at 1.2 E_g.
// Run: build/bench/periodic_bench --benchmark_counters_tabular=true
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/periodic/moreau_jean_flow.h>
#include <vibroimpact/structure/model_builder.h>

#include <benchmark/benchmark.h>

#include <cmath>

using namespace vibroimpact;
using periodic::Vector;

namespace
{
  // examples/rod_nonsmooth_mode/case.prm as data: EA = ρA = L = 1, a stop 0.1 beyond the free end.
  structure::CaseDescription rod_on_a_stop(const unsigned int n_elements)
  {
    structure::CaseDescription c;
    c.name = "rod_nonsmooth_mode";
    structure::BodyDescription rod;
    rod.name = "rod", rod.type = structure::BodyType("rod"), rod.n_elements = n_elements;
    rod.left = structure::EndCondition::clamped, rod.right = structure::EndCondition::free;
    c.bodies = {rod};
    structure::ContactDescription stop;
    stop.name = "stop", stop.point = {"rod", 1.0}, stop.gap = 0.1, stop.side = structure::ContactSide::above;
    c.contacts = {stop};
    return c;
  }

  void period_map(benchmark::State &state, const bool uncoupled_oscillators, const bool coarse_scan = true)
  {
    const auto                         model = structure::build_model(rod_on_a_stop(state.range(0)));
    periodic::LinearImpactFlowSettings settings;
    settings.massless_contact_nodes = true;
    settings.uncoupled_oscillators  = uncoupled_oscillators;
    settings.coarse_scan            = coarse_scan;
    const periodic::LinearImpactFlow flow(model, settings);
    const periodic::Rod              rod;
    const double                     energy = 4 * periodic::rod_backbone_grazing_energy(rod);
    const auto                      &projection = flow.projection();
    const Vector q = projection.contact_rows().row(0).transpose().cwiseQuotient(projection.omegas().cwiseAbs2());
    Vector       x0 = Vector::Zero(2 * q.size());
    x0.head(q.size()) = q * std::sqrt(energy / projection.potential_energy(q));
    const double period = periodic::rod_first_nonsmooth_mode(rod, energy).period;
    std::size_t  switches = 0;
    for (auto _ : state)
      {
        const auto result = flow.flow(x0, period, 0.0, true);
        switches          = result.events.size();
        benchmark::DoNotOptimize(result.jacobian.data());
      }
    state.counters["unknowns"] = static_cast<double>(x0.size());
    state.counters["switches"] = static_cast<double>(switches);
  }
  void oscillators(benchmark::State &state) { period_map(state, true); }
  void oscillators_fine_scan(benchmark::State &state) { period_map(state, true, false); }
  void dense_exponentials(benchmark::State &state) { period_map(state, false); }

  // examples/pinned_beam_backbone/case.prm as data: EI = ρA = L = 1, an obstacle 0.01 below x = 0.4.
  structure::CaseDescription beam_on_an_obstacle()
  {
    structure::CaseDescription c;
    c.name = "pinned_beam_backbone";
    structure::BodyDescription beam;
    beam.name = "beam", beam.type = structure::BodyType("beam"), beam.n_elements = 20;
    beam.left = structure::EndCondition::pinned, beam.right = structure::EndCondition::pinned;
    c.bodies = {beam};
    structure::ContactDescription obstacle;
    obstacle.name = "obstacle", obstacle.point = {"beam", 0.4}, obstacle.gap = 0.01;
    obstacle.side = structure::ContactSide::below, obstacle.restitution = 1.0;
    c.contacts = {obstacle};
    return c;
  }

  // The one-impact orbit of mode 1 at 1.2 E_g and the map's cost there with its Jacobian.
  void one_impact_orbit_map(benchmark::State &state, const periodic::PeriodicFlowMap &flow)
  {
    const auto start = flow.one_impact_orbit(1, 1.2 * flow.grazing_energy(1));
    if (!start)
      {
        state.SkipWithError("no one-impact orbit");
        return;
      }
    std::size_t events = 0;
    for (auto _ : state)
      {
        const auto result = flow.flow(start->first, start->second, 0.0, true);
        events            = result.events.size();
        benchmark::DoNotOptimize(result.jacobian.data());
      }
    state.counters["unknowns"] = static_cast<double>(flow.dimension());
    state.counters["events"]   = static_cast<double>(events);
  }

  void beam_impacts(benchmark::State &state)
  {
    const auto                         model = structure::build_model(beam_on_an_obstacle());
    periodic::LinearImpactFlowSettings settings;
    settings.n_modes               = 4;
    settings.uncoupled_oscillators = state.range(0) != 0;
    one_impact_orbit_map(state, periodic::LinearImpactFlow(model, settings));
  }

  void moreau_jean_chain(benchmark::State &state)
  {
    structure::CaseDescription c;
    c.name = "two_dof_chain";
    structure::BodyDescription m1, m2;
    m1.name = "m1", m2.name = "m2";
    m1.type = m2.type = structure::BodyType("mass");
    structure::ElementDescription k1, k2;
    k1.name = "k1", k1.value = 1.0, k1.point = {"m1", 0.0}, k1.other = {"", 0.0};
    k2.name = "k2", k2.value = 1.0, k2.point = {"m2", 0.0}, k2.other = {"m1", 0.0};
    structure::ContactDescription stop;
    stop.name = "stop", stop.point = {"m2", 0.0}, stop.gap = 0.1, stop.side = structure::ContactSide::above;
    stop.restitution = 1.0;
    c.bodies = {m1, m2}, c.elements = {k1, k2}, c.contacts = {stop}, c.n_modes = 2;
    const auto model = structure::build_model(c);
    one_impact_orbit_map(state, periodic::MoreauJeanFlow(model, integrators::MoreauJeanSettings{},
                                                         static_cast<unsigned int>(state.range(0))));
  }
} // namespace

BENCHMARK(oscillators)->Arg(20)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK(oscillators_fine_scan)->Arg(20)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK(dense_exponentials)->Arg(20)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK(beam_impacts)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK(moreau_jean_chain)->Arg(400)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
