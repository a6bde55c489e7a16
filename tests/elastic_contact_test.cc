// Elastic contacts (Contact <name>/Stiffness: a massless unilateral spring) against closed forms:
// the bilinear oscillator through the event-driven period map (exact), a free mass thrown at the
// spring through Moreau–Jean (implicit, stable for any k) and through modal-penalty (the linear law),
// their energy ledgers with the spring's energy booked, and the refusal of the other solvers.
#include <vibroimpact/integrators/moreau_jean.h>
#include <vibroimpact/integrators/penalty.h>
#include <vibroimpact/integrators/run_bounds.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/periodic/continuation.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/structure/model_builder.h>

#include "test_support.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace vibroimpact
{
  namespace
  {
    using Vector = Eigen::VectorXd;

    // A mass m on a spring k1 (k1 = 0: free), one DoF u, with an elastic stop of stiffness k
    // above it at gap g (g = g0 − u), started at u = 0 with velocity v0 toward it.
    model::StructuralModel mass_below_a_spring(const double m, const double k1, const double k, const double g,
                                               const double v0)
    {
      model::StructuralModel mdl;
      mdl.mass      = test_cases::diagonal_matrix(Vector::Constant(1, m));
      mdl.stiffness = test_cases::diagonal_matrix(Vector::Constant(1, k1));
      if (k1 == 0)
        mdl.stiffness = model::SparseMatrix(1, 1);
      mdl.damping   = model::SparseMatrix(1, 1);
      mdl.dof_kinds = {model::DofKind::lumped};
      model::Contact stop;
      stop.name      = "stop";
      stop.row       = test_cases::unit_row(1, 0) * -1.0;
      stop.gap0      = g;
      stop.stiffness = k;
      stop.side      = -1.0;
      mdl.contacts.push_back(stop);
      mdl.initial_displacement = Vector::Zero(1);
      mdl.initial_velocity     = Vector::Constant(1, v0);
      return mdl;
    }

    // The bilinear oscillator's orbit through u = 0 with speed v0 (m = 1): it reaches the stop at
    // t1 = asin(g/A)/ω1 (A = v0/ω1) with speed v1 = ω1 √(A² − g²); in contact u oscillates at
    // ω2 = √(k1 + k) about u_e = k g/(k1 + k), entering at y0 = g − u_e above it, so the contact
    // lasts τ = 2 atan2(v1, ω2 y0)/ω2 (π/ω2 for a free mass); the free flight below the stop takes
    // (2π − 2 acos(g/A))/ω1.
    struct BilinearOrbit
    {
      double t1, contact, period;
    };

    BilinearOrbit bilinear_orbit(const double k1, const double k, const double g, const double v0)
    {
      const double w1 = std::sqrt(k1), w2 = std::sqrt(k1 + k), A = v0 / w1;
      const double v1 = w1 * std::sqrt(A * A - g * g), y0 = g - k * g / (k1 + k);
      BilinearOrbit o;
      o.t1      = std::asin(g / A) / w1;
      o.contact = 2 * std::atan2(v1, w2 * y0) / w2;
      o.period  = (2 * M_PI - 2 * std::acos(g / A)) / w1 + o.contact;
      return o;
    }

    // The rows and events of a run.
    struct Recorded : integrators::ResponseObserver
    {
      std::vector<double>                    time, velocity, energy, balance;
      std::vector<integrators::ContactEvent> events;

      void sample(const integrators::ResponseSample &s) override
      {
        time.push_back(s.time);
        energy.push_back(s.energy.total());
        balance.push_back(s.energy.balance_error);
        velocity.push_back(s.v ? (*s.v)[0] : std::nan(""));
      }
      void event(const integrators::ContactEvent &e) override { events.push_back(e); }

      // The closed phase of the spring: from its closing to its separation.
      std::pair<double, double> closed_phase() const
      {
        double closing = -1, opening = -1;
        for (const auto &e : events)
          {
            EXPECT_NE(e.kind, integrators::ContactEvent::Kind::impact) << "an elastic contact has no impact";
            if (e.kind == integrators::ContactEvent::Kind::sticking_start)
              closing = e.time;
            if (e.kind == integrators::ContactEvent::Kind::separation)
              opening = e.time;
          }
        return {closing, opening};
      }
    };
  } // namespace

  // The event-driven map on the bilinear oscillator: one period of the closed form returns the
  // state to round-off, the spring closes and opens at the closed form's times, and the energy
  // (kinetic + strain + spring) is the same at every sample; both flows (the uncoupled oscillators
  // and the dense exponentials) agree.
  TEST(ElasticContact, EventDrivenMapFollowsTheBilinearOscillatorExactly)
  {
    const double k1 = 1.0, k = 10.0, g = 0.5, v0 = 1.0;
    const auto   mdl   = mass_below_a_spring(1.0, k1, k, g, v0);
    const auto   orbit = bilinear_orbit(k1, k, g, v0);
    for (const bool oscillators : {true, false})
      {
        periodic::LinearImpactFlowSettings settings;
        settings.uncoupled_oscillators = oscillators;
        const periodic::LinearImpactFlow flow(mdl, settings);
        const Vector                     x0     = flow.modal_state(mdl.initial_displacement, mdl.initial_velocity);
        const auto                       result = flow.flow(x0, orbit.period, 0.0, false);
        EXPECT_LT((result.x - x0).norm(), 1e-12) << "oscillators " << oscillators;
        ASSERT_EQ(result.events.size(), 2u);
        EXPECT_EQ(result.events[0].kind, periodic::ContactEvent::Kind::sticking_start);
        EXPECT_EQ(result.events[1].kind, periodic::ContactEvent::Kind::separation);
        EXPECT_NEAR(result.events[0].time, orbit.t1, 1e-13);
        EXPECT_NEAR(result.events[1].time - result.events[0].time, orbit.contact, 1e-13);
        const double E0      = 0.5 * v0 * v0;
        const auto   samples = flow.sample(x0, orbit.period, 200);
        for (const double E : samples.energy)
          EXPECT_NEAR(E, E0, 1e-14);
        // Half a contact after closing the spring is at its deepest, and carries energy.
        const double t_deep = orbit.t1 + orbit.contact / 2;
        EXPECT_GT(flow.energy(flow.flow(x0, t_deep, 0.0, false).x), E0 * (1 - 1e-14));
      }
  }

  // A massless contact node on an elastic obstacle: mass 1 on a spring k1 to the ground, tied by a
  // spring K to the contact node (mass ¼ of the total, given to the mass by the condensation) under
  // a stop of stiffness k at gap g. Condensed, it is the bilinear oscillator whose contact spring is
  // K and k in series, Kk/(K + k): the map returns its closed-form orbit, closes and opens the
  // contact at its times, and puts the node where the two springs balance, K (u − u_N) = k (u_N − g).
  TEST(ElasticContact, MasslessNodeOnAnElasticObstacleIsTheSpringsInSeries)
  {
    const double k1 = 1.0, K = 30.0, k = 15.0, g = 0.5, v0 = 1.0;
    model::StructuralModel mdl = mass_below_a_spring(1.0, k1, k, g, v0);
    mdl.mass      = test_cases::diagonal_matrix(Vector::Constant(2, 0.75)); // the node's 0.75 less ½: ¼
    mdl.mass.coeffRef(0, 0) = 0.75;
    mdl.mass.coeffRef(1, 1) = 0.25;
    Eigen::MatrixXd stiffness(2, 2);
    stiffness << k1 + K, -K, -K, K;
    mdl.stiffness              = stiffness.sparseView();
    mdl.damping                = model::SparseMatrix(2, 2);
    mdl.dof_kinds              = {model::DofKind::lumped, model::DofKind::lumped};
    mdl.contacts[0].row        = test_cases::unit_row(2, 1) * -1.0;
    mdl.initial_displacement   = Vector::Zero(2);
    mdl.initial_velocity       = Vector::Constant(2, v0);
    const auto orbit           = bilinear_orbit(k1, K * k / (K + k), g, v0);
    periodic::LinearImpactFlowSettings settings;
    settings.massless_contact_nodes = true;
    const periodic::LinearImpactFlow flow(mdl, settings);
    const Vector x0     = flow.modal_state(mdl.initial_displacement, mdl.initial_velocity);
    const auto   result = flow.flow(x0, orbit.period, 0.0, false);
    EXPECT_LT((result.x - x0).norm(), 1e-12);
    ASSERT_EQ(result.events.size(), 2u);
    EXPECT_NEAR(result.events[0].time, orbit.t1, 1e-12);
    EXPECT_NEAR(result.events[1].time - result.events[0].time, orbit.contact, 1e-12);
    const auto   samples = flow.sample(x0, orbit.period, 100);
    unsigned int closed  = 0;
    for (std::size_t j = 0; j < samples.time.size(); ++j)
      {
        const double u = samples.displacement[j][0], u_node = samples.displacement[j][1];
        EXPECT_NEAR(samples.energy[j], 0.5 * v0 * v0, 1e-14);
        if (u <= g) // open: the node follows the mass (no force in K)
          EXPECT_NEAR(u_node, u, 1e-14);
        else
          {
            EXPECT_NEAR(K * (u - u_node), k * (u_node - g), 1e-12) << "t " << samples.time[j];
            ++closed;
          }
      }
    EXPECT_GT(closed, 5u);
  }

  // Moreau–Jean: a free mass thrown at the spring comes back with its speed reversed after
  // π√(m/k), the ledger closes to round-off at every row with the spring's energy in the
  // potential, and the energy the two switching steps leave is within their bound ½ k (h v0)²
  // each (doc/time_stepping.md §8): O(h²), exact between them (θ = ½).
  TEST(ElasticContact, MoreauJeanThrowsAFreeMassBackWithItsEnergy)
  {
    const double m = 1.0, k = 100.0, g = 0.1037, v0 = 1.0;
    const double contact = M_PI * std::sqrt(m / k);
    for (const double h : {2e-3, 1e-3, 5e-4})
      {
        const auto                      mdl = mass_below_a_spring(m, 0.0, k, g, v0);
        integrators::MoreauJeanSettings settings;
        settings.time_step = h;
        integrators::MoreauJeanSolver solver(settings);
        integrators::RunControl       control;
        control.final_time = 0.5;
        Recorded rows;
        solver.run(mdl, control, rows);
        const auto [closing, opening] = rows.closed_phase();
        EXPECT_NEAR(closing, g / v0, h);
        EXPECT_NEAR(opening - closing, contact, 2 * h);
        EXPECT_NEAR(rows.velocity.back(), -v0, 0.01 * v0);
        for (const double b : rows.balance)
          EXPECT_LT(std::abs(b), 1e-13);
        const double lost = std::abs(rows.energy.back() - rows.energy.front());
        EXPECT_LT(lost, k * h * h * v0 * v0) << "h " << h;
        EXPECT_GT(lost, 0.0) << "h " << h << ": the switches are not exact, and the ledger says so";
      }
  }

  // Stable for any k: a spring a million times stiffer than h resolves still throws the mass back,
  // never faster than it came, and the step's complementarity holds (g_θ + λ/k = 0 while pushed,
  // g_θ >= 0 with no force).
  TEST(ElasticContact, MoreauJeanIsStableForAnyStiffness)
  {
    const double h = 1e-3;
    for (const double k : {1e2, 1e6, 1e10})
      {
        const auto                      mdl = mass_below_a_spring(1.0, 0.0, k, 0.1, 1.0);
        integrators::MoreauJeanSettings settings;
        settings.time_step = h;
        const integrators::MoreauJean osi(mdl, settings);
        integrators::State            state = osi.initial_state();
        for (int step = 0; step < 500; ++step)
          {
            const auto report = osi.step(state);
            ASSERT_FALSE(report.lcp_failed);
            const double w = report.complementarity[0], p = report.impulse[0];
            if (p > 0)
              {
                EXPECT_NEAR(w, 0.0, 1e-12 * (1 + p / (h * k))) << "k " << k << " step " << step;
              }
          }
        EXPECT_LT(state.v[0], 0.0) << "k " << k << ": thrown back";
        EXPECT_LE(std::abs(state.v[0]), 1.0 + 1e-12) << "k " << k;
        EXPECT_TRUE(std::isfinite(osi.kinetic_energy(state.v)));
      }
  }

  // modal-penalty takes the contact's own stiffness as the linear law (exponent 1, no damping):
  // on the bilinear oscillator it closes and opens at the closed form's times, and its energy
  // ledger (the spring's energy in the potential, no impact dissipation) closes to O(h²).
  TEST(ElasticContact, ModalPenaltyIsTheLinearSpring)
  {
    const double k1 = 1.0, k = 10.0, g = 0.5, v0 = 1.0, h = 1e-4;
    const auto   mdl   = mass_below_a_spring(1.0, k1, k, g, v0);
    const auto   orbit = bilinear_orbit(k1, k, g, v0);
    integrators::ModalPenaltySettings settings;
    settings.time_step = h;
    settings.stiffness = 1e9; // the solver's own k_p is not the contact's: never used here
    integrators::RunControl control;
    control.final_time = orbit.period;
    Recorded rows;
    const auto summary = integrators::ModalPenalty(mdl, settings).run(control, rows);
    const auto [closing, opening] = rows.closed_phase();
    EXPECT_NEAR(closing, orbit.t1, 2 * h);
    EXPECT_NEAR(opening - closing, orbit.contact, 2 * h);
    EXPECT_NEAR(rows.velocity.back(), v0, 1e-6);
    EXPECT_LT(std::abs(summary.relative_balance_error), 1e-7);
    for (const double E : rows.energy)
      EXPECT_NEAR(E, 0.5 * v0 * v0, 1e-7);
  }

  // The solvers without a spring law refuse it in one line naming the contact's entry.
  TEST(ElasticContact, OtherSolversRefuseAStiffness)
  {
    const auto mdl = mass_below_a_spring(1.0, 1.0, 10.0, 0.5, 1.0);
    integrators::RunControl control;
    control.final_time = 1.0;
    for (const auto &name : integrators::SolverRegistry::names())
      {
        const auto solver = integrators::SolverRegistry::create(name);
        if (solver->takes_elastic_contacts())
          continue;
        try
          {
            integrators::check_elastic_contacts(*solver, mdl, "case.prm");
            ADD_FAILURE() << name << " took an elastic contact";
          }
        catch (const io::InputError &e)
          {
            EXPECT_NE(std::string(e.what()).find("Contact stop/Stiffness"), std::string::npos) << e.what();
          }
      }
    EXPECT_TRUE(integrators::SolverRegistry::create("moreau-jean")->takes_elastic_contacts());
    EXPECT_TRUE(integrators::SolverRegistry::create("modal-penalty")->takes_elastic_contacts());
  }
} // namespace vibroimpact

