// Cost of one event-driven period map with its Jacobian (what each Newton iteration of
// `vibroimpact continue` pays) on the fixed–free rod of examples/rod_nonsmooth_mode with a massless
// end node, as the mesh grows: the uncoupled oscillators of each closed set (closed forms) against
// the dense exponentials of the same model. The start is the rod at rest with the static shape of
// an end force, at 4 E_g: one contact phase per period.
// Run: build/bench/periodic_bench --benchmark_counters_tabular=true
#include <vibroimpact/periodic/closed_forms.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
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
    rod.name = "rod", rod.type = structure::BodyType::rod, rod.n_elements = n_elements;
    rod.left = structure::EndCondition::clamped, rod.right = structure::EndCondition::free;
    c.bodies = {rod};
    structure::ContactDescription stop;
    stop.name = "stop", stop.point = {"rod", 1.0}, stop.gap = 0.1, stop.side = structure::ContactSide::above;
    c.contacts = {stop};
    return c;
  }

  void period_map(benchmark::State &state, const bool uncoupled_oscillators)
  {
    const auto                         model = structure::build_model(rod_on_a_stop(state.range(0)));
    periodic::LinearImpactFlowSettings settings;
    settings.massless_contact_nodes = true;
    settings.uncoupled_oscillators  = uncoupled_oscillators;
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
  void dense_exponentials(benchmark::State &state) { period_map(state, false); }
} // namespace

BENCHMARK(oscillators)->Arg(20)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK(dense_exponentials)->Arg(20)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
