// The one response history of every solver (see integrators/response_history.h): rows, events,
// sticking phases, the summary, and events.csv's table (which the studies write).
#include <vibroimpact/integrators/response_history.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace vibroimpact::integrators
{
  namespace
  {
    // The standard columns before the per-contact and per-probe ones (DESIGN.md contract).
    const std::vector<std::string> energy_columns{"time",
                                                  "kinetic_energy",
                                                  "potential_energy",
                                                  "total_energy",
                                                  "external_work",
                                                  "damping_dissipation",
                                                  "impact_dissipation",
                                                  "numerical_dissipation",
                                                  "correction_beta",
                                                  "correction_work",
                                                  "balance_error"};
  } // namespace

  std::string to_string(const ContactEvent::Kind kind)
  {
    switch (kind)
      {
        case ContactEvent::Kind::impact:
          return "impact";
        case ContactEvent::Kind::sticking_start:
          return "sticking_start";
        case ContactEvent::Kind::separation:
        default:
          return "separation";
      }
  }

  void ObserverList::sample(const ResponseSample &sample)
  {
    for (auto *observer : observers_)
      observer->sample(sample);
  }

  void ObserverList::event(const ContactEvent &event)
  {
    for (auto *observer : observers_)
      observer->event(event);
  }

  void ObserverList::support_event(const SupportEvent &event)
  {
    for (auto *observer : observers_)
      observer->support_event(event);
  }

  namespace
  {
    // The columns of the spatial supports, after the probes' (only for models that have them, so
    // that planar histories keep their columns): the friction dissipation, then per support its
    // orbit r1, r2 (the transverse rows at the support) and what its contacts took.
    void add_support_columns(const model::StructuralModel &model, std::vector<std::string> &names,
                             std::vector<ResponseHistory::ColumnFunction> &functions)
    {
      if (model.spatial_supports.empty())
        return;
      names.push_back("friction_dissipation");
      functions.push_back([](const ResponseSample &s) { return s.energy.friction_dissipation; });
      using Member = double SupportSample::*;
      const std::pair<const char *, Member> taken[] = {{"normal_impulse_", &SupportSample::normal_impulse},
                                                       {"tangential_impulse_", &SupportSample::tangential_impulse},
                                                       {"normal_force_", &SupportSample::normal_force},
                                                       {"tangential_force_", &SupportSample::tangential_force},
                                                       {"friction_work_", &SupportSample::friction_work},
                                                       {"wear_work_", &SupportSample::wear_work}};
      for (std::size_t k = 0; k < model.spatial_supports.size(); ++k)
        {
          const auto &support = model.spatial_supports[k];
          for (int j = 0; j < 2; ++j)
            {
              names.push_back((j == 0 ? "r1_" : "r2_") + support.name);
              const model::SparseRow row = support.transverse[j];
              functions.push_back([row, k, j](const ResponseSample &s) {
                return s.u          ? row.dot(*s.u)
                       : s.supports ? (*s.supports)[k].position[j]
                                    : std::numeric_limits<double>::quiet_NaN();
              });
            }
          for (const auto &[prefix, member] : taken)
            {
              names.push_back(prefix + support.name);
              functions.push_back([k, m = member](const ResponseSample &s) {
                return s.supports ? (*s.supports)[k].*m : std::numeric_limits<double>::quiet_NaN();
              });
            }
        }
    }
  } // namespace

  ResponseHistory::ResponseHistory(const model::StructuralModel &model)
    : names_(energy_columns)
  {
    for (const auto &c : model.contacts)
      {
        contacts_.push_back(c.name);
        names_.push_back("gap_" + c.name);
        names_.push_back("impulse_" + c.name);
        names_.push_back("force_" + c.name);
      }
    for (const auto &p : model.probes)
      probes_.push_back(p.name);
    for (const auto &p : model.probes)
      names_.push_back("u_" + p.name);
    for (const auto &p : model.probes)
      names_.push_back("v_" + p.name);

    // Standard columns are computed from the sample and the model's rows; the functions of the
    // per-contact and per-probe columns hold copies of those rows (the history outlives nothing).
    functions_.resize(names_.size());
    std::size_t column = energy_columns.size();
    for (std::size_t c = 0; c < model.contacts.size(); ++c)
      {
        const model::SparseRow row  = model.contacts[c].row;
        const double           gap0 = model.contacts[c].gap0;
        functions_[column]          = [row, gap0, c](const ResponseSample &s) {
          return s.gap ? (*s.gap)[c] : gap0 + row.dot(*s.u);
        };
        column += 3; // impulse and force: filled in sample()
      }
    for (std::size_t k = 0; k < model.probes.size(); ++k)
      {
        const model::SparseRow row = model.probes[k].row;
        functions_[column++]       = [row, k](const ResponseSample &s) {
          return s.probe_u ? (*s.probe_u)[k] : row.dot(*s.u);
        };
      }
    for (std::size_t k = 0; k < model.probes.size(); ++k)
      {
        const model::SparseRow row = model.probes[k].row;
        functions_[column++]       = [row, k](const ResponseSample &s) {
          return s.probe_v ? (*s.probe_v)[k] : row.dot(*s.v);
        };
      }
    for (const auto &support : model.spatial_supports)
      supports_.push_back(support.name);
    add_support_columns(model, names_, functions_);
  }

  void ResponseHistory::add_column(const std::string &name, ColumnFunction value)
  {
    if (!sinks_.empty())
      throw std::logic_error("response history: column '" + name + "' added after a sink took the rows");
    if (has_column(name))
      throw std::invalid_argument("response history: column '" + name + "' exists already");
    names_.push_back(name);
    functions_.push_back(std::move(value));
    for (auto &row : rows_)
      row.push_back(std::numeric_limits<double>::quiet_NaN());
  }

  void ResponseHistory::add_sink(RowSink &sink) { sinks_.push_back(&sink); }

  void ResponseHistory::sample(const ResponseSample &s)
  {
    const double previous = n_samples_ == 0 ? s.time : last_time_;
    const double span     = s.time - previous;
    const auto  &e        = s.energy;
    auto        &row      = row_;
    row.assign({s.time,
                e.kinetic,
                e.potential,
                e.total(),
                e.external_work,
                e.damping_dissipation,
                e.impact_dissipation,
                e.numerical_dissipation,
                e.correction_beta,
                e.correction_work,
                e.balance_error});
    row.resize(names_.size(), 0.0);
    for (std::size_t c = 0; c < contacts_.size(); ++c)
      {
        const std::size_t at = energy_columns.size() + 3 * c;
        const double      p  = s.impulse ? (*s.impulse)[c] : 0.0;
        row[at + 1]          = p;
        row[at + 2]          = s.contact_force ? (*s.contact_force)[c] : span > 0 ? p / span : 0.0;
      }
    for (std::size_t k = energy_columns.size(); k < names_.size(); ++k)
      if (functions_[k])
        row[k] = functions_[k](s);
    for (auto *sink : sinks_)
      sink->row(row);
    if (keep_rows_)
      rows_.push_back(row);
    last_time_ = s.time;
    ++n_samples_;
    if (s.u)
      final_u_ = *s.u;
    if (s.v)
      final_v_ = *s.v;
  }

  void ResponseHistory::event(const ContactEvent &event)
  {
    // Events mostly arrive in order; a time stepper reports an impact when its episode ends.
    const auto at = std::upper_bound(events_.begin(), events_.end(), event.time,
                                     [](double t, const ContactEvent &e) { return t < e.time; });
    events_.insert(at, event);
  }

  void ResponseHistory::support_event(const SupportEvent &event)
  {
    const auto at = std::upper_bound(support_events_.begin(), support_events_.end(), event.time,
                                     [](double t, const SupportEvent &e) { return t < e.time; });
    support_events_.insert(at, event);
  }

  bool ResponseHistory::has_column(const std::string &name) const
  {
    return std::find(names_.begin(), names_.end(), name) != names_.end();
  }

  std::size_t ResponseHistory::index_of(const std::string &name) const
  {
    const auto it = std::find(names_.begin(), names_.end(), name);
    if (it == names_.end())
      throw std::invalid_argument("the response history has no column '" + name + "'");
    return static_cast<std::size_t>(it - names_.begin());
  }

  std::vector<double> ResponseHistory::column(const std::string &name) const
  {
    const std::size_t   k = index_of(name);
    std::vector<double> values;
    values.reserve(rows_.size());
    for (const auto &row : rows_)
      values.push_back(row[k]);
    return values;
  }

  double ResponseHistory::at(const std::size_t row, const std::string &name) const
  {
    return rows_.at(row)[index_of(name)];
  }

  std::vector<ContactEvent> ResponseHistory::impacts() const
  {
    std::vector<ContactEvent> out;
    for (const auto &e : events_)
      if (e.kind == ContactEvent::Kind::impact)
        out.push_back(e);
    return out;
  }

  std::vector<StickingPhase> ResponseHistory::sticking_phases(const double final_time) const
  {
    std::vector<StickingPhase> phases;
    std::vector<int>           open(contacts_.size(), -1);
    for (const auto &e : events_)
      if (e.kind == ContactEvent::Kind::sticking_start && open[e.contact] < 0)
        {
          open[e.contact] = static_cast<int>(phases.size());
          phases.push_back({e.contact, e.time, final_time, false});
        }
      else if (e.kind == ContactEvent::Kind::separation && open[e.contact] >= 0)
        {
          phases[open[e.contact]].end      = e.time;
          phases[open[e.contact]].released = true;
          open[e.contact]                  = -1;
        }
    return phases;
  }

  double interpolate(const std::vector<double> &times, const std::vector<double> &values, const double t)
  {
    const auto it = std::lower_bound(times.begin(), times.end(), t);
    if (it == times.begin())
      return values.front();
    if (it == times.end())
      return values.back();
    const auto   k = static_cast<std::size_t>(it - times.begin());
    const double w = (t - times[k - 1]) / (times[k] - times[k - 1]);
    return (1 - w) * values[k - 1] + w * values[k];
  }

  namespace
  {
    // events.csv's rows, the one rule for both writers: the planar contacts' events and, when
    // the model has supports in space, theirs merged in time order (planar first at equal times)
    // with an angle column (where on the wall; NaN for a planar contact). The merge sorts
    // (time, index) pairs, 16 bytes an event, so a long record's end does not copy its events.
    struct EventRow
    {
      double             time;
      const std::string &contact;
      ContactEvent::Kind kind;
      double             pre, post, impulse, angle;
    };

    template <typename Visit>
    void for_each_event(const ResponseHistory &history, const Visit &visit)
    {
      const auto &planar = history.events();
      const auto &spatial = history.support_events();
      std::vector<std::pair<double, std::size_t>> order;
      order.reserve(planar.size() + spatial.size());
      for (std::size_t k = 0; k < planar.size(); ++k)
        order.emplace_back(planar[k].time, k);
      for (std::size_t k = 0; k < spatial.size(); ++k)
        order.emplace_back(spatial[k].time, planar.size() + k);
      std::stable_sort(order.begin(), order.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
      for (const auto &[time, k] : order)
        if (k < planar.size())
          {
            const auto &e = planar[k];
            visit(EventRow{e.time, history.contact_names().at(e.contact), e.kind, e.pre_velocity, e.post_velocity,
                           e.impulse, std::numeric_limits<double>::quiet_NaN()});
          }
        else
          {
            const auto &e = spatial[k - planar.size()];
            visit(EventRow{e.time, history.support_names().at(e.support), e.kind, e.pre_velocity, e.post_velocity,
                           e.impulse, e.angle});
          }
    }
  } // namespace

  io::CsvTable events_table(const ResponseHistory &history)
  {
    io::CsvTable table({"time"});
    table.add("contact", io::CsvTable::Column::Kind::text);
    table.add("kind", io::CsvTable::Column::Kind::text);
    const bool with_angle = !history.support_names().empty();
    for (const auto *name : {"pre_velocity", "post_velocity", "impulse", "angle"})
      if (with_angle || std::string(name) != "angle")
        table.add(name);
    auto &c = table.columns;
    for_each_event(history, [&](const EventRow &r) {
      c[0].numbers.push_back(r.time);
      c[1].cells.push_back(r.contact);
      c[2].cells.push_back(to_string(r.kind));
      c[3].numbers.push_back(r.pre);
      c[4].numbers.push_back(r.post);
      c[5].numbers.push_back(r.impulse);
      if (with_angle)
        c[6].numbers.push_back(r.angle);
    });
    return table;
  }

  double RunSummary::counter(const std::string &name) const
  {
    for (const auto &[what, value] : counters)
      if (what == name)
        return value;
    return EnergyTerms::untracked;
  }
} // namespace vibroimpact::integrators
