// Functions of x typed by users (initial shapes, load distributions), parsed by deal.II's
// FunctionParser (muparser). Syntax errors become io::InputError.
#pragma once

#include <functional>
#include <string>

namespace vibroimpact::structure
{
  struct ParsedFunction
  {
    std::function<double(double)> value;
    std::function<double(double)> derivative; // by finite differences of the parsed function
  };

  // Variable: x. Constant: pi. parameter names the entry, for the error message.
  ParsedFunction parse_expression(const std::string &text,
                                  const std::string &file,
                                  const std::string &parameter);
} // namespace vibroimpact::structure
