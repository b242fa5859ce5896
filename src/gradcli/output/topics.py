"""`gradcli help TOPIC`: the language, number display and exit codes in a few lines each.

The commands' own topics are their --help texts (cli.help_command prints them);
these are the topics no single command owns.
"""
from __future__ import annotations

LANGUAGE = """\
The expression language (`gradcli functions` lists every function)

  Numbers      3, -1e-3, 1/3; constants pi (π) and e
  Operators    + - * / and ** or ^ (power, right to left: 2^3^2 = 2^9);
               unary minus binds looser than a power: -x^2 = -(x^2)
  Textbook     juxtaposition multiplies: 2x, x y, (x+1)(x-1), e^z y^4
  notation     functions without parentheses: sin x, ln x + 1, sin 3x = sin(3x)
               powers of functions: sin^2 x = sin(x)^2; sin^-1 x = asin(x)
               glued letters: xy = x*y, 3xy^2 = 3*x*(y^2); longer names stay whole
               printed symbols: √x, x², |x|, ·, ×, ÷, −, π, σ(x) = sigmoid(x)
               log is natural (printed ln); log_b(x) = log(x, b); e^u = exp(u)
  Programs     statements separated by ; or newlines; the last is the result:
                 z = w*x + b; y = sigmoid(z); loss = (y - t)^2
               intermediate names get gradients too (eval --all, --wrt z)
  Functions    f(x) = x^2 sin x; f(2), f'(2), f''(x); g(x, y) = x y; g_x(1, 2), g_xy
  Vectors      [1, 2, 3], [[1, 2], [3, 4]], @, sum, mean, dot
  Comments     # to the end of the line

Every reading that a tool could take differently is shown as "read as" and
warned about once (1/2x is (1/2)*x).
"""

# One line per entry: on a terminal `help` wraps each to its width, lined up under
# the entry's text (output/streams.fit); in a pipe the lines stay whole.
NUMBERS = """\
Numbers and conventions

  Display      plain, json and csv print every digit (the shortest text that reads back as the same double: 28, 0.1); table, markdown, latex, the graph's tree, DOT, Mermaid and pictures round to 6 significant digits and say so once. --precision N picks N digits (17: all).
  --exact      exact rationals where every operation allows (prints 3/4)
  Undefined    a value undefined at the point (log(-1), 1/0) is an error, exit 3
  Kinks        relu, abs, max, sqrt at 0 take PyTorch's value and warn with the one-sided derivatives (relu'(0) = 0, abs'(0) = 0, sqrt'(0) = inf)
  x**y         d/dy is x**y*ln(x); 0**0 is 1
  Rounding     eval warns where rounding destroyed the digits of a result (1 + 1e-17 is 1; terms that cancel) and names the sub-expression
  JSON         nan and infinities are the strings "nan", "inf", "-inf"
"""

EXIT_CODES = """\
Exit codes

  0  success
  1  check: at least one answer is wrong
  2  usage error or invalid expression (parse error, unknown function,
     missing input, non-scalar result)
  3  a value is undefined at the point (domain error, overflow)
  4  an internal error (a bug in gradcli): one line asking for a
     report; --debug shows the traceback
"""

TOPICS = {"language": LANGUAGE, "numbers": NUMBERS, "exit-codes": EXIT_CODES}
ALIASES = {"syntax": "language", "expressions": "language", "conventions": "numbers",
           "precision": "numbers", "exit": "exit-codes", "exit_codes": "exit-codes",
           "codes": "exit-codes"}
