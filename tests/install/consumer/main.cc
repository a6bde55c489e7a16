// A user's program: builds a pinned–pinned beam and checks its first frequency, pi^2.
#include <vibroimpact/model/modal_analysis.h>
#include <vibroimpact/structure/model_builder.h>

#include <cmath>
#include <cstdio>

int main()
{
  using namespace vibroimpact::structure;
  CaseDescription description;
  BodyDescription beam;
  beam.name       = "beam";
  beam.n_elements = 16;
  beam.left = beam.right = EndCondition::pinned;
  description.bodies.push_back(beam);
  const auto model = build_model(description);
  const auto modes = vibroimpact::model::compute_modes(model.mass, model.stiffness, 1);
  const double error = std::abs(modes.omegas[0] - M_PI * M_PI) / (M_PI * M_PI);
  std::printf("omega_1 = %.10f, relative error %.2e\n", modes.omegas[0], error);
  return error < 1e-5 ? 0 : 1;
}