namespace vibroimpact
{
  namespace
  {
    // The beam of examples/pinned_beam_backbone/elastic.prm (k = 100) at `elements` elements, every
    // FE mode, and its first nonsmooth mode's orbit at `factor` × the grazing energy (Newton from
    // the one-mode guess).
    struct BeamOrbit
    {
      model::StructuralModel            model;
      std::unique_ptr<periodic::LinearImpactFlow> flow;
      periodic::BranchPoint             point;
    };

    // factor < 0: −factor is the energy itself (the same on every mesh), not a multiple of E_g.
    // start_stiffness > 0: the start carried from contacts of that stiffness.
    BeamOrbit beam_orbit(const unsigned int elements, const double factor, const double stiffness = 100,
                         const double start_stiffness = 0)
    {
      const auto c = test_cases::load_case(std::string(VIBROIMPACT_SOURCE_DIR) +
                                             "/examples/pinned_beam_backbone/elastic.prm",
                                           {"Body beam/Number of elements=" + std::to_string(elements),
                                            "Contact obstacle/Stiffness=" + std::to_string(stiffness)});
      BeamOrbit o;
      o.model = structure::build_model(c.description);
      o.flow  = std::make_unique<periodic::LinearImpactFlow>(o.model, periodic::LinearImpactFlowSettings{});
      periodic::ContinuationSettings settings;
      settings.start_energy_factor = factor > 0 ? factor : -factor / o.flow->grazing_energy(1);
      settings.max_points          = 2;
      settings.start_stiffness     = start_stiffness;
      const auto branch            = periodic::continue_free_family(*o.flow, settings);
      EXPECT_FALSE(branch.points.empty()) << branch.stop_reason;
      if (!branch.points.empty())
        o.point = branch.points.front();
      return o;
    }
  } // namespace

