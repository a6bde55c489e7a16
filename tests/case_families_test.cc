// Repeated supports and loads declared once (`subsection Supports s`, `subsection Loads f`):
// a family is the sections it stands for. The six-support example, read as written (families)
// and as 6 + 18 separate sections, gives the same model and the same support statistics.
#include <vibroimpact/integrators/solver.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/support_statistics.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace vibroimpact;

namespace
{
  std::string read_text(const std::string &path)
  {
    std::ifstream      in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  // The example with its two families written out as the separate sections they replace: the
  // member names, positions and seeds spelt by hand, as the example read before the families.
  std::string as_sections(const std::string &family_text)
  {
    // As text: the file's digits, not a stream's six significant ones.
    const char *support_x[] = {"0.285714", "0.571429", "0.857143", "1.142857", "1.428571", "1.714286"};
    const char *load_x[]    = {"0.105263", "0.210526", "0.315789", "0.421053", "0.526316", "0.631579",
                               "0.736842", "0.842105", "0.947368", "1.052632", "1.157895", "1.263158",
                               "1.368421", "1.473684", "1.578947", "1.684211", "1.789474", "1.894737"};
    std::ostringstream sections;
    for (int k = 0; k < 6; ++k)
      sections << "subsection Support s" << k + 1 << "\n  set Body = beam\n  set Position = " << support_x[k]
               << "\n  set Lower gap = -1e-3\n  set Upper gap = 1e-3\n  set Type = rigid\n  set Restitution = 0\nend\n";
    for (int k = 0; k < 18; ++k)
      {
        char name[8];
        std::snprintf(name, sizeof name, "f%02d", k + 1);
        sections << "subsection Load " << name << "\n  set Distribution = point\n  set Body = beam\n  set Position = "
                 << load_x[k] << "\n  set Time dependence = random\n  set Amplitude = 5\n  set Band low = 0\n"
                 << "  set Band high = 6283.185307\n  set Number of harmonics = 4096\n  set Seed = " << k + 1 << "\nend\n";
      }
    const auto begin = family_text.find("subsection Supports s");
    const auto end   = family_text.find("end\n", family_text.find("subsection Loads f")) + 4;
    EXPECT_NE(begin, std::string::npos);
    return family_text.substr(0, begin) + sections.str() + family_text.substr(end);
  }

  void expect_same_matrix(const model::SparseMatrix &a, const model::SparseMatrix &b)
  {
    ASSERT_EQ(a.rows(), b.rows());
    EXPECT_EQ(Eigen::MatrixXd(a - b).cwiseAbs().maxCoeff(), 0.0);
  }
} // namespace

TEST(CaseFamilies, SixSupportExampleEqualsItsSeparateSections)
{
  const auto example = test_cases::example("antunes_six_supports");
  const auto file    = fs::temp_directory_path() / "vibroimpact-families-as-sections.prm";
  std::ofstream(file) << as_sections(read_text(example));
  // 15 ms of response: the first impacts come at 9 ms (28 events by 20 ms).
  const std::vector<std::string> shorter{"Simulation/Final time=0.015", "Simulation/Frame interval=0"};
  const auto families = test_cases::load_case(example, shorter), sections = test_cases::load_case(file, shorter);
  fs::remove(file);

  ASSERT_EQ(families.description.supports.size(), 6u);
  ASSERT_EQ(families.description.loads.size(), 18u);
  const auto a = structure::build_model(families.description), b = structure::build_model(sections.description);
  expect_same_matrix(a.mass, b.mass);
  expect_same_matrix(a.stiffness, b.stiffness);
  ASSERT_EQ(a.contacts.size(), b.contacts.size());
  for (std::size_t c = 0; c < a.contacts.size(); ++c)
    {
      EXPECT_EQ(a.contacts[c].name, b.contacts[c].name);
      EXPECT_EQ(a.contacts[c].gap0, b.contacts[c].gap0);
      EXPECT_EQ(Eigen::VectorXd(a.contacts[c].row - b.contacts[c].row).cwiseAbs().maxCoeff(), 0.0);
    }
  ASSERT_EQ(a.supports.size(), b.supports.size());
  for (std::size_t s = 0; s < a.supports.size(); ++s)
    EXPECT_EQ(a.supports[s].name, b.supports[s].name);
  ASSERT_EQ(a.loads.size(), b.loads.size());
  for (std::size_t l = 0; l < a.loads.size(); ++l)
    {
      EXPECT_EQ(a.loads[l].name, b.loads[l].name);
      EXPECT_EQ((a.loads[l].spatial - b.loads[l].spatial).cwiseAbs().maxCoeff(), 0.0);
      EXPECT_EQ(a.loads[l].time.phases, b.loads[l].time.phases) << a.loads[l].name << ": another seed";
      EXPECT_EQ(a.loads[l].time.omegas, b.loads[l].time.omegas);
    }

  const auto history_a = integrators::run_to_history(families.solver(), a, families.run);
  const auto history_b = integrators::run_to_history(sections.solver(), b, sections.run);
  const auto stats_a = studies::support_statistics(a, history_a), stats_b = studies::support_statistics(b, history_b);
  ASSERT_EQ(stats_a.size(), 6u);
  unsigned long impacts = 0;
  for (std::size_t s = 0; s < stats_a.size(); ++s)
    {
      EXPECT_EQ(stats_a[s].name, stats_b[s].name);
      EXPECT_EQ(stats_a[s].impacts, stats_b[s].impacts);
      EXPECT_EQ(stats_a[s].rms_force, stats_b[s].rms_force);
      EXPECT_EQ(stats_a[s].impact_work, stats_b[s].impact_work);
      impacts += stats_a[s].impacts;
    }
  EXPECT_GT(impacts, 0u) << "the comparison needs impacts to mean anything";
  ASSERT_EQ(history_a.n_rows(), history_b.n_rows());
  const auto &last_a = history_a.row(history_a.n_rows() - 1), &last_b = history_b.row(history_b.n_rows() - 1);
  for (std::size_t c = 0; c < last_a.size(); ++c) // untracked terms are NaN in both
    EXPECT_TRUE(last_a[c] == last_b[c] || (std::isnan(last_a[c]) && std::isnan(last_b[c])))
      << history_a.columns()[c];
}
