// Cost per Moreau–Jean step with spatial supports: friction (μ = 0.3, Siconos' friction-contact
// solvers) against frictionless (μ = 0, the LCP path) at equal contact activity.
// The model, built by hand: a chain of n nodes moving in both transverse planes (DoFs (y, z) a
// node, springs between neighbours and to the ground), six annular supports at evenly spaced
// nodes, each supported node pressed on its wall by a constant preload P along e1 and driven
// along e2 by a harmonic load of amplitude 1.5 μ P: every support is in contact at every step in
// both runs (counter `active`: contacts a step), sticking and slipping with friction.
//
//   cmake --build build -j2 --target spatial_contact_bench
//   build/bench/spatial_contact_bench --benchmark_counters_tabular=true
//   build/bench/spatial_contact_bench --penetration     (the table of doc/theory.md §10.6)
//
// Each iteration is one step; the state advances across iterations. Goal: friction <= 2x the
// frictionless step at equal activity. doc/performance.md, "Spatial supports with friction".
#include <vibroimpact/integrators/moreau_jean.h>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <string>

using namespace vibroimpact;

namespace
{
  constexpr double time_step = 1e-4, preload = 1.0, clearance = 1e-3;

  model::StructuralModel chain(const int n_nodes, const double mu)
  {
    const int                           n = 2 * n_nodes;
    model::StructuralModel              m;
    std::vector<Eigen::Triplet<double>> k;
    m.mass.resize(n, n);
    for (int i = 0; i < n; ++i)
      {
        m.mass.insert(i, i) = 1.0 / n_nodes;
        k.emplace_back(i, i, 1.0);
      }
    const double spring = 1e3 * n_nodes;
    for (int node = 0; node + 1 < n_nodes; ++node)
      for (int dir = 0; dir < 2; ++dir)
        {
          const int a = 2 * node + dir, b = 2 * (node + 1) + dir;
          k.emplace_back(a, a, spring), k.emplace_back(b, b, spring);
          k.emplace_back(a, b, -spring), k.emplace_back(b, a, -spring);
        }
    m.stiffness.resize(n, n);
    m.stiffness.setFromTriplets(k.begin(), k.end());
    m.damping.resize(n, n);
    m.dof_kinds.assign(n, model::DofKind::lumped);
    model::LoadTerm push, drive;
    push.name = "preload", drive.name = "drive";
    push.spatial = drive.spatial = Eigen::VectorXd::Zero(n);
    push.time.kind = model::TimeFunction::Kind::constant, push.time.amplitude = 1.0;
    drive.time.kind = model::TimeFunction::Kind::harmonic, drive.time.amplitude = 1.0, drive.time.omega = 200.0;
    for (int s = 0; s < 6; ++s)
      {
        const int              node = (2 * s + 1) * n_nodes / 12;
        model::SpatialSupport  support;
        model::SparseRowVector r1(n), r2(n);
        r1.insert(2 * node) = 1.0, r2.insert(2 * node + 1) = 1.0;
        support.name = "support" + std::to_string(s), support.transverse = {{r1, r2}};
        support.clearance = clearance, support.friction = mu;
        m.spatial_supports.push_back(support);
        push.spatial[2 * node]      = preload;
        drive.spatial[2 * node + 1] = 1.5 * 0.3 * preload; // 1.5 μ P of the friction run: stick-slip
      }
    m.loads = {push, drive};
    m.initial_displacement = Eigen::VectorXd::Zero(n);
    for (int i = 0; i < n; i += 2)
      m.initial_displacement[i] = clearance; // every node on the walls' side, the supported ones on it
    m.initial_velocity = Eigen::VectorXd::Zero(n);
    return m;
  }

  void step(benchmark::State &bench, const double mu)
  {
    const auto                      model = chain(static_cast<int>(bench.range(0)), mu);
    integrators::MoreauJeanSettings s;
    s.time_step = time_step;
    const integrators::MoreauJean osi(model, s);
    auto                          state = osi.initial_state();
    unsigned long                 active = 0, steps = 0, stuck = 0;
    for (auto _ : bench)
      {
        const auto report = osi.step(state);
        if (report.lcp_failed)
          bench.SkipWithError(report.lcp_message.c_str());
        active += report.spatial.size();
        for (const auto &c : report.spatial)
          stuck += std::abs(c.tangential_velocity_after[0]) < 1e-9;
        ++steps;
      }
    bench.counters["active"] = double(active) / double(steps);
    bench.counters["stuck"]  = double(stuck) / double(std::max(active, 1ul));
    bench.counters["dofs"]   = double(model.n_dofs());
  }

  void frictionless(benchmark::State &bench) { step(bench, 0.0); }
  void friction(benchmark::State &bench) { step(bench, 0.3); }
} // namespace

BENCHMARK(frictionless)->Arg(28)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(friction)->Arg(28)->Arg(200)->Unit(benchmark::kMicrosecond);

namespace
{
  // doc/theory.md §10.6: the deepest penetration of a frictionless whirl in permanent contact
  // (m = k = c = 1, v = 2, e = 0, θ = ½) at t = 1 and t = 10 for each choice of the annular normal.
  void print_penetration_table()
  {
    const char *names[] = {"start", "u + h v/2", "u + h v/(2 theta)"};
    for (int normal = 0; normal < 3; ++normal)
      for (const double h : {2e-3, 1e-3, 5e-4})
        {
          model::StructuralModel m;
          m.mass      = Eigen::MatrixXd::Identity(2, 2).sparseView();
          m.stiffness = m.mass;
          m.damping.resize(2, 2);
          m.dof_kinds.assign(2, model::DofKind::lumped);
          model::SpatialSupport  s;
          model::SparseRowVector r1(2), r2(2);
          r1.insert(0) = 1.0, r2.insert(1) = 1.0;
          s.name = "hole", s.clearance = 1.0, s.transverse = {{r1, r2}};
          m.spatial_supports     = {s};
          m.initial_displacement = Eigen::Vector2d(1, 0);
          m.initial_velocity     = Eigen::Vector2d(0, 2);
          integrators::MoreauJeanSettings settings;
          settings.time_step      = h;
          settings.annular_normal = static_cast<integrators::AnnularNormal>(normal);
          const integrators::MoreauJean osi(m, settings);
          auto                          state  = osi.initial_state();
          double                        deepest = 0.0;
          const long                    n       = std::lround(10.0 / h);
          for (long k = 1; k <= n; ++k)
            {
              deepest = std::min(deepest, osi.step(state).support_gap[0]);
              if (k == n / 10 || k == n)
                std::printf("normal at %-18s h = %-6g t = %-3g penetration %.2e speed %.6f\n", names[normal], h,
                            k * h, -deepest, state.v.norm());
            }
        }
  }
} // namespace

// `spatial_contact_bench --penetration` prints the table of doc/theory.md §10.6 instead.
int main(int argc, char **argv)
{
  if (argc > 1 && std::string(argv[1]) == "--penetration")
    {
      print_penetration_table();
      return 0;
    }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