  // Moreau–Jean started on the event-driven map's orbit (20 elements, all 38 modes, the elastic
  // obstacle k = 100, 3.5 E_g) returns to it after one period: on the modes the orbit lives in
  // (the first four) within O(h²) (the spring's force is continuous, so its switches cost h², not
  // h), while the full state converges only once the step resolves the highest FE mode (the
  // trapezoidal rule's phase error where ω h > 1; doc/continuation-beam.md §2).
  TEST(ElasticContact, MoreauJeanReturnsToTheBeamOrbitAtSecondOrder)
  {
    const auto o = beam_orbit(20, 3.5);
    ASSERT_LT(o.point.residual, 1e-8);
    EXPECT_EQ(o.point.sticking_phases, 1u) << "one closed phase of the spring a period";
    const auto   samples = o.flow->sample(o.point.state, o.point.period, 1);
    const Vector u0 = samples.displacement.front(), v0 = samples.velocity.front();
    const auto   low = [](const Vector &x) {
      const Eigen::Index m = x.size() / 2;
      Vector             y(8);
      y << x.head(4), x.segment(m, 4);
      return y;
    };
    std::vector<double> errors;
    for (const unsigned int n : {1000u, 2000u, 4000u})
      {
        integrators::MoreauJeanSettings settings;
        settings.time_step = o.point.period / n;
        const integrators::MoreauJean osi(o.model, settings);
        integrators::State            state{u0, v0, 0.0};
        osi.advance(state, n);
        const Vector x = o.flow->modal_state(state.u, state.v);
        errors.push_back((low(x) - low(o.point.state)).norm() / low(o.point.state).norm());
      }
    EXPECT_LT(errors[0], 2e-3);
    EXPECT_NEAR(errors[0] / errors[1], 4.0, 0.8);
    EXPECT_NEAR(errors[1] / errors[2], 4.0, 0.8);
  }

