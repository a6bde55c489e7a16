// A new time-domain solver is one file and one registration (over integrators::SolverBase):
// this contact-free modal superposition solver lives only in the tests, registers itself below,
// and the program's verbs (`simulate`, `compare`, `sweep`, `converge`, `parameters`), called
// here in-process, use it with no other file changed. It is also a physics check: it solves the
// linear structure in closed form (each mode q_j'' + ω_j² q_j = f_j(t), exact for constant and
// harmonic loads), and Moreau–Jean must converge to it where no contact closes.
#include "test_support.h"

#include <vibroimpact/integrators/modal_projection.h>
#include <vibroimpact/integrators/solver_base.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/parameter_section.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include <vibroimpact/studies/case_file.h>
#include "verbs.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

using namespace vibroimpact;
namespace fs = std::filesystem;

namespace
{
  struct ModalSuperpositionSettings
  {
    unsigned int n_modes = 4; // a member named n_modes: the mode convergence study refines it
  };

  void bind_settings(io::ParameterSection &section, ModalSuperpositionSettings &settings)
  {
    section.add("Number of modes", settings.n_modes, 1, std::numeric_limits<unsigned int>::max(), "Modes superposed.");
  }

  // SolverBase keeps and binds the settings, clones and exposes number_of_modes(); the solver
  // adds only its identity, checks and physics.
  class ModalSuperposition : public integrators::SolverBase<ModalSuperposition, ModalSuperpositionSettings>
  {
  public:
    static constexpr integrators::SolverIdentity identity{
      "modal-superposition", "(tests only) contact-free modal superposition, exact for constant and harmonic loads",
      "Modal superposition"};

    void check(const model::StructuralModel &model, const integrators::RunControl &, const std::string &file) const override
    {
      if (settings_.n_modes > model.n_dofs())
        throw io::InputError(file, "Modal superposition/Number of modes", "more modes than DoFs");
      for (const auto &load : model.loads)
        if (load.time.kind == model::TimeFunction::Kind::random)
          throw io::InputError(file, "Load " + load.name, "modal superposition takes constant and harmonic loads");
    }

    integrators::RunSummary run(const model::StructuralModel &model, const integrators::RunControl &control,
                                integrators::ResponseObserver &observer) const override
    {
      const integrators::ModalProjection P(model, settings_.n_modes, {});
      const Eigen::VectorXd             &w = P.omegas();
      // q_j(t) = a_j cos ω_j t + b_j sin ω_j t + Σ_loads particular solutions.
      Eigen::VectorXd a = P.initial_displacement(), b = P.initial_velocity();
      struct Particular
      {
        Eigen::VectorXd amplitude; // per mode
        double          omega = 0, phase = 0;
        bool            harmonic = false;
      };
      std::vector<Particular> particular;
      for (const auto &load : model.loads)
        {
          const Eigen::VectorXd f = P.shapes().transpose() * load.spatial;
          Particular            p;
          p.harmonic = load.time.kind == model::TimeFunction::Kind::harmonic;
          p.omega    = p.harmonic ? load.time.omega : 0.0;
          p.phase    = p.harmonic ? load.time.phase : 0.0;
          p.amplitude = (load.time.amplitude * f).array() / (w.array().square() - p.omega * p.omega);
          // Subtract the particular solution's initial state from the homogeneous part.
          a -= p.amplitude * (p.harmonic ? std::sin(p.phase) : 1.0);
          if (p.harmonic)
            b -= (p.amplitude * p.omega * std::cos(p.phase)).cwiseQuotient(w);
          particular.push_back(p);
        }
      const double    interval = control.output_interval > 0 ? control.output_interval : control.final_time / 1000;
      const auto      n_rows   = static_cast<unsigned long>(std::ceil(control.final_time / interval - 1e-9));
      const Eigen::VectorXd no_impulse = Eigen::VectorXd::Zero(model.contacts.size());
      for (unsigned long k = 0; k <= n_rows; ++k)
        {
          const double    t = std::min(k * interval, control.final_time);
          Eigen::VectorXd q = a.cwiseProduct((w * t).array().cos().matrix()) + b.cwiseProduct((w * t).array().sin().matrix());
          Eigen::VectorXd v = (b.cwiseProduct((w * t).array().cos().matrix()) - a.cwiseProduct((w * t).array().sin().matrix()))
                                .cwiseProduct(w);
          for (const auto &p : particular)
            {
              q += p.amplitude * (p.harmonic ? std::sin(p.omega * t + p.phase) : 1.0);
              if (p.harmonic)
                v += p.amplitude * p.omega * std::cos(p.omega * t + p.phase);
            }
          const Eigen::VectorXd u = P.shapes() * q, velocity = P.shapes() * v;
          integrators::ResponseSample s;
          s.time             = t;
          s.u                = &u;
          s.v                = &velocity;
          s.impulse          = &no_impulse;
          s.energy.kinetic   = P.kinetic_energy(v);
          s.energy.potential = P.potential_energy(q);
          observer.sample(s);
        }
      integrators::RunSummary summary;
      summary.steps = n_rows;
      return summary;
    }
  };

