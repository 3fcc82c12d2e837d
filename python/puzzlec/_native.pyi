"""Type stubs of the compiled module ``puzzlec._native`` (the Rust half of the package).

The public API is ``puzzlec`` itself (``__init__.py``); these are the calls it makes.
"""

from typing import Any, Dict, Iterator, List, Optional, Tuple, final

__all__ = [
    "CertificateError",
    "Drawing",
    "Model",
    "ModelError",
    "PuzzlecError",
    "Solutions",
    "SolveError",
    "StoppedError",
    "UsageError",
    "check",
    "load",
    "loads",
]

class PuzzlecError(Exception):
    """The base of every error puzzlec raises."""

class ModelError(PuzzlecError):
    """A bad model: the message names the file, the line and the problem."""

    path: str
    line: Optional[int]
    problem: str

class UsageError(PuzzlecError):
    """An argument that does not apply, or an input file that cannot be read."""

class SolveError(PuzzlecError):
    """A backend failed, an external solver's answer was refused, or backends disagree."""

class StoppedError(PuzzlecError):
    """A time limit stopped work that has no partial answer."""

class CertificateError(PuzzlecError):
    """A certificate folder was refused; ``reason`` names the step that failed."""

    reason: str

@final
class Drawing:
    """A solution: its rows, its data and its SVG picture."""

    def rows(self) -> List[str]: ...
    def text(self) -> str: ...
    def data(self) -> Dict[str, Any]: ...
    def value(self) -> Optional[int]: ...
    def svg(self) -> str: ...

@final
class Solutions(Iterator[Drawing]):
    """The solutions of an enumeration as they are found."""

    complete: Optional[bool]
    def __iter__(self) -> "Solutions": ...
    def __next__(self) -> Drawing: ...
    def close(self) -> None: ...

@final
class Model:
    """A loaded puzzle."""

    kind: str
    has_objective: bool
    text: str
    origin: str
    def board(self) -> Drawing: ...
    def solve(
        self,
        backend: Optional[str] = None,
        solver: Optional[str] = None,
        time_limit: Optional[float] = None,
        max_memory: Optional[int] = None,
        at_least: Optional[int] = None,
    ) -> Dict[str, Any]: ...
    def count(
        self,
        unique: bool = False,
        backend: Optional[str] = None,
        time_limit: Optional[float] = None,
        max_memory: Optional[int] = None,
        at_least: Optional[int] = None,
    ) -> Dict[str, Any]: ...
    def solutions(
        self,
        unique: bool = False,
        backend: Optional[str] = None,
        time_limit: Optional[float] = None,
        max_memory: Optional[int] = None,
        at_least: Optional[int] = None,
    ) -> Solutions: ...
    def emit(
        self,
        format: str,
        path: Optional[str] = None,
        at_least: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> Optional[str]: ...
    def decode(
        self,
        answer_text: str,
        answer_name: str = "<answer>",
        emitted: Optional[Tuple[str, str]] = None,
    ) -> Dict[str, Any]: ...
    def prove(
        self,
        folder: str,
        count: bool = False,
        unique: bool = False,
        max_solutions: Optional[int] = None,
        time_limit: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> Dict[str, Any]: ...
    def compare(
        self,
        backends: Optional[List[str]] = None,
        time_limit: Optional[float] = None,
        max_memory: Optional[int] = None,
        at_least: Optional[int] = None,
    ) -> Dict[str, Any]: ...

def load(path: str) -> Model: ...
def loads(text: str, name: str = "<string>") -> Model: ...
def check(folder: str) -> Dict[str, Any]: ...
