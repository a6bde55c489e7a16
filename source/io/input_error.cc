// One-line bad-input errors (see io/input_error.h): "file[:line]: Section/Entry: reason".
#include <vibroimpact/io/input_error.h>

namespace vibroimpact::io
{
  namespace
  {
    std::string one_line(std::string text)
    {
      for (char &c : text)
        if (c == '\n' || c == '\r' || c == '\t')
          c = ' ';
      return text;
    }

    std::string compose(const std::string &file,
                        const std::string &parameter,
                        const std::string &reason)
    {
      std::string message = file.empty() ? "" : file + ": ";
      if (!parameter.empty())
        message += parameter + ": ";
      return one_line(message + reason);
    }
  } // namespace

  InputError::InputError(std::string file, std::string parameter, std::string reason)
    : std::runtime_error(compose(file, parameter, reason))
    , file_(std::move(file))
    , parameter_(std::move(parameter))
    , reason_(std::move(reason))
  {}
} // namespace vibroimpact::io
