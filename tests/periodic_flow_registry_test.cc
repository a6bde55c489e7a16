// Period maps by name (periodic/flow_map_registry.h): the two built-in maps are registered under
// the names of Continuation/Flow map, make_flow_map builds the same map the constructors build,
// refusals name their parameter, and a map registered in one file joins the choices.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/periodic/continuation_parameters.h>
#include <vibroimpact/periodic/flow_map_registry.h>
#include <vibroimpact/periodic/linear_impact_flow.h>
#include <vibroimpact/periodic/moreau_jean_flow.h>
#include <vibroimpact/structure/model_builder.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <algorithm>

using namespace vibroimpact;
using periodic::Vector;

namespace
{
  // A map added by this file alone: the event-driven map without the energy correction.
  const periodic::FlowMapRegistration uncorrected{
    "test-uncorrected", "the event-driven map without the energy correction (tests only)",
    [](const periodic::FlowMapInput &in) -> std::unique_ptr<periodic::PeriodicFlowMap> {
      return std::make_unique<periodic::LinearImpactFlow>(in.model, in.continuation.event_driven);
    }};

  // Every number of two flows, exactly.
  void expect_identical(const periodic::FlowResult &a, const periodic::FlowResult &b)
  {
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.jacobian, b.jacobian);
    EXPECT_EQ(a.d_period, b.d_period);
    EXPECT_EQ(a.d_unfolding, b.d_unfolding);
    ASSERT_EQ(a.events.size(), b.events.size());
    for (std::size_t k = 0; k < a.events.size(); ++k)
      EXPECT_EQ(a.events[k].time, b.events[k].time);
    EXPECT_EQ(a.min_gap, b.min_gap);
  }
} // namespace

TEST(PeriodicFlowRegistry, NamesAndDocumentationOfContinuationFlowMap)
{
  const auto names = periodic::FlowMapRegistry::names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_TRUE(periodic::FlowMapRegistry::contains("event-driven"));
  EXPECT_TRUE(periodic::FlowMapRegistry::contains("moreau-jean"));
  EXPECT_TRUE(periodic::FlowMapRegistry::contains("test-uncorrected"));
  const std::string doc = periodic::FlowMapRegistry::documentation();
  EXPECT_NE(doc.find("event-driven: exact between impacts, in modal coordinates (linear structures); moreau-jean: "
                     "Steps per period Moreau–Jean steps of the model (any model, the seed's method); "),
            std::string::npos)
    << doc;
}

// The registered maps are the maps the constructors build, with the Moreau-Jean subsection's
// energy correction on both (the sticking family's case has it on).
TEST(PeriodicFlowRegistry, MakeFlowMapBuildsTheMapTheCaseNames)
{
  const auto  c     = test_cases::load_case(test_cases::example("two_dof_sticking_family"));
  const auto  model = structure::build_model(c.description);
  const auto &mj    = test_cases::moreau_jean(c);
  ASSERT_TRUE(mj.energy_correction);
  auto continuation = c.continuation;

  continuation.flow_map = "event-driven";
  const auto event_driven = periodic::make_flow_map({model, continuation, mj});
  EXPECT_EQ(event_driven->name(), "event-driven");
  auto settings                 = continuation.event_driven;
  settings.energy_correction    = mj.energy_correction;
  settings.correction_direction = mj.correction_direction;
  const periodic::LinearImpactFlow direct(model, settings);
  const Vector x0 = direct.linear_mode_state(1, 5 * direct.grazing_energy(1));
  const double T  = 1.2 * direct.linear_period(1);
  expect_identical(event_driven->flow(x0, T, 0.0, true), direct.flow(x0, T, 0.0, true));

  continuation.flow_map = "moreau-jean";
  const auto moreau_jean = periodic::make_flow_map({model, continuation, mj});
  EXPECT_EQ(moreau_jean->name(), "moreau-jean");
  const periodic::MoreauJeanFlow direct_mj(model, mj, continuation.steps_per_period);
  const Vector y0 = direct_mj.linear_mode_state(1, 5 * direct_mj.grazing_energy(1));
  expect_identical(moreau_jean->flow(y0, T, 0.0, true), direct_mj.flow(y0, T, 0.0, true));

  continuation.flow_map = "test-uncorrected";
  const auto uncorrected_map = periodic::make_flow_map({model, continuation, mj});
  const periodic::LinearImpactFlow direct_uncorrected(model, continuation.event_driven);
  expect_identical(uncorrected_map->flow(x0, T, 0.0, false), direct_uncorrected.flow(x0, T, 0.0, false));
}

TEST(PeriodicFlowRegistry, RefusalsNameTheirParameter)
{
  const auto  c     = test_cases::load_case(test_cases::example("two_dof_sticking_family"));
  const auto  model = structure::build_model(c.description);
  const auto &mj    = test_cases::moreau_jean(c);
  auto        continuation = c.continuation;
  continuation.flow_map    = "no-such-map";
  try
    {
      periodic::make_flow_map({model, continuation, mj});
      FAIL() << "an unknown map was built";
    }
  catch (const io::InputError &e)
    {
      EXPECT_EQ(e.parameter(), "Continuation/Flow map");
      EXPECT_NE(e.reason().find("no-such-map"), std::string::npos);
    }

  auto two_body = test_cases::two_dof_chain();
  two_body.contacts[0].other = {"m1", 0.0}; // the stop between the two masses
  const auto coupled = structure::build_model(two_body);
  continuation.flow_map                            = "event-driven";
  continuation.event_driven.massless_contact_nodes = true;
  try
    {
      periodic::make_flow_map({coupled, continuation, mj});
      FAIL() << "a two-body contact was condensed";
    }
  catch (const io::InputError &e)
    {
      EXPECT_EQ(e.parameter(), "Continuation/Massless contact nodes");
      EXPECT_NE(e.reason().find("more than one DoF"), std::string::npos);
    }
}
