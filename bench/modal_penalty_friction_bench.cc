// The modal penalty solver with Coulomb friction, 48 modes per plane, six annular
// supports, 10⁶ steps (the goal: < 4 s). The model is built in modal form by hand (96 uncoupled
// unit-mass oscillators at the pinned beam's ω_j = (jπ)², the supports' rows √2 sin jπx_s on each
// plane's modes): the per-step work is that of a 48 + 48-mode tube, with no mesh to build.
// Run: build/bench/modal_penalty_friction_bench (steps as its argument; 10⁶ by default).
#include <vibroimpact/integrators/penalty.h>

#include <benchmark/benchmark.h>

#include <cmath>

using namespace vibroimpact;

namespace
{
  constexpr int modes_per_plane = 48;

  model::StructuralModel modal_tube(const double mu)
  {
    const int              n = 2 * modes_per_plane;
    model::StructuralModel mdl;
    model::SparseMatrix    M(n, n), K(n, n);
    for (int j = 0; j < n; ++j)
      {
        const double omega = std::pow((j % modes_per_plane + 1) * M_PI, 2);
        M.insert(j, j)     = 1.0;
        K.insert(j, j)     = omega * omega;
      }
    mdl.mass = M, mdl.stiffness = K, mdl.damping = model::SparseMatrix(n, n);
    mdl.dof_kinds.assign(n, model::DofKind::lumped);
    for (int s = 0; s < 6; ++s)
      {
        const double          x = (s + 1) / 7.0;
        model::SpatialSupport support;
        support.name = "support " + std::to_string(s);
        for (int p = 0; p < 2; ++p)
          {
            support.transverse[p].resize(n);
            for (int j = 0; j < modes_per_plane; ++j)
              support.transverse[p].insert(p * modes_per_plane + j) = std::sqrt(2.0) * std::sin((j + 1) * M_PI * x);
          }
        support.clearance = 1e-4;
        support.friction  = mu;
        mdl.spatial_supports.push_back(support);
      }
    // A harmonic load at x = 0.3 in both planes, a quarter period apart (the tube whirls).
    for (int p = 0; p < 2; ++p)
      {
        model::LoadTerm load;
        load.name    = p == 0 ? "y" : "z";
        load.spatial = Eigen::VectorXd::Zero(n);
        for (int j = 0; j < modes_per_plane; ++j)
          load.spatial[p * modes_per_plane + j] = std::sqrt(2.0) * std::sin((j + 1) * M_PI * 0.3);
        load.time.kind      = model::TimeFunction::Kind::harmonic;
        load.time.amplitude = 30.0;
        load.time.omega     = 12.0;
        load.time.phase     = p * M_PI / 2;
        mdl.loads.push_back(load);
      }
    mdl.initial_displacement = Eigen::VectorXd::Zero(n);
    mdl.initial_velocity     = Eigen::VectorXd::Zero(n);
    return mdl;
  }

  struct Counter : integrators::ResponseObserver
  {
    unsigned long rows = 0, events = 0;
    void          sample(const integrators::ResponseSample &) override { ++rows; }
    void          support_event(const integrators::SupportEvent &) override { ++events; }
  };

  void modal_penalty_friction(benchmark::State &state)
  {
    const auto                        mdl = modal_tube(0.3);
    integrators::ModalPenaltySettings s;
    s.time_step            = 1e-5;
    s.stiffness            = 1e6;
    s.tangential_stiffness = 1e6;
    const integrators::ModalPenalty solver(mdl, s);
    integrators::RunControl         control;
    control.final_time      = state.range(0) * s.time_step;
    control.output_interval = 1e-3;
    for (auto _ : state)
      {
        Counter    counter;
        const auto summary     = solver.run(control, counter);
        state.counters["episodes"] = summary.counter("support contact episodes");
        state.counters["events"]   = double(counter.events);
        state.counters["balance"]  = summary.relative_balance_error;
      }
    state.counters["steps"] = double(state.range(0));
  }
} // namespace

BENCHMARK(modal_penalty_friction)->Arg(1000000)->Arg(100000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_MAIN();