  // The first NSM on the elastic obstacle with every FE mode converges with the mesh at the order
  // of the Hermite beam's frequencies: at E = 0.012 (4.46 E_g) the frequencies of 10, 20 and 40
  // elements (10.9724127, 10.9722665, 10.9722565) differ by 1.46e-4 and 9.9e-6, order 3.9
  // (doc/continuation-beam.md §2).
  TEST(ElasticContact, BeamNonsmoothModeConvergesAtTheOrderOfTheModes)
  {
    std::vector<double> omega;
    for (const unsigned int n : {10u, 20u, 40u})
      {
        const auto o = beam_orbit(n, -0.012);
        ASSERT_LT(o.point.residual, 1e-8) << n << " elements";
        EXPECT_NEAR(o.point.energy, 0.012, 1e-10);
        omega.push_back(o.point.frequency);
      }
    const double order = std::log2(std::abs(omega[0] - omega[1]) / std::abs(omega[1] - omega[2]));
    EXPECT_NEAR(order, 4.0, 0.4) << omega[0] << " " << omega[1] << " " << omega[2];
    EXPECT_NEAR(omega[2], 10.97226, 2e-5) << "the backbone, not a tongue (20 elements: locked at 10.535)";
  }

  // A stiff spring (k = 1e3) excites the modes beside the family's own: Newton from the one-mode
  // orbit fails with every FE mode, and the start climbs the first 2, 4, 8, ... modes instead
  // (doc/periodic.md §11). At E = 0.0094 the orbit is found on 10, 20 and 40 elements, and its
  // frequency converges toward the order of the Hermite modes (differences 4.4e-4, 4.8e-5).
  TEST(ElasticContact, StiffSpringOrbitIsFoundOnEveryMeshAndConverges)
  {
    std::vector<double> omega;
    for (const unsigned int n : {10u, 20u, 40u})
      {
        const auto o = beam_orbit(n, -0.0094, 1000);
        ASSERT_LT(o.point.residual, 1e-8) << n << " elements";
        EXPECT_NEAR(o.point.energy, 0.0094, 1e-10);
        const auto once = o.flow->flow(o.point.state, o.point.period, 0.0, false);
        EXPECT_LT((once.x - o.point.state).norm(), 1e-8 * o.point.state.norm()) << n << " elements: not an orbit";
        omega.push_back(o.point.frequency);
      }
    const double order = std::log2(std::abs(omega[0] - omega[1]) / std::abs(omega[1] - omega[2]));
    EXPECT_GT(order, 3.0) << omega[0] << " " << omega[1] << " " << omega[2];
    EXPECT_NEAR(omega[2], 11.98807, 1e-4);
  }