  // The one registration.
  const integrators::SolverRegistration<ModalSuperposition> registration;

  // A pinned–pinned unit beam (ω_j = (jπ)²) released from 0.01 sin πx under a harmonic
  // midspan force; the obstacle is 10 below: no contact closes.
  const char *beam_case = R"(
subsection Model
  set Name = superposition
end
subsection Body beam
  set Type = beam
  set Number of elements = 16
  set Left end = pinned
  set Right end = pinned
  set Initial displacement = 0.01*sin(pi*x)
end
subsection Contact obstacle
  set Body = beam
  set Position = 0.4
  set Gap = 10
end
subsection Probe mid
  set Body = beam
  set Position = 0.5
end
subsection Load F
  set Distribution = point
  set Body = beam
  set Position = 0.5
  set Time dependence = harmonic
  set Amplitude = 1
  set Angular frequency = 5
end
subsection Simulation
  set Solver = modal-superposition
  set Final time = 1
  set Output interval = 1e-3
end
subsection Modal superposition
  set Number of modes = 4
end
subsection Moreau-Jean
  set Time step = 1e-4
end
subsection Run exact
  set Solver    = modal-superposition
  set Overrides = Modal superposition/Number of modes=32
end
subsection Run stepper
  set Solver = moreau-jean
end
subsection Compare
  set Reference = exact
end
subsection Sweep
  set Parameter = forcing frequency
  set Frequency unit = rad/s
  set From = 4
  set To = 6
  set Number of values = 2
  set Transient periods = 1
  set Recorded periods = 3
  set Probe = mid
end
subsection Convergence
  set Study = response
  set Refine = modes
  set Refinement cycles = 4
  set Quantities = rms(u_mid); max(u_mid)
end
)";

  class NewSolver : public ::testing::Test
  {
  protected:
    void SetUp() override
    {
      dir_ = fs::temp_directory_path() /
             ("vibroimpact-new-solver-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
      fs::remove_all(dir_);
      fs::create_directories(dir_);
      std::ofstream(dir_ / "case.prm") << beam_case;
      options_.case_file = (dir_ / "case.prm").string();
      options_.output    = (dir_ / "out").string();
      options_.quiet     = true;
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::vector<double> column(const fs::path &file, const std::string &name) const
    {
      return test_cases::csv_column(file, name);
    }

    fs::path           dir_;
    app::CommonOptions options_;
  };
} // namespace

TEST_F(NewSolver, IsListedWithItsParameters)
{
  std::ostringstream out;
  studies::print_parameters(out, "simulate");
  EXPECT_NE(out.str().find("modal-superposition [subsection Modal superposition]"), std::string::npos);
  EXPECT_NE(out.str().find("subsection Modal superposition"), std::string::npos);
}

TEST_F(NewSolver, SimulateMatchesTheClosedFormOfTheFirstMode)
{
  // Unforced, from 0.01 sin πx: mode 1 moves, u(0.5, t) = 0.01 cos(ω₁ t), ω₁ the FE model's
  // (1.03e-6 above π² at 16 elements, the h⁴ error of the Hermite element).
  options_.overrides = {"Load F/Amplitude=0"};
  ASSERT_EQ(app::run_simulate(options_), 0);
  const auto c  = studies::read_case_file(options_.case_file, options_.overrides);
  const double w1 = integrators::ModalProjection(structure::build_model(c.description), 1, {}).omegas()[0];
  EXPECT_NEAR(w1, M_PI * M_PI, 2e-6 * M_PI * M_PI);
  const auto t = column(dir_ / "out/history.csv", "time");
  const auto u = column(dir_ / "out/history.csv", "u_mid");
  ASSERT_EQ(t.size(), 1001u);
  double worst = 0;
  for (std::size_t k = 0; k < t.size(); ++k)
    worst = std::max(worst, std::abs(u[k] - 0.01 * std::cos(w1 * t[k])));
  std::cout << "[ measured ] |u - 0.01 cos(w1 t)| <= " << worst << "\n";
  EXPECT_LT(worst, 1e-10);
  EXPECT_TRUE(fs::exists(dir_ / "out/events.csv"));
}

TEST_F(NewSolver, CompareAgainstMoreauJean)
{
  ASSERT_EQ(app::run_compare(options_), 0);
  EXPECT_TRUE(fs::exists(dir_ / "out/exact/history.csv"));
  EXPECT_TRUE(fs::exists(dir_ / "out/stepper/history.csv"));
  // θ = 1/2 with h = 1e-4 on the same model and load: the midspan histories agree closely (the
  // stepper's phase error (ωh)²/12 on the modes that the load excites).
  const auto exact   = column(dir_ / "out/exact/history.csv", "u_mid");
  const auto stepper = column(dir_ / "out/stepper/history.csv", "u_mid");
  const auto te = column(dir_ / "out/exact/history.csv", "time"), ts = column(dir_ / "out/stepper/history.csv", "time");
  ASSERT_EQ(exact.size(), stepper.size());
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < exact.size(); ++k)
    {
      ASSERT_NEAR(te[k], ts[k], 1e-12);
      worst = std::max(worst, std::abs(exact[k] - stepper[k]));
      scale = std::max(scale, std::abs(exact[k]));
    }
  EXPECT_LT(worst, 1e-3 * scale);
  std::ifstream report(dir_ / "out/comparison.txt");
  std::string   first;
  std::getline(report, first);
  EXPECT_NE(first.find("stepper against exact"), std::string::npos) << first;
}

