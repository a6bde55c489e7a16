// The locks of the non-reentrant libraries (model/non_reentrant.h): function-local statics, so
// that they exist before the first call whatever the order of static initialisation.
#include <vibroimpact/model/non_reentrant.h>

namespace vibroimpact::model
{
  std::mutex &fftw_planner_mutex()
  {
    static std::mutex m;
    return m;
  }

  std::mutex &arpack_mutex()
  {
    static std::mutex m;
    return m;
  }

  std::mutex &siconos_mutex()
  {
    static std::mutex m;
    return m;
  }

  std::mutex &loca_mutex()
  {
    static std::mutex m;
    return m;
  }

  std::shared_mutex &blas_threads_mutex()
  {
    static std::shared_mutex m;
    return m;
  }
} // namespace vibroimpact::model