  // The start carried in stiffness (Continuation/Start stiffness): the family's start on springs of
  // k = 50, continued at its energy (2 E_g) in ln k to the case's k = 100, is the orbit the
  // direct start finds there. (Carried further, to k = 150, the curve locks in the 1:15 tongue
  // with mode 4 at ω ≈ 10.53 while the direct start lands on the backbone at 10.571: at a fixed
  // energy stiff contacts have many orbits, and the carried one is the start's own.)
  TEST(ElasticContact, StartCarriedInStiffnessReachesTheDirectStartsOrbit)
  {
    const auto direct  = beam_orbit(20, 2, 100);
    const auto carried = beam_orbit(20, 2, 100, 50);
    ASSERT_LT(carried.point.residual, 1e-8);
    EXPECT_NEAR(carried.point.energy, direct.point.energy, 1e-10 * direct.point.energy);
    EXPECT_NEAR(carried.point.frequency, direct.point.frequency, 1e-9 * direct.point.frequency);
    EXPECT_LT((carried.point.state - direct.point.state).norm(), 1e-6 * direct.point.state.norm());
  }

  // The uncoupled oscillators scan a stretch at the step of the modes that carry the contact's
  // motion, and finely only where the rest (bounded by their amplitudes) could make a switch: on
  // the 20-element beam's orbit (every FE mode, k = 100, 40 modes up to 2.2e4 rad/s) they switch
  // the spring when the fine scan does (every step at the highest mode's period / 24) and end in
  // its state to round-off; both agree with the dense exponentials to those's rounding (their
  // exp(A δ) over thousands of steps: 1e-10 in time, 1e-7 in state, 1e-4 in the Jacobian).
  TEST(ElasticContact, CoarseScanSwitchesWhereTheFineScanDoes)
  {
    const auto o = beam_orbit(20, 3.5);
    ASSERT_LT(o.point.residual, 1e-8);
    periodic::LinearImpactFlowSettings fine_settings, dense_settings;
    fine_settings.coarse_scan            = false;
    dense_settings.uncoupled_oscillators = false;
    const periodic::LinearImpactFlow fine_flow(o.model, fine_settings), dense(o.model, dense_settings);
    const double                     scale = o.point.state.norm();
    for (const double fraction : {0.55, 1.0})
      {
        const double T      = fraction * o.point.period;
        const auto   coarse = o.flow->flow(o.point.state, T, 0.0, true);
        const auto   fine   = fine_flow.flow(o.point.state, T, 0.0, true);
        const auto   exact  = dense.flow(o.point.state, T, 0.0, true);
        ASSERT_EQ(coarse.events.size(), fine.events.size()) << fraction;
        ASSERT_EQ(coarse.events.size(), exact.events.size()) << fraction;
        ASSERT_EQ(coarse.events.size(), fraction < 1 ? 1u : 2u) << "the spring closes once and opens once";
        for (std::size_t k = 0; k < coarse.events.size(); ++k)
          {
            EXPECT_EQ(coarse.events[k].kind, fine.events[k].kind);
            EXPECT_NEAR(coarse.events[k].time, fine.events[k].time, 1e-13 * o.point.period);
            EXPECT_NEAR(coarse.events[k].time, exact.events[k].time, 1e-9 * o.point.period);
          }
        EXPECT_LT((coarse.x - fine.x).norm(), 1e-11 * scale) << fraction;
        EXPECT_LT((coarse.jacobian - fine.jacobian).norm(), 1e-10 * fine.jacobian.norm()) << fraction;
        EXPECT_LT((coarse.x - exact.x).norm(), 1e-7 * scale) << fraction;
        EXPECT_LT((coarse.jacobian - exact.jacobian).norm(), 1e-4 * exact.jacobian.norm()) << fraction;
      }
  }

