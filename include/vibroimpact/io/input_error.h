// Bad input: a parameter file, a value, a mesh. The program reports it on one line naming the
// file, the parameter and the reason, and exits with code 2 before it writes anything.
#pragma once

#include <stdexcept>
#include <string>

namespace vibroimpact::io
{
  class InputError : public std::runtime_error
  {
  public:
    InputError(std::string file, std::string parameter, std::string reason);

    const std::string &file() const { return file_; }
    const std::string &parameter() const { return parameter_; }
    const std::string &reason() const { return reason_; }

  private:
    std::string file_;
    std::string parameter_;
    std::string reason_;
  };

  // Exit codes of the command line program (see doc/user-guide.md).
  constexpr int exit_success           = 0;
  constexpr int exit_numerical_failure = 1;
  constexpr int exit_bad_input         = 2;
} // namespace vibroimpact::io
