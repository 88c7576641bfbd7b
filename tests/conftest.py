"""Shared test helpers: where the reference data lives.

``tests/data`` holds the reference data whose licence allows copying (tests/data/README.md). The
data that may not be copied stays in the project's shared folder, ``../shared/data`` beside the
clone; the tests that read it skip, naming the missing folder and why it is not in the repository.
Set ``IR_MEASURES_PRES_REQUIRE_SHARED=1`` (``.ci/run`` does when ``../shared/data`` exists) to
make a missing shared folder an error instead of a skip.
"""

import os
import signal
from pathlib import Path

import pytest

# A suite started in the background of a script (``pytest &``) inherits SIGINT ignored, as POSIX
# asks of a non-interactive shell's background jobs, and every command a test starts would inherit
# it too (Python keeps an ignored SIGINT): the tests that press Ctrl-C on a command would then wait
# on a command that never hears it. Commands typed at a prompt start with SIGINT at its default;
# a handler here (not SIG_IGN) makes the commands the tests start begin that way.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: Reference data copied into the repository (see tests/data/README.md).
DATA = Path(__file__).resolve().parent / "data"

#: The project's shared data folder, beside the clone: the data that may not be copied here.
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"

#: Shared folders the tests read, and why each is not copied into tests/data.
NOT_COPIED = {
    ("real", "trec-robust-2003"): (
        "TREC Robust 2003 runs: NIST licence (TREC results-dissemination agreement), "
        "not copied into the repository"
    ),
    ("real",): (
        "the real collections: TREC Robust 2003 runs under the NIST licence (TREC "
        "results-dissemination agreement), not copied into the repository (CLEF TAR 2017 is, in "
        "tests/data)"
    ),
    ("sampled-judgements",): (
        "sampled judgements drawn from the TREC Robust 2003 qrels and runs: NIST licence, not "
        "copied into the repository"
    ),
    ("ntcireval", "upstream"): (
        "NTCIREVAL 190111 sample files: no licence stated, not copied into the repository"
    ),
    ("ntcireval-diversity", "upstream"): (
        "NTCIREVAL 190111's diversity test files (ClueWeb09 docids): no licence stated, not "
        "copied into the repository"
    ),
}


def _missing(*parts: str) -> str | None:
    """Why the tests cannot read ``../shared/data/<parts>``, or None when it is there."""
    path = SHARED_DATA.joinpath(*parts)
    if path.exists():
        return None
    why = next((reason for folder, reason in NOT_COPIED.items() if parts[: len(folder)] == folder), None)
    message = f"needs ../shared/data/{'/'.join(parts)}" + (f" ({why})" if why else "")
    if os.environ.get("IR_MEASURES_PRES_REQUIRE_SHARED"):
        raise FileNotFoundError(f"{message}; IR_MEASURES_PRES_REQUIRE_SHARED is set, looked at {path}")
    return message


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data, unchecked (for module-level names; pair with ``needs_shared``)."""
    return SHARED_DATA.joinpath(*parts)


def needs_shared(*parts: str) -> pytest.MarkDecorator:
    """A mark that skips the test when ../shared/data/<parts> is absent (checked at collection)."""
    reason = _missing(*parts)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def shared_data(*parts: str) -> Path:
    """A path under ../shared/data; skips the test, naming the folder, when it is absent."""
    reason = _missing(*parts)
    if reason is not None:
        pytest.skip(reason)
    return SHARED_DATA.joinpath(*parts)