  // The coarse scan's bound at work: mode 1 passes 2e-6 short of the spring (20 elements, just
  // below its grazing energy) while mode 19 alone carries 5e-6 of the gap (less than 1e-3 of its
  // motion, so it is not scanned for): the sum touches the spring, and the coarse scan finds
  // those switches where the fine one does (without the bound it would step over them).
  TEST(ElasticContact, CoarseScanFindsSwitchesOnlyTheHighModesMake)
  {
    const auto o = beam_orbit(20, 3.5);
    periodic::LinearImpactFlowSettings fine_settings;
    fine_settings.coarse_scan = false;
    const periodic::LinearImpactFlow fine_flow(o.model, fine_settings);
    const auto  &B       = o.flow->projection().contact_rows();
    const double gap0    = o.flow->projection().gap0()[0];
    const double grazing = o.flow->grazing_energy(1);
    Vector       x       = o.flow->linear_mode_state(1, grazing * std::pow(1 - 2e-6 / gap0, 2));
    const int    high    = 18; // mode 19
    ASSERT_GT(std::abs(B(0, high)), 1e-3);
    x[high] = 5e-6 / B(0, high);
    const double T      = o.flow->linear_period(1);
    const auto   coarse = o.flow->flow(x, T, 0.0, false);
    const auto   fine   = fine_flow.flow(x, T, 0.0, false);
    ASSERT_GE(fine.events.size(), 2u) << "the high mode makes the sum touch";
    ASSERT_EQ(coarse.events.size(), fine.events.size());
    for (std::size_t k = 0; k < coarse.events.size(); ++k)
      EXPECT_NEAR(coarse.events[k].time, fine.events[k].time, 1e-12 * T) << k;
    EXPECT_LT((coarse.x - fine.x).norm(), 1e-9 * x.norm()) << "a grazing touch: its switch times are ill-conditioned";
  }
} // namespace vibroimpact

