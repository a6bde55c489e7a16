// What the MPI studies (sweep values, ensemble realizations) share: a rank's share run index by
// index until its end or a signal, and the ranks' shares merged on rank 0 in the order of their
// `index`.
#pragma once

#include <vibroimpact/io/interrupt.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vibroimpact::studies
{
  // run(index) for index = first, first + stride, ... < end, done(k) after the k-th. After
  // SIGINT/SIGTERM the share ends with the results finished before it: the one under way is
  // dropped (its run throws io::Interrupted at its next sample) and none is started.
  template <typename Result, typename Run>
  std::vector<Result> run_indexed_share(const unsigned int first, const unsigned int stride, const std::size_t end,
                                        Run &&run, const std::function<void(unsigned int)> &done)
  {
    std::vector<Result> share;
    for (std::size_t index = first; index < end && io::interrupt_signal() == 0; index += stride)
      {
        try
          {
            share.push_back(run(static_cast<unsigned int>(index)));
          }
        catch (const io::Interrupted &)
          {
            break;
          }
        if (done)
          done(static_cast<unsigned int>(share.size()));
      }
    return share;
  }

  // The shares of several ranks (each in any order) merged in index order; `what` names one
  // result in the message ("sweep: value"). Throws std::invalid_argument when an index is
  // repeated, or, unless `partial` (an interrupted study keeps what it finished), when one of
  // 0 … n−1 is missing.
  template <typename Result>
  std::vector<Result> merge_indexed_shares(const std::vector<std::vector<Result>> &shares, const std::string &what,
                                           const bool partial = false)
  {
    std::vector<Result> all;
    for (const auto &share : shares)
      all.insert(all.end(), share.begin(), share.end());
    std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) { return a.index < b.index; });
    for (std::size_t k = 0; k < all.size(); ++k)
      if (partial ? k > 0 && all[k].index == all[k - 1].index : all[k].index != k)
        throw std::invalid_argument(what + " " + std::to_string(partial ? all[k].index : k) +
                                    (partial ? " repeated" : " missing or repeated") + " in the shares");
    return all;
  }
} // namespace vibroimpact::studies