TEST_F(NewSolver, SweepSamplesTheForcedResponse)
{
  options_.overrides = {"Body beam/Initial displacement=0"};
  int   argc   = 1;
  char  name[] = "test";
  char *args[] = {name, nullptr};
  char **argv  = args;
  ASSERT_EQ(app::run_sweep(options_, argc, argv), 0);
  // From rest under F sin Ωt, at t = kT (T = 2π/Ω) only the homogeneous part remains:
  // u = Σ_j φ_j(mid) f_j/(ω_j² − Ω²) (−Ω/ω_j) sin(ω_j kT), f_j = φ_jᵀ s, the 4 FE modes.
  const auto c     = studies::read_case_file(options_.case_file, options_.overrides);
  const auto model = structure::build_model(c.description);
  const integrators::ModalProjection P(model, 4, {});
  const Eigen::VectorXd f = P.shapes().transpose() * model.loads.front().spatial;
  const auto u     = column(dir_ / "out/poincare.csv", "u");
  const auto omega = column(dir_ / "out/poincare.csv", "omega");
  const auto time  = column(dir_ / "out/poincare.csv", "time");
  ASSERT_EQ(u.size(), 6u); // 2 values × 3 recorded periods
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < u.size(); ++k)
    {
      const double W = omega[k];
      EXPECT_NEAR(time[k], (k % 3 + 2) * 2 * M_PI / W, 1e-12);
      double exact = 0;
      for (Eigen::Index j = 0; j < 4; ++j)
        {
          const double w = P.omegas()[j];
          exact += P.probe_rows()(0, j) * f[j] / (w * w - W * W) * (-W / w) * std::sin(w * time[k]);
        }
      worst = std::max(worst, std::abs(u[k] - exact));
      scale = std::max(scale, std::abs(exact));
    }
  EXPECT_GT(scale, 1e-4);
  EXPECT_LT(worst, 1e-12 * scale + 1e-15);
}

TEST_F(NewSolver, ConvergeRefinesItsModes)
{
  ASSERT_EQ(app::run_converge(options_), 0);
  const auto errors = column(dir_ / "out/convergence.csv", "error_1");
  const auto modes  = column(dir_ / "out/convergence.csv", "modes");
  // 4, 8, 16 modes against the finest, 32 (every mode of the 16-element model): the midspan
  // response converges as modes are added.
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(modes[0], 4);
  EXPECT_EQ(modes[2], 16);
  EXPECT_GT(errors[0], 0.0);
  EXPECT_LT(errors[1], errors[0]);
  EXPECT_LT(errors[2], errors[1]);
  EXPECT_TRUE(fs::exists(dir_ / "out/convergence.txt"));
}
