// The continuation study's curves of special points (studies/continuation_curves.h).
#include <vibroimpact/integrators/moreau_jean_settings.h>
#include <vibroimpact/io/gnuplot.h>
#include <vibroimpact/io/csv_writer.h>
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/io/interrupt.h>
#include <vibroimpact/io/number_text.h>
#include <vibroimpact/io/output_folder.h>
#include <vibroimpact/io/progress_bar.h>
#include <vibroimpact/model/structural_model.h>
#include <vibroimpact/periodic/flow_map_registry.h>
#include <vibroimpact/structure/model_builder.h>
#include <vibroimpact/studies/case_file.h>
#include <vibroimpact/studies/continuation_curves.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

namespace vibroimpact::studies
{
  namespace
  {
    // The case's map at each value of the second parameter: the case's text (read once, so that
    // a file edited during a run does not change it) read again with the entry set, so any number
    // entry works, the model and the map built as `continue` builds them.
    class CaseMapFamily : public periodic::MapFamily
    {
    public:
      CaseMapFamily(const CaseFile &c, std::string text, std::string entry)
        : filename_(c.filename)
        , text_(std::move(text))
        , overrides_(c.overrides)
        , entry_(std::move(entry))
        , n_contacts_(static_cast<unsigned int>(structure::build_model(c.description).contacts.size()))
      {
      }

      std::shared_ptr<periodic::PeriodicFlowMap> at(const double lambda, const bool own) override
      {
        const auto built = at_value(lambda, own ? ++owners_ : 0);
        return {built, built->flow.get()};
      }

      unsigned int n_contacts() const override { return n_contacts_; }

      std::pair<double, periodic::Vector> contact_gap(const double lambda, const unsigned int contact) override
      {
        const auto &c = at_value(lambda, 0)->model->contacts.at(contact);
        return {c.gap0, periodic::Vector(c.row.toDense())};
      }

      unsigned long maps_built() const override { return built_; }

    private:
      struct Built
      {
        double                                     lambda = 0.0;
        unsigned long                              owner = 0; // 0: shared
        periodic::ContinuationCase                 continuation;
        integrators::MoreauJeanSettings            moreau_jean;
        std::unique_ptr<model::StructuralModel>    model;
        std::unique_ptr<periodic::PeriodicFlowMap> flow; // keeps references to the three above
      };

      // The model and map at λ (owner 0: shared), the last few shared ones kept.
      std::shared_ptr<Built> at_value(const double lambda, const unsigned long owner)
      {
        for (const auto &b : cache_)
          if (owner == 0 && b->lambda == lambda)
            return b;
        auto overrides = overrides_;
        overrides.push_back(entry_ + "=" + io::number_text(lambda, 17));
        const CaseFile source = read_case_text(filename_, text_, overrides);
        auto            built  = std::make_shared<Built>();
        built->lambda          = lambda;
        built->owner           = owner;
        built->continuation    = source.continuation;
        built->moreau_jean     = source.settings_of<integrators::MoreauJeanSettings>();
        built->model           = std::make_unique<model::StructuralModel>(structure::build_model(source.description));
        built->flow = periodic::make_flow_map({*built->model, built->continuation, built->moreau_jean});
        ++built_;
        if (owner != 0)
          return built;
        if (cache_.size() >= 8)
          cache_.erase(cache_.begin());
        cache_.push_back(built);
        return built;
      }

      std::string                         filename_;
      std::string                         text_;
      std::vector<std::string>            overrides_;
      std::string                         entry_;
      unsigned int                        n_contacts_ = 0;
      unsigned long                       built_ = 0, owners_ = 0;
      std::vector<std::shared_ptr<Built>> cache_;
    };

    // The case's text (a file's, or the text it was given as).
    std::string case_text(const CaseFile &c)
    {
      if (c.text)
        return *c.text;
      std::ifstream in(c.filename);
      return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
  } // namespace

  CurveSetup prepare_curves(const CaseFile &c)
  {
    const auto &cc = c.continuation;
    CurveSetup  setup;
    if (cc.follow.empty())
      return setup;
    const std::string entry = cc.second_parameter;
    const auto        fail  = [&](const std::string &parameter, const std::string &reason) {
      throw io::InputError(c.filename, "Continuation/" + parameter, reason);
    };
    std::optional<std::string> value;
    const std::string text = case_text(c);
    for (const auto &e : case_entries(c.filename, text, c.overrides).entries)
      if (e.path == entry)
        value = e.value;
    if (!value)
      fail("Second parameter", "'" + entry + "' is not an entry of the case (Section/Entry, e.g. Load F/Amplitude)");
    std::size_t used = 0;
    try
      {
        setup.second.value = std::stod(*value, &used);
      }
    catch (const std::exception &)
      {
        used = 0;
      }
    if (used == 0 || value->find_first_not_of(" \t", used) != std::string::npos)
      fail("Second parameter", "'" + entry + "' = '" + *value + "' is not one number");
    setup.second.name = entry;
    setup.second.min  = cc.second_parameter_range.at(0);
    setup.second.max  = cc.second_parameter_range.at(1);
    if (setup.second.value < setup.second.min || setup.second.value > setup.second.max)
      fail("Second parameter range", "[" + io::number_text(setup.second.min, 6) + ", " +
                                       io::number_text(setup.second.max, 6) + "] does not hold the case's " + entry +
                                       " = " + *value + ", where the curves start");
    if (cc.kind != periodic::OrbitKind::forced &&
        std::find(cc.follow.begin(), cc.follow.end(), periodic::SpecialPoint::grazing) != cc.follow.end())
      fail("Follow", "grazing curves are followed for forced responses only");
    setup.maps = std::make_shared<CaseMapFamily>(c, text, entry);
    return setup;
  }

