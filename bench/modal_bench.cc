// Cost of building a beam model and of its modal analysis as the mesh grows, dense against
// ARPACK. Run: build/bench/modal_bench --benchmark_counters_tabular=true
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/model_builder.h>

#include <benchmark/benchmark.h>

using namespace vibroimpact;

namespace
{
  structure::CaseDescription pinned_beam(unsigned int n_elements)
  {
    structure::CaseDescription c;
    structure::BodyDescription beam;
    beam.name       = "beam";
    beam.n_elements = n_elements;
    beam.left = beam.right = structure::EndCondition::pinned;
    c.bodies               = {beam};
    return c;
  }

  void build_model(benchmark::State &state)
  {
    const auto c = pinned_beam(state.range(0));
    for (auto _ : state)
      benchmark::DoNotOptimize(structure::build_model(c));
    state.counters["dofs"] = 2.0 * state.range(0);
    state.SetComplexityN(state.range(0));
  }

  void modes(benchmark::State &state, unsigned int dense_limit)
  {
    const auto model = structure::build_model(pinned_beam(state.range(0)));
    for (auto _ : state)
      benchmark::DoNotOptimize(model::compute_modes(model.mass, model.stiffness, 10, dense_limit));
    state.counters["dofs"] = model.n_dofs();
  }
  void dense_modes(benchmark::State &state) { modes(state, 1u << 30); }
  void arpack_modes(benchmark::State &state) { modes(state, 0); }
} // namespace

BENCHMARK(build_model)->RangeMultiplier(4)->Range(64, 16384)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK(dense_modes)->RangeMultiplier(2)->Range(64, 1024)->Unit(benchmark::kMillisecond);
BENCHMARK(arpack_modes)->RangeMultiplier(4)->Range(64, 16384)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
