// Steps per second of the Moreau–Jean stepper on a pinned–pinned beam hitting one obstacle
// (the pinned_beam_obstacle example set in motion towards the obstacle, e = 1, θ = 1/2), from
// 100 to 20 000 DoFs, against a bare loop that does only what any implicit linear step must do:
// one solve with the factored W (Eigen SimplicialLDLT) and one sparse matrix–vector product.
//
//   cmake --build build-ex -j1 --target stepper_bench
//   build-ex/bench/stepper_bench --benchmark_counters_tabular=true
//
// Each benchmark iteration is one fixed motion: 200 steps from the same initial state (the beam
// thrown at the obstacle: contact from the first step), so every run measures the same steps,
// contact phases included (counter `active`: the share of steps with an LCP, the same every run).
// Instruction counts, stable where times are not: the `iterations:3` variants under callgrind,
// counting only the motions:
//
//   valgrind --tool=callgrind --toggle-collect='*fixed_motion*' build/bench/stepper_bench \
//     --benchmark_filter='moreau_jean/1000/iterations:3$'
//
// The goal: MoreauJean ≤ 1.3× the bare loop, growth linear in n (doc/performance.md, "The
// Moreau–Jean stepper").
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/structure/model_builder.h>

#include <benchmark/benchmark.h>

#include <Eigen/SparseCholesky>

using namespace vibroimpact;

namespace
{
  constexpr double       time_step        = 1e-4;
  constexpr unsigned int steps_per_motion = 200;

  // n_elements Hermite elements: 2 n_elements DoFs once the pinned ends are eliminated.
  structure::CaseDescription beam_on_obstacle(const unsigned int n_elements)
  {
    structure::CaseDescription c;
    c.name = "stepper_bench";
    structure::BodyDescription beam;
    beam.name                 = "beam";
    beam.type                 = structure::BodyType("beam");
    beam.length               = 1.0;
    beam.stiffness            = 1.0;
    beam.mass_per_length      = 1.0;
    beam.n_elements           = n_elements;
    beam.left                 = structure::EndCondition::pinned;
    beam.right                = structure::EndCondition::pinned;
    beam.initial_velocity     = "-20*sin(pi*x)"; // towards the obstacle: contact in the first step
    c.bodies                  = {beam};
    structure::ContactDescription obstacle;
    obstacle.name        = "obstacle";
    obstacle.point       = {"beam", 0.4};
    obstacle.gap         = 0.0;
    obstacle.side        = structure::ContactSide::below;
    obstacle.restitution = 1.0;
    c.contacts           = {obstacle};
    return c;
  }

  // The fixed motion of the Moreau–Jean stepper from `start`: the steps with an LCP.
  __attribute__((noinline)) unsigned long fixed_motion(const integrators::MoreauJean &osi,
                                                       integrators::State                state)
  {
    unsigned long active = 0;
    for (unsigned int k = 0; k < steps_per_motion; ++k)
      active += osi.step(state).lcp_solved ? 1 : 0;
    benchmark::DoNotOptimize(state.v.data());
    return active;
  }

  void moreau_jean(benchmark::State &bench)
  {
    const auto model = structure::build_model(beam_on_obstacle(bench.range(0)));
    integrators::MoreauJeanSettings s;
    s.theta     = 0.5;
    s.time_step = time_step;
    const integrators::MoreauJean osi(model, s);
    const auto                    start  = osi.initial_state();
    unsigned long                 active = 0, steps = 0;
    for (auto _ : bench)
      {
        active += fixed_motion(osi, start);
        steps += steps_per_motion;
      }
    bench.counters["dofs"]   = model.n_dofs();
    bench.counters["active"] = steps ? double(active) / double(steps) : 0.0;
    bench.counters["steps/s"] = benchmark::Counter(double(steps), benchmark::Counter::kIsRate);
    bench.SetComplexityN(model.n_dofs());
  }

  // The bare loop's fixed motion from `start` (u, v).
  __attribute__((noinline)) void fixed_motion(const Eigen::SparseMatrix<double>                        &A,
                                              const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> &ldlt,
                                              Eigen::VectorXd                                           x)
  {
    const Eigen::Index n = ldlt.rows();
    Eigen::VectorXd    rhs(n), v_plus(n);
    for (unsigned int k = 0; k < steps_per_motion; ++k)
      {
        rhs.noalias() = A * x;
        v_plus        = ldlt.solve(rhs);
        x.head(n) += (0.5 * time_step) * (x.tail(n) + v_plus);
        x.tail(n) = v_plus;
      }
    benchmark::DoNotOptimize(x.data());
  }

  // The θ = 1/2 step of the same model without contact, written as one product and one solve:
  //   v+ = W⁻¹ [−hK | M − h²/4 K] (u, v),   u+ = u + h/2 (v + v+),   W = M + h²/4 K.
  void bare_loop(benchmark::State &bench)
  {
    const auto   model = structure::build_model(beam_on_obstacle(bench.range(0)));
    const auto  &M = model.mass, &K = model.stiffness;
    const double h = time_step;
    const Eigen::Index n = M.rows();
    Eigen::SparseMatrix<double> W = M + (0.25 * h * h) * K;
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(W);
    if (ldlt.info() != Eigen::Success)
      {
        bench.SkipWithError("W not factored");
        return;
      }
    const Eigen::SparseMatrix<double> B = M - (0.25 * h * h) * K;
    const Eigen::SparseMatrix<double> minus_hK = -h * K;
    std::vector<Eigen::Triplet<double>> entries;
    for (Eigen::Index k = 0; k < n; ++k)
      {
        for (Eigen::SparseMatrix<double>::InnerIterator it(minus_hK, k); it; ++it)
          entries.emplace_back(it.row(), it.col(), it.value());
        for (Eigen::SparseMatrix<double>::InnerIterator it(B, k); it; ++it)
          entries.emplace_back(it.row(), n + it.col(), it.value());
      }
    Eigen::SparseMatrix<double> A(n, 2 * n);
    A.setFromTriplets(entries.begin(), entries.end());

    Eigen::VectorXd start(2 * n);
    start << model.initial_displacement, model.initial_velocity;
    unsigned long steps = 0;
    for (auto _ : bench)
      {
        fixed_motion(A, ldlt, start);
        steps += steps_per_motion;
      }
    bench.counters["dofs"]    = double(n);
    bench.counters["steps/s"] = benchmark::Counter(double(steps), benchmark::Counter::kIsRate);
    bench.SetComplexityN(n);
  }
} // namespace

// 50 … 10 000 elements: 100 … 20 000 DoFs.
#define STEPPER_SIZES Arg(50)->Arg(100)->Arg(250)->Arg(500)->Arg(1000)->Arg(2500)->Arg(5000)->Arg(10000)
BENCHMARK(moreau_jean)->STEPPER_SIZES->Unit(benchmark::kMillisecond)->Complexity(benchmark::oN);
BENCHMARK(bare_loop)->STEPPER_SIZES->Unit(benchmark::kMillisecond)->Complexity(benchmark::oN);
// Three motions each, for callgrind's instruction counts.
BENCHMARK(moreau_jean)->Arg(1000)->Arg(5000)->Arg(10000)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(bare_loop)->Arg(1000)->Arg(5000)->Arg(10000)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