  std::vector<periodic::SpecialPointCurve> trace_curves(const std::vector<periodic::Branch> &branches,
                                                        const periodic::ContinuationCase    &cc, CurveSetup &setup,
                                                        const bool quiet)
  {
    if (!setup.maps)
      return {};
    const auto starts = periodic::followed_points(branches, cc.follow);
    // A bar over the curves, each curve's points moving it within its share.
    io::ProgressBar bar("curves of special points in " + setup.second.name, static_cast<double>(starts.size()), quiet);
    std::vector<periodic::SpecialPointCurve> curves;
    for (const auto &[point, family] : starts)
      {
        if (io::interrupt_signal() != 0)
          break;
        const double done = static_cast<double>(curves.size());
        curves.push_back(periodic::continue_special_point_curve(
          *point, family, cc.kind != periodic::OrbitKind::forced, *setup.maps, setup.second, cc.settings,
          [&](const periodic::SpecialPointCurve &, const std::size_t points) {
            bar.update(done + 1.0 - 1.0 / (1.0 + 0.05 * static_cast<double>(points)));
          }));
      }
    bar.finish();
    return curves;
  }

  io::CsvTable curves_table(const std::vector<periodic::SpecialPointCurve> &curves)
  {
    using Kind = io::CsvTable::Column::Kind;
    io::CsvTable table;
    for (const auto &[name, kind] : std::vector<std::pair<std::string, Kind>>{
           {"curve", Kind::count}, {"kind", Kind::text}, {"frequency", Kind::real}, {"energy", Kind::real},
           {"parameter", Kind::real}, {"special", Kind::text}, {"family", Kind::text}, {"period", Kind::real},
           {"impacts", Kind::count}, {"kappa", Kind::real}, {"phase", Kind::real}})
      table.add(name, kind);
    auto &curve = table.columns[0].numbers, &freq = table.columns[2].numbers, &energy = table.columns[3].numbers,
         &param = table.columns[4].numbers, &period = table.columns[7].numbers, &impacts = table.columns[8].numbers,
         &kappa = table.columns[9].numbers, &phase = table.columns[10].numbers;
    auto &kind = table.columns[1].cells, &special = table.columns[5].cells, &family = table.columns[6].cells;
    for (std::size_t c = 0; c < curves.size(); ++c)
      for (const auto &p : curves[c].points)
        {
          curve.push_back(static_cast<double>(c));
          kind.emplace_back(periodic::name(curves[c].kind));
          freq.push_back(p.frequency);
          energy.push_back(p.energy);
          param.push_back(p.parameter);
          special.emplace_back(periodic::name(p.special));
          family.push_back(curves[c].family);
          period.push_back(p.period);
          impacts.push_back(p.impacts);
          kappa.push_back(p.kappa);
          phase.push_back(p.phase);
        }
    return table;
  }

  void write_curves(const std::vector<periodic::SpecialPointCurve> &curves, const periodic::ContinuationCase &cc,
                    io::OutputFolder &out)
  {
    io::write_csv_table(out / "curves.csv", curves_table(curves));
    if (std::none_of(curves.begin(), curves.end(), [](const auto &c) { return !c.points.empty(); }))
      return;
    const bool         forced = cc.kind == periodic::OrbitKind::forced;
    std::ostringstream gp;
    gp << "# Curves of special points in two parameters (curves.csv, written by vibroimpact continue): a colour\n"
       << "# per kind, the codimension-two points (cusp, fold-flip, grazing, resonances) marked.\n"
       << "set terminal pngcairo size 900,600 noenhanced\nset output 'curves.png'\nset datafile separator ','\n"
       << "set key outside right\nset grid\nset xlabel '" << (forced ? "forcing frequency [rad/s]" : "energy")
       << "'\nset ylabel " << io::gnuplot_quote(cc.second_parameter) << "\nplot ";
    const std::string x = forced ? "3" : "4";
    bool              first = true;
    std::vector<periodic::SpecialPoint> titled;
    for (std::size_t c = 0; c < curves.size(); ++c)
      {
        if (curves[c].points.empty())
          continue;
        const auto kind   = curves[c].kind;
        const auto colour = 1 + std::distance(periodic::special_point_kinds.begin(),
                                              std::find(periodic::special_point_kinds.begin(),
                                                        periodic::special_point_kinds.end(), kind));
        const bool title  = std::find(titled.begin(), titled.end(), kind) == titled.end();
        if (title)
          titled.push_back(kind);
        gp << (first ? "" : ", \\\n     ") << "'< awk -F, ''NR > 1 && $1 == " << c << "'' curves.csv' using " << x
           << ":5 with lines lw 2 lc " << colour << " "
           << (title ? "title " + io::gnuplot_quote(std::string(periodic::name(kind)) + " curves") : "notitle");
        first = false;
      }
    // The codimension-two points, where there are any (gnuplot warns of an empty data set).
    const bool any_special = std::any_of(curves.begin(), curves.end(), [](const auto &c) {
      return std::any_of(c.points.begin(), c.points.end(),
                         [](const auto &p) { return p.special != periodic::CurveEvent::none; });
    });
    if (any_special)
      gp << ", \\\n     '< awk -F, ''NR > 1 && $6 != \"\"'' curves.csv' using " << x
         << ":5 with points pt 7 ps 1.5 lc rgb 'black' title 'codimension two', \\\n     '< awk -F, ''NR > 1 && $6 != "
            "\"\"'' curves.csv' using "
         << x << ":5:6 with labels offset 1,1 left notitle";
    gp << "\n";
    io::run_gnuplot(out / "curves.gp", gp.str());
  }
} // namespace vibroimpact::studies
