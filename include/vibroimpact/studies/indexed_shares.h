// What the MPI studies (sweep values, ensemble realizations) share when rank 0 gathers the
// ranks' shares: the results merged in the order of their `index`.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace vibroimpact::studies
{
  // The shares of several ranks (each in any order) merged in index order; `what` names one
  // result in the message ("sweep: value"). Throws std::invalid_argument when an index of
  // 0 … n−1 is missing or repeated.
  template <typename Result>
  std::vector<Result> merge_indexed_shares(const std::vector<std::vector<Result>> &shares, const std::string &what)
  {
    std::vector<Result> all;
    for (const auto &share : shares)
      all.insert(all.end(), share.begin(), share.end());
    std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) { return a.index < b.index; });
    for (std::size_t k = 0; k < all.size(); ++k)
      if (all[k].index != k)
        throw std::invalid_argument(what + " " + std::to_string(k) + " missing or repeated in the shares");
    return all;
  }
} // namespace vibroimpact::studies
