// Muparser expressions of x (initial shapes, distributed loads) read through deal.II's
// FunctionParser, with its diagnosis turned into one line naming the parameter.
#include <vibroimpact/io/input_error.h>
#include <vibroimpact/structure/expression.h>

#include <deal.II/base/function_parser.h>
#include <deal.II/base/numbers.h>

#include <cmath>
#include <iostream>
#include <regex>
#include <memory>
#include <mutex>
#include <sstream>

namespace vibroimpact::structure
{
  namespace
  {
    // muparser reads "1,5" as two expressions and returns the last (5): a decimal comma would
    // be read silently as another number. A comma belongs only between a function's arguments.
    void refuse_top_level_comma(const std::string &text, const std::string &file, const std::string &parameter)
    {
      int depth = 0;
      for (const char c : text)
        {
          depth += c == '(' ? 1 : c == ')' ? -1 : 0;
          if (c == ',' && depth <= 0)
            throw io::InputError(file, parameter,
                                 "'" + text + "' has a comma outside a function's arguments: write decimals with a "
                                 "point (1.5, not 1,5)");
        }
    }
  } // namespace

  ParsedFunction parse_expression(const std::string &text,
                                  const std::string &file,
                                  const std::string &parameter)
  {
    refuse_top_level_comma(text, file, parameter);
    // h of the finite-difference derivative, relative to the unit of x.
    auto function = std::make_shared<dealii::FunctionParser<1>>(1, 0.0, 1e-6);
    // deal.II prints muparser's diagnosis to std::cerr before it throws: keep it for our one
    // line instead. std::cerr is the process's: one parse at a time borrows it, or a parse in
    // another thread would keep this one's buffer (and write to it once it is gone).
    static std::mutex                  cerr_borrowed;
    std::unique_lock<std::mutex>       borrow(cerr_borrowed);
    std::ostringstream                 diagnosis;
    std::streambuf                    *cerr_buffer = std::cerr.rdbuf(diagnosis.rdbuf());
    std::string         reason;
    try
      {
        function->initialize("x", text, {{"pi", dealii::numbers::PI}});
        const double probe = function->value(dealii::Point<1>(0.0));
        (void)probe;
      }
    catch (const dealii::ExceptionBase &e)
      {
        std::ostringstream message;
        e.print_info(message);
        reason = message.str();
      }
    catch (const std::exception &e)
      {
        reason = e.what();
      }
    std::cerr.rdbuf(cerr_buffer);
    borrow.unlock();
    if (!reason.empty())
      {
        // muparser's own "Message: <why>" says it best; deal.II's text is the fallback.
        static const std::regex muparser_message(R"(Message:\s*<([^>]*)>)");
        std::smatch             match;
        const std::string       printed = diagnosis.str();
        if (std::regex_search(printed, match, muparser_message))
          reason = match[1].str();
        std::string one_line;
        for (const char c : reason)
          if (c != '\n' && !(c == ' ' && !one_line.empty() && one_line.back() == ' '))
            one_line += c;
        throw io::InputError(file, parameter, "cannot parse expression '" + text + "': " + one_line);
      }
    ParsedFunction parsed;
    parsed.value      = [function](double x) { return function->value(dealii::Point<1>(x)); };
    parsed.derivative = [function](double x) { return function->gradient(dealii::Point<1>(x))[0]; };
    return parsed;
  }
} // namespace vibroimpact::structure
