"""Limits every stage shares: a deadline, a memory guard, big numbers, checked options.

This module sits beside :mod:`analyzer.errors`, below everything else, so that
parsing, the solver stages, play and the command line all use the same checks.

- :class:`Deadline` is the one object carried through every stage of a solve;
  each stage calls :meth:`Deadline.check` between steps and before any
  allocation that grows with the board.
- :func:`check_memory` refuses an allocation whose estimated size is past
  :data:`MEMORY_LIMIT` with a :class:`~analyzer.errors.ResourceLimitError`.
- :func:`digit_count`, :func:`rounded` and :func:`exact_text` show integers of
  any size without Python's int-to-string digit limit.
- :func:`whole` and :func:`positive_seconds` check the type of options.
"""

from __future__ import annotations

import decimal
import math
import numbers
import os
import time
import warnings
from fractions import Fraction
from typing import Any, TypeVar

from analyzer.errors import AnalyzerError, OptionError, ResourceLimitError, SolverTimeoutError

__all__ = [
    "Deadline",
    "binomial",
    "binomial_digits",
    "binomial_seconds",
    "gmpy2_module",
    "check_binomial_time",
    "MEMORY_LIMIT",
    "check_memory",
    "digit_count",
    "rounded",
    "exact_text",
    "whole",
    "positive_seconds",
    "flag",
    "plural",
    "percent",
    "probe_dask_scheduler",
    "dask_client",
    "quote",
    "describe_count",
    "is_whole",
    "fraction_text",
    "big_repr",
]


