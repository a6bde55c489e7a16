#include <vibroimpact/integrators/solver.h>

#include <chrono>
#include <map>
#include <stdexcept>

namespace vibroimpact::integrators
{
  namespace
  {
    // A function-local static: registrations run from static initialisers of other translation
    // units, in an order the language does not fix.
    std::map<std::string, SolverRegistry::Factory> &factories()
    {
      static std::map<std::string, SolverRegistry::Factory> map;
      return map;
    }
  } // namespace

  void Solver::check(const model::StructuralModel &, const RunControl &, const std::string &) const {}

  std::vector<std::string> SolverRegistry::names()
  {
    std::vector<std::string> out;
    for (const auto &entry : factories())
      out.push_back(entry.first);
    return out;
  }

  bool SolverRegistry::contains(const std::string &name)
  {
    return factories().count(name) > 0;
  }

  std::unique_ptr<Solver> SolverRegistry::create(const std::string &name)
  {
    const auto it = factories().find(name);
    if (it == factories().end())
      throw std::invalid_argument("no solver named '" + name + "'");
    return it->second();
  }

  void SolverRegistry::add(const std::string &name, Factory factory)
  {
    if (!factories().emplace(name, std::move(factory)).second)
      throw std::logic_error("two solvers registered as '" + name + "'");
  }

  ResponseHistory run_to_history(const Solver &solver, const model::StructuralModel &model, const RunControl &control,
                                 ResponseObserver *also)
  {
    const auto      start = std::chrono::steady_clock::now();
    ResponseHistory history(model);
    ObserverList    observers;
    observers.add(history);
    if (also)
      observers.add(*also);
    history.summary = solver.run(model, control, observers);
    history.summary.solver = solver.name();
    history.summary.wall_time =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return history;
  }
} // namespace vibroimpact::integrators
