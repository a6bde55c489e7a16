// The locks of the non-reentrant libraries (model/non_reentrant.h): function-local statics, so
// that they exist before the first call whatever the order of static initialisation.
#include <vibroimpact/model/non_reentrant.h>

namespace vibroimpact::model
{
  namespace
  {
    enum class Library
    {
      fftw_planner,
      arpack,
      siconos,
      loca,
      blas_threads
    };

    // One lock per library, made at its first use.
    template <Library library, typename Mutex = std::mutex>
    Mutex &lock_of()
    {
      static Mutex m;
      return m;
    }
  } // namespace

  std::mutex        &fftw_planner_mutex() { return lock_of<Library::fftw_planner>(); }
  std::mutex        &arpack_mutex() { return lock_of<Library::arpack>(); }
  std::mutex        &siconos_mutex() { return lock_of<Library::siconos>(); }
  std::mutex        &loca_mutex() { return lock_of<Library::loca>(); }
  std::shared_mutex &blas_threads_mutex() { return lock_of<Library::blas_threads, std::shared_mutex>(); }
} // namespace vibroimpact::model