def _default_memory_limit() -> int:
    """An eighth of the machine's memory (at least 512 MiB), or ``ANALYZER_MEMORY_LIMIT`` (in GiB)."""
    chosen = os.environ.get("ANALYZER_MEMORY_LIMIT")
    if chosen:
        try:
            gib = float(chosen)
        except ValueError:
            gib = math.nan
        if math.isfinite(gib) and gib > 0:
            return int(gib * (1 << 30))
        warnings.warn(
            f"ANALYZER_MEMORY_LIMIT must be a positive number of GiB, not {quote(chosen)}:"
            " using an eighth of the machine's memory",
            stacklevel=2,
        )
    try:
        machine = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system: assume 16 GiB
        machine = 16 << 30
    return max(512 << 20, machine // 8)


#: Bytes one estimated allocation may take before it is refused: an eighth of
#: the machine's memory (3 GiB on a 24 GiB machine), or ``ANALYZER_MEMORY_LIMIT``
#: GiB when that environment variable is set. The estimates err high, so the
#: process's peak stays below this plus what the board itself holds.
MEMORY_LIMIT = 0  # set below, once quote() is defined

_E = TypeVar("_E", bound=AnalyzerError)


class Deadline:
    """A point in time (``time.monotonic``) past which work stops.

    ``Deadline(None)`` never expires. :meth:`check` raises
    :class:`~analyzer.errors.SolverTimeoutError` naming the stage that ran out.

    >>> Deadline(None).check("counting")
    >>> d = Deadline.after(1e-9)
    >>> import time; time.sleep(0.001)
    >>> d.check("deductions")
    Traceback (most recent call last):
    ...
    analyzer.errors.SolverTimeoutError: time limit reached during deductions
    """

    __slots__ = ("at",)

    def __init__(self, at: float | None):
        self.at = at

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """The deadline ``seconds`` from now (never, for ``None``)."""
        return cls(None if seconds is None else time.monotonic() + seconds)

    @classmethod
    def of(cls, value: Deadline | float | None) -> Deadline:
        """A :class:`Deadline` from itself or a bare ``time.monotonic()`` instant."""
        return value if isinstance(value, Deadline) else cls(value)

    @property
    def remaining(self) -> float | None:
        """Seconds left (never below 0), ``None`` if there is no deadline."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def check(self, stage: str) -> None:
        """Raise :class:`~analyzer.errors.SolverTimeoutError` if the deadline has passed."""
        if self.at is not None and time.monotonic() >= self.at:
            raise SolverTimeoutError(f"time limit reached during {stage}")

    def sooner(self, seconds: float) -> Deadline:
        """This deadline or ``seconds`` from now, whichever comes first."""
        at = time.monotonic() + seconds
        return Deadline(at if self.at is None else min(at, self.at))

    def __repr__(self) -> str:
        return "Deadline(None)" if self.at is None else f"Deadline.after({self.remaining:.3f})"


#: Digits of a binomial coefficient that CPython's :func:`math.comb` computes in about a
#: second here; the time grows with the square of the digits (measured: 195,673 digits
#: in 1.8 s, 391,349 in 6.7 s on the shared 2-core machine). Set optimistic, so that only
#: work clearly past a time limit is refused.
_COMB_DIGITS_PER_SECOND = 250_000

#: GMP's binomial (through gmpy2) grows about linearly: 1,411,814 digits in 0.11 s and
#: 14,118,171 in 1.3 s here. Set optimistic too.
_GMP_COMB_DIGITS_PER_SECOND = 20_000_000

_gmpy2: object | None = None
_gmpy2_looked = False


def gmpy2_module() -> Any:
    """gmpy2 (GMP's integers), imported on first use; ``None`` where it is not installed."""
    global _gmpy2, _gmpy2_looked
    if not _gmpy2_looked:
        try:
            import gmpy2
        except ImportError:  # pragma: no cover - a dependency; the answers stay exact without it
            gmpy2 = None
        _gmpy2, _gmpy2_looked = gmpy2, True
    return _gmpy2


def binomial(n: int, k: int) -> int:
    """``C(n, k)`` as a Python integer, 0 outside ``0 <= k <= n``.

    GMP's (through gmpy2) where the count is large: :func:`math.comb` takes over
    a second for ``C(10**6, 150000)``, GMP a few milliseconds.

    >>> binomial(5, 2), binomial(3, 5), binomial(10**6, 150_000).bit_length()
    (10, 0, 609831)
    """
    if k < 0 or k > n:
        return 0
    big = gmpy2_module() if n >= _GMP_FROM else None
    return math.comb(n, k) if big is None else int(big.comb(n, k))


#: From this many cells on, :func:`binomial` asks GMP (below, the count has at most
#: 1,233 digits and :func:`math.comb` is as quick, without importing gmpy2).
_GMP_FROM = 4096


def binomial_seconds(digits: float, n: int) -> float:
    """About how long :func:`binomial` takes for ``C(n, k)`` of ``digits`` digits (optimistic)."""
    if n >= _GMP_FROM and gmpy2_module() is not None:
        return digits / _GMP_COMB_DIGITS_PER_SECOND
    return (digits / _COMB_DIGITS_PER_SECOND) ** 2


def binomial_digits(n: int, k: int) -> float:
    """The number of decimal digits of ``C(n, k)``, estimated from ``lgamma``.

    >>> round(binomial_digits(10**6, 166666))
    195673
    """
    if not 0 <= k <= n:
        return 1.0
    return max(1.0, (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(10))


#: ``C(n, k)`` for ``n`` up to this takes some tens of microseconds at most: no estimate is made.
_BINOMIAL_ALWAYS_IN_TIME = 1_024


def check_binomial_time(n: int, k: int, deadline: Deadline | float | None, what: str) -> None:
    """Refuse to compute ``C(n, k)`` exactly when that alone would run well past ``deadline``.

    One call of :func:`binomial` cannot be interrupted: on a board of tens of
    millions of unknown cells the count has millions of digits and takes seconds
    (minutes without GMP), so the time limit is checked against an estimate first.

    >>> try:
    ...     check_binomial_time(10**8, 10**7, Deadline.after(0.1), "the count")
    ... except SolverTimeoutError as error:
    ...     for part in str(error).split(": "):
    ...         print(part)
    the count has about 14,118,170 digits
    computing it exactly would take about 0.71 s or more, past the time limit (without one, it waits)
    >>> check_binomial_time(10**8, 10**7, None, "the count")  # no limit: no refusal
    """
    if n <= _BINOMIAL_ALWAYS_IN_TIME or deadline is None:
        return
    remaining = Deadline.of(deadline).remaining
    if remaining is None:
        return
    digits = binomial_digits(n, k)
    seconds = binomial_seconds(digits, n)
    if seconds > remaining:
        raise SolverTimeoutError(
            f"{what} has about {digits:,.0f} digits: computing it exactly would take about"
            f" {seconds:.2g} s or more, past the time limit (without one, it waits)"
        )


def check_memory(nbytes: int, what: str, *, limit: int | None = None) -> None:
    """Refuse an allocation estimated at ``nbytes`` if it is past the limit.

    >>> check_memory(1000, "a table")
    >>> check_memory(10**12, "a 10^6 x 10^6 table", limit=2 << 30)
    Traceback (most recent call last):
    ...
    analyzer.errors.ResourceLimitError: a 10^6 x 10^6 table would need about 931 GiB, past the 2.0 GiB limit
    """
    cap = MEMORY_LIMIT if limit is None else limit
    if nbytes > cap:
        raise ResourceLimitError(f"{what} would need about {_bytes(nbytes)}, past the {_bytes(cap, 1)} limit")


def _bytes(n: int, decimals: int = 0) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.{decimals}f} {unit}"
    return f"{n} bytes"


# ------------------------------------------------------------------ big numbers
def digit_count(n: int) -> int:
    """Decimal digits of ``abs(n)`` (1 for 0), without converting it to text.

    >>> digit_count(0), digit_count(999), digit_count(1000), digit_count(-10**5000)
    (1, 3, 4, 5001)
    """
    n = abs(n)
    if n < 10:
        return 1
    # log10(2) * bits is within one of the answer; one comparison settles it.
    guess = int((n.bit_length() - 1) * math.log10(2)) + 1
    if n >= 10**guess:
        return guess + 1
    if n < 10 ** (guess - 1):  # pragma: no cover - the estimate is never too high
        return guess - 1
    return guess


def rounded(n: int, figures: int = 3) -> str:
    """``n`` to ``figures`` significant figures; scientific past 15 digits.

    >>> rounded(24), rounded(123456789012345678)
    ('24', '1.23e17')
    >>> rounded(2**120), rounded(-(10**9000))
    ('1.33e36', '-1.00e9000')
    """
    digits = digit_count(n)
    if digits <= 15:
        return str(n)
    sign = "-" if n < 0 else ""
    # Leading figures by integer division: exact, no float overflow.
    lead = (abs(n) * 10 + 5 * 10 ** (digits - figures)) // 10 ** (digits - figures + 1)
    exponent = digits - 1
    if lead >= 10**figures:  # rounding carried into a new digit (9.99.. -> 10.0)
        lead //= 10
        exponent += 1
    text = str(lead)
    return f"{sign}{text[0]}.{text[1:]}e{exponent}"


def exact_text(n: int) -> str:
    """The exact decimal text of an integer of any size (``str`` refuses past a limit).

    >>> exact_text(-120)
    '-120'
    >>> len(exact_text(10**10000))
    10001
    """
    if -(10**4000) < n < 10**4000:
        return str(n)
    # libmpdec converts exactly, with no digit limit, in about n log n time.
    return str(decimal.Decimal(n))


def describe_count(n: int) -> str:
    """A count as a person reads it: exact when short, else rounded with its digit count.

    >>> describe_count(24), describe_count(2**120)
    ('24', '1.33e36 (37 digits)')
    """
    digits = digit_count(n)
    return str(n) if digits <= 15 else f"{rounded(n)} ({digits} digits)"


# ------------------------------------------------------------------ option checks
def quote(text: str, limit: int = 80) -> str:
    """``repr`` of ``text``, cut to about ``limit`` characters with the length said.

    >>> quote("abc")
    "'abc'"
    >>> quote("x" * 1000, 10)
    "'xxxxxxxxxx'... (1000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def whole(
    value: object,
    name: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    error: type[_E] | type[ValueError] = OptionError,
) -> int:
    """``value`` as an ``int`` if it is a whole number in range (numpy ints too, bools not).

    Anything else raises ``error`` (the caller's error class from
    :mod:`analyzer.errors`) with a one-line message naming ``name``.

    >>> whole(3, "mines", minimum=0)
    3
    >>> whole(True, "width", minimum=1)
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: width must be an integer >= 1, got True
    >>> whole(2.0, "seed")
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: seed must be an integer, got 2.0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise error(f"{name} must be {_range_words(minimum, maximum)}, got {_short_repr(value)}")
    number = int(value)
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise error(f"{name} must be {_range_words(minimum, maximum)}, got {_short_repr(value)}")
    return number


def whole_or_none(value: object) -> int | None:
    """``value`` as an ``int`` when it is a whole number (numpy ints too, bools not), else None.

    >>> whole_or_none(3), whole_or_none(True), whole_or_none(2.0)
    (3, None, None)
    """
    return int(value) if is_whole(value) else None  # type: ignore[call-overload]


def is_whole(value: object) -> bool:
    """Whether ``value`` is an integer (numpy ints too), not a bool."""
    return not isinstance(value, bool) and isinstance(value, numbers.Integral)


def _range_words(minimum: int | None, maximum: int | None) -> str:
    if minimum is not None and maximum is not None:
        return f"an integer from {minimum} to {maximum}"
    if minimum is not None:
        return f"an integer >= {minimum}"
    if maximum is not None:
        return f"an integer <= {maximum}"
    return "an integer"


def _short_repr(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and digit_count(value) > 30:
        return rounded(value)
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def positive_seconds(value: object, name: str = "time_limit") -> float | None:
    """A time limit: ``None`` or a positive, finite number of seconds (bools refused).

    >>> positive_seconds(1), positive_seconds(None)
    (1.0, None)
    >>> positive_seconds("1")
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: time_limit must be a positive number of seconds, got '1'
    """
    if value is None:
        return None
    if type(value) is float and 0.0 < value < math.inf:  # the common cases, without the checks below
        return value
    if type(value) is int and 0 < value < 2**53:
        return float(value)
    try:
        seconds = None if isinstance(value, bool) or not isinstance(value, numbers.Real) else float(value)
    except OverflowError:  # an int past float's range
        seconds = None
    if seconds is None or not math.isfinite(seconds) or not seconds > 0:
        raise OptionError(f"{name} must be a positive number of seconds, got {_short_repr(value)}")
    return seconds


def percent(p: Fraction) -> str:
    """A probability in percent with one decimal, never shown as 0 or 100 unless it is.

    >>> percent(Fraction(1, 7)), percent(Fraction(1, 10_000)), percent(Fraction(9_999, 10_000))
    ('14.3%', '<0.1%', '>99.9%')
    """
    value = 100 * float(p)
    if 0 < value < 0.05:
        return "<0.1%"
    if 99.95 < value < 100:
        return ">99.9%"
    return f"{value:.1f}%"


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an ``s`` unless the count is one.

    >>> plural(1, "mine"), plural(3, "cell"), plural(2, "guess")
    ('1 mine', '3 cells', '2 guesses')
    """
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}es" if word.endswith("s") else f"{count} {word}s"


def flag(value: object, name: str) -> bool:
    """A yes/no option: ``True`` or ``False`` (numpy's bools too); anything else is refused.

    A string such as ``"no"`` would be true in Python: it is an error here, not a silent yes.

    >>> flag(False, "trust_flags")
    False
    >>> flag("no", "trust_flags")
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: trust_flags must be True or False, got 'no'
    """
    if isinstance(value, bool):
        return value
    if type(value).__name__ == "bool_" and type(value).__module__ == "numpy":
        return bool(value)
    raise OptionError(f"{name} must be True or False, got {_short_repr(value)}")


DASK_PROBE_SECONDS = 5.0
"""How long :func:`probe_dask_scheduler` waits for the far end to connect and greet."""


def probe_dask_scheduler(address: str, seconds: float | None = None) -> str | None:
    """Why ``address`` is not a reachable Dask scheduler, or ``None`` when its greeting looks right.

    Over TCP (``tcp://host:port`` or ``host:port``) a Dask scheduler greets a new
    connection at once with a short framed message naming its ``compression`` and
    ``python``; a web server (the dashboard's port, say) says nothing, and other
    programs say something else. This reads at most a few hundred bytes for at
    most ``seconds`` (default :data:`DASK_PROBE_SECONDS`), so a wrong address is an
    answer within seconds, never a hang.
    Other transports (``tls://``, ``inproc://``, ``ucx://``) are not probed.
    """
    import socket
    import struct

    target = address[len("tcp://") :] if address.startswith("tcp://") else address
    if "://" in target:
        return None
    host, _, port_text = target.rpartition(":")
    if not host or not port_text.isdigit():
        return f"{address!r} is not a scheduler address (tcp://HOST:PORT)"
    host = host.strip("[]")
    seconds = DASK_PROBE_SECONDS if seconds is None else seconds
    deadline = time.monotonic() + seconds
    try:
        connection = socket.create_connection((host, int(port_text)), timeout=seconds)
    except TimeoutError:
        return f"nothing answered at {address!r} within {seconds:g} s"
    except OSError as error:
        return f"cannot connect to {address!r}: {error.strerror or error}"
    data = b""
    with connection:
        while len(data) < 256 and b"python" not in data:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            connection.settimeout(left)
            try:
                chunk = connection.recv(256)
            except OSError:  # a time-out or a reset: what came so far decides
                break
            if not chunk:
                break
            data += chunk
    if not data:
        return f"{address!r} accepted the connection but said nothing in {seconds:g} s: not a Dask scheduler"
    (length,) = struct.unpack("<Q", data[:8].ljust(8, b"\0"))
    if length > 1 << 20 or b"compression" not in data or b"python" not in data:
        return f"{address!r} answered, but not as a Dask scheduler does"
    return None


def dask_client(
    workers: int, address: str | None, *, processes: bool = True, error: type[AnalyzerError] = OptionError
) -> tuple[Any, Any]:
    """A Dask ``Client`` and the ``LocalCluster`` it runs on (``None`` for a scheduler at ``address``).

    ``address`` ``None`` starts a local cluster of ``workers`` single-threaded workers
    (processes when ``processes``); else the scheduler is probed first
    (:func:`probe_dask_scheduler`), so a wrong address is a clear ``error`` within
    seconds, never a hang. The caller closes both.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - the distributed extra
        raise error(
            "backend 'dask' needs dask.distributed: pip install 'minesweeper-analyzer[distributed]'"
        ) from None
    if address is None:
        import logging

        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        return Client(cluster), cluster
    problem = probe_dask_scheduler(address)
    if problem is not None:
        raise error(f"no Dask scheduler: {problem}")
    try:
        return Client(address, timeout=10), None
    except (OSError, TimeoutError, ValueError) as failure:
        raise error(f"cannot reach the Dask scheduler at {address!r}: {failure}") from None


def fraction_text(p: Fraction) -> str:
    """``"p/q"`` for a fraction of any size (``"4/1"`` for a whole one).

    >>> fraction_text(Fraction(1, 3)), fraction_text(Fraction(4))
    ('1/3', '4/1')
    """
    return f"{exact_text(p.numerator)}/{exact_text(p.denominator)}"


def big_repr(value: object) -> str:
    """``repr`` that also works for ints and Fractions past the digit limit.

    Tuples, lists and dicts are walked; anything else uses its own ``repr``.

    >>> big_repr({2: Fraction(1, 3), 3: (10**5000 // 10**4999,)})
    '{2: Fraction(1, 3), 3: (10,)}'
    >>> len(big_repr(10**6000))
    6001
    """
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return exact_text(value)
    if isinstance(value, Fraction):
        return f"Fraction({exact_text(value.numerator)}, {exact_text(value.denominator)})"
    if isinstance(value, tuple):
        inner = ", ".join(big_repr(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(big_repr(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{big_repr(k)}: {big_repr(v)}" for k, v in value.items()) + "}"
    return repr(value)


MEMORY_LIMIT = _default_memory_limit()
