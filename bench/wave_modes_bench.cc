// Cost of the wave-mode reference on examples/cantilever_on_rod (the paper's beam and rod,
// released from 10 mm): the modes alone, and the first 20 ms sampled at 3e-7 s, as N grows.
// The goal: N = 2000 in under 10 s. Run: build/bench/wave_modes_bench
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/reference/beam_rod_modes.h>
#include <vibroimpact/structure/model_builder.h>

#include <benchmark/benchmark.h>

using namespace vibroimpact;

namespace
{
  // examples/cantilever_on_rod/case.prm as data.
  structure::CaseDescription cantilever_on_rod()
  {
    structure::CaseDescription c;
    c.name = "cantilever_on_rod";
    structure::BodyDescription beam;
    beam.name = "beam", beam.type = structure::BodyType("beam"), beam.length = 1.0617, beam.stiffness = 40727.232;
    beam.mass_per_length = 9.7155, beam.n_elements = 32;
    beam.left = structure::EndCondition::clamped, beam.right = structure::EndCondition::free;
    structure::BodyDescription rod;
    rod.name = "rod", rod.type = structure::BodyType("rod"), rod.length = 0.1, rod.stiffness = 1.0816e8;
    rod.mass_per_length = 4.056, rod.n_elements = 16;
    rod.left = structure::EndCondition::clamped, rod.right = structure::EndCondition::free;
    c.bodies = {beam, rod};
    structure::ContactDescription tip;
    tip.name = "tip", tip.point = {"beam", 1.0617}, tip.other = {"rod", 0.1}, tip.restitution = 0;
    c.contacts = {tip};
    c.probes   = {{"beam_tip", {"beam", 1.0617}}, {"beam_middle", {"beam", 0.53085}}, {"rod_top", {"rod", 0.1}}};
    c.initial_state.type                = structure::InitialStateType::static_load;
    c.initial_state.load_point          = {"beam", 1.0617};
    c.initial_state.target_displacement = 0.01;
    return c;
  }

  class Count : public integrators::ResponseObserver
  {
  public:
    void   sample(const integrators::ResponseSample &s) override { last = s.energy.kinetic + s.energy.potential; }
    double last = 0.0;
  };

  void coupled_modes(benchmark::State &state)
  {
    const reference::BeamRodData d{40727.232, 9.7155, 1.0617, 1.0816e8, 4.056, 0.1};
    for (auto _ : state)
      benchmark::DoNotOptimize(reference::coupled_modes(d, state.range(0)));
  }

  void first_20_ms(benchmark::State &state)
  {
    const auto model  = structure::build_model(cantilever_on_rod());
    auto       solver = integrators::SolverRegistry::create("wave-modes");
    solver->set_number_of_modes(state.range(0));
    solver->set_time_step(3e-7);
    integrators::RunControl control;
    control.final_time      = 0.02;
    control.output_interval = 0; // a row per sample, as `simulate` writes them
    integrators::RunSummary summary;
    for (auto _ : state)
      {
        Count observer;
        summary = solver->run(model, control, observer);
      }
    state.counters["samples"]  = summary.steps;
    state.counters["switches"] = summary.counter("switches");
    state.counters["roots_s"]  = summary.counter("roots and shapes [s]");
    state.counters["matrix_s"] = summary.counter("projection matrix [s]");
    state.counters["switch_s"] = summary.counter("switching [s]");
    state.counters["sample_s"] = summary.counter("sampling [s]");
  }
} // namespace

BENCHMARK(coupled_modes)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);
BENCHMARK(first_20_ms)->Arg(200)->Arg(2000)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_MAIN();