namespace vibroimpact
{
  // The subharmonic family that meets the first NSM (doc/continuation-beam.md §2): at 20
  // elements the backbone locks near 2.6 E_g into the tongue where mode 4 runs 15 cycles a period,
  // and Tongue jump steps over it. With Tongue family points the tongue is traced as its own
  // family onward from its entry: over the rest of the energy range (to 5 E_g) it stays locked at
  // 15 ω = ω4 (to 1e-3; its frequency moves by < 1e-4 while the backbone stiffens by 6 %). Traced
  // back from the first orbit past the jump, the other flank is the backbone itself down to the
  // family's start (20 elements: the backbone crosses the tongue).
  TEST(ElasticContact, TongueTheBackboneStepsOverIsTracedAsTheSubharmonicFamily)
  {
    const auto c = test_cases::load_case(std::string(VIBROIMPACT_SOURCE_DIR) +
                                         "/examples/pinned_beam_backbone/elastic.prm");
    const auto model = structure::build_model(c.description);
    const periodic::LinearImpactFlow flow(model, periodic::LinearImpactFlowSettings{});
    periodic::ContinuationSettings   settings = c.continuation.settings;
    const double                     graze    = flow.grazing_energy(1);
    settings.max_energy                       = 5 * graze;
    settings.tongue_family_points             = 60;
    const auto backbone = periodic::continue_free_family(flow, settings);
    ASSERT_FALSE(backbone.points.empty()) << backbone.stop_reason;
    ASSERT_EQ(backbone.children.size(), 2u) << "one tongue stepped over: its two flanks";
    const auto &onward = backbone.children[0], &back = backbone.children[1];

    ASSERT_GE(onward.points.size(), 5u) << onward.stop_reason;
    const double omega4 = 2 * M_PI / flow.linear_period(4);
    double       lowest = onward.points.front().frequency, highest = lowest, top = 0;
    for (const auto &p : onward.points)
      {
        EXPECT_LT(p.residual, 1e-8);
        EXPECT_NEAR(15 * p.frequency / omega4, 1.0, 1e-3) << "at E = " << p.energy << ": not mode 4 at 1:15";
        lowest  = std::min(lowest, p.frequency);
        highest = std::max(highest, p.frequency);
        top     = std::max(top, p.energy);
      }
    EXPECT_LT((highest - lowest) / lowest, 1e-4) << "a tongue is phase-locked";
    EXPECT_GT(top, 0.999 * settings.max_energy) << "the tongue's family spans the energy range";
    EXPECT_GT(backbone.points.back().frequency / backbone.points.front().frequency - 1, 0.05)
      << "while the backbone stiffens";

    ASSERT_FALSE(back.points.empty()) << back.stop_reason;
    EXPECT_NEAR(back.points.back().energy / backbone.points.front().energy, 1.0, 1e-6) << back.stop_reason;
    EXPECT_NEAR(back.points.back().frequency, backbone.points.front().frequency, 1e-7)
      << "back to the backbone's start";
  }
} // namespace vibroimpact
