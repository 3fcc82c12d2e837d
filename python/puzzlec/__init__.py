"""puzzlec: combinatorial grid puzzles as constraint models, settled and certified.

Load a model (:func:`load`, :func:`loads`) or build one (:func:`queens`, :func:`packing`,
:func:`dissection`), then ask it: :meth:`Model.solve` for one answer with how it was
established, :meth:`Model.count` and :meth:`Model.solutions` for every optimal solution,
:meth:`Model.emit` and :meth:`Model.decode` for external solvers, :meth:`Model.prove` and
:func:`check` for certificates anyone can verify, :func:`compare` for every backend at once.

Every search runs in the Rust library with the GIL released; Ctrl-C stops it and raises
``KeyboardInterrupt``. Errors are :class:`PuzzlecError` subclasses whose messages are the
command line's.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _native
from ._native import (
    CertificateError,
    ModelError,
    PuzzlecError,
    SolveError,
    StoppedError,
    UsageError,
)

__all__ = [
    "Answer",
    "Certificate",
    "CertificateError",
    "Count",
    "Model",
    "ModelError",
    "PuzzlecError",
    "Solution",
    "Solutions",
    "SolveError",
    "StoppedError",
    "UsageError",
    "Verdict",
    "check",
    "chess",
    "compare",
    "dissection",
    "load",
    "loads",
    "packing",
    "queens",
]

PathLike = Union[str, "os.PathLike[str]"]
Grid = Union[str, Sequence[str]]


class Solution:
    """One solution, verified against the puzzle's rules.

    ``rows`` is the grid as the command line prints it; ``coordinates`` the family's data
    (queens: ``{"queens": [[x, y], ...]}``; packing: ``{"pieces": [{"piece": name, "cells":
    [[x, y], ...]}, ...]}``; dissection: ``{"parts": k}``), x the column and y the row from
    the top left, both from 0. In Jupyter it draws itself.
    """

    __slots__ = ("_drawing", "rows", "coordinates", "value")

    def __init__(self, drawing: "_native.Drawing") -> None:
        self._drawing = drawing
        data = drawing.data()
        #: The grid, one string per row.
        self.rows: List[str] = drawing.rows()
        #: The family's coordinates of the solution (without the grid).
        self.coordinates: Dict[str, Any] = {k: v for k, v in data.items() if k != "grid"}
        #: The objective value, or ``None`` for a family without an objective.
        self.value: Optional[int] = drawing.value()

    def svg(self) -> str:
        """The picture of the solution as SVG text."""
        return self._drawing.svg()

    def _repr_svg_(self) -> str:
        return self._drawing.svg()

    def __str__(self) -> str:
        return "\n".join(self.rows)

    def text(self) -> str:
        """The solution as the command line prints it: the value, then the grid."""
        return self._drawing.text()

    def __repr__(self) -> str:
        return f"<puzzlec.Solution value={self.value}>"


class Answer:
    """The answer of one solve: status, value, solution, and how it was established.

    ``status`` is ``"optimal"`` (the best value, proved; for a puzzle without an objective, a
    solution), ``"feasible"`` (a solution: a yes to ``at_least``, or the best found when a
    limit stopped the search; ``proven`` tells them apart), ``"unsatisfiable"`` or
    ``"stopped"`` (a limit stopped the search before any solution). ``evidence`` is the
    library's evidence as a dict (what was refuted, by which solver, with which counts);
    ``evidence_text`` the same in the command line's words.
    """

    __slots__ = (
        "status",
        "proven",
        "value",
        "bound",
        "backend",
        "elapsed",
        "evidence",
        "evidence_text",
        "summary",
        "library_status",
        "_solution",
    )

    def __init__(self, fields: Dict[str, Any]) -> None:
        #: ``"optimal"``, ``"feasible"``, ``"unsatisfiable"`` or ``"stopped"``.
        self.status: str = fields["status"]
        #: Whether the status is settled (not cut short by a limit).
        self.proven: bool = fields["proven"]
        #: The solution's objective value (``None`` without a solution or an objective).
        self.value: Optional[int] = fields["value"]
        #: A proven upper bound on the value, when known.
        self.bound: Optional[int] = fields["bound"]
        #: Who answered: ``sat``, ``milp``, ``native``, ``sat:cadical``...
        self.backend: str = fields["backend"]
        #: Wall-clock seconds.
        self.elapsed: float = fields["elapsed"]
        #: How the answer was established, as data.
        self.evidence: Dict[str, Any] = fields["evidence"]
        #: How the answer was established, in words.
        self.evidence_text: str = fields["evidence_text"]
        #: The command line's summary line (``optimal 20 by sat in 0.004 s: ...``).
        self.summary: str = fields["summary"]
        #: The library's own status word (``satisfiable`` for a yes without an objective).
        self.library_status: str = fields["library_status"]
        drawing = fields["drawing"]
        self._solution: Optional[Solution] = None if drawing is None else Solution(drawing)

    @property
    def solution(self) -> Optional[List[str]]:
        """The solution's grid rows, or ``None`` when there is no solution."""
        return None if self._solution is None else self._solution.rows

    @property
    def coordinates(self) -> Optional[Dict[str, Any]]:
        """The solution's coordinates (see :class:`Solution`), or ``None``."""
        return None if self._solution is None else self._solution.coordinates

    @property
    def solved(self) -> Optional[Solution]:
        """The solution as a :class:`Solution` object, or ``None``."""
        return self._solution

    def __bool__(self) -> bool:
        return self._solution is not None

    def svg(self) -> Optional[str]:
        """The picture of the solution as SVG text, or ``None`` without a solution."""
        return None if self._solution is None else self._solution.svg()

    def _repr_svg_(self) -> Optional[str]:
        return self.svg()

    def __str__(self) -> str:
        grid = "" if self._solution is None else str(self._solution) + "\n"
        return grid + self.summary

    def __repr__(self) -> str:
        value = "" if self.value is None else f" {self.value}"
        return f"<puzzlec.Answer {self.status}{value} by {self.backend}>"


class Count(int):
    """The number of optimal solutions (all solutions, without an objective): an ``int``.

    With ``unique``, ``classes`` is the number of classes under the board's symmetries and
    ``class_sizes`` maps a class size to how many classes have it (``{4: 1, 8: 11}`` for
    eight queens). ``complete`` is False when a limit stopped the count (a lower bound).
    """

    classes: Optional[int]
    class_sizes: Dict[int, int]
    symmetries: int
    complete: bool
    value: Optional[int]
    backend: str
    elapsed: float
    evidence: Dict[str, Any]
    evidence_text: str

    def __new__(cls, fields: Dict[str, Any]) -> "Count":
        count = super().__new__(cls, fields["count"])
        count.classes = fields["classes"]
        count.class_sizes = fields["class_sizes"]
        count.symmetries = fields["symmetries"]
        count.complete = fields["complete"]
        count.value = fields["value"]
        count.backend = fields["backend"]
        count.elapsed = fields["elapsed"]
        count.evidence = fields["evidence"]
        count.evidence_text = fields["evidence_text"]
        return count

    def __str__(self) -> str:
        return str(int(self))

    def __repr__(self) -> str:
        classes = "" if self.classes is None else f", {self.classes} classes"
        more = "" if self.complete else " (incomplete)"
        return f"<puzzlec.Count {int(self)}{classes}{more}>"


class Solutions:
    """The optimal solutions as they are found, from a thread of their own.

    Iterate it; stop early with ``break`` (or :meth:`close`): the search stops when the
    iterator is closed or dropped. ``complete`` is ``None`` while it runs, then whether the
    enumeration finished.
    """

    __slots__ = ("_native",)

    def __init__(self, native: "_native.Solutions") -> None:
        self._native = native

    def __iter__(self) -> "Solutions":
        return self

    def __next__(self) -> Solution:
        drawing = next(self._native)
        return Solution(drawing)

    def close(self) -> None:
        """Stops the enumeration; the iterator ends."""
        self._native.close()

    @property
    def complete(self) -> Optional[bool]:
        """Whether the enumeration finished (``None`` while it runs)."""
        return self._native.complete

    def __enter__(self) -> "Solutions":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self._native.close()


class Verdict:
    """A certificate that was checked: true, with the steps verified and the conclusion."""

    __slots__ = ("folder", "steps", "conclusion")

    def __init__(self, folder: str, fields: Dict[str, Any]) -> None:
        #: The certificate folder.
        self.folder: str = folder
        #: One line per check that passed.
        self.steps: List[str] = fields["steps"]
        #: The certified claim, in words.
        self.conclusion: str = fields["conclusion"]

    def __bool__(self) -> bool:
        return True

    def __str__(self) -> str:
        return "\n".join([f"ok: {step}" for step in self.steps] + [self.conclusion])

    def __repr__(self) -> str:
        return f"<puzzlec.Verdict {self.conclusion!r}>"


class Certificate:
    """A certificate folder that :meth:`Model.prove` wrote: its claim and its files."""

    __slots__ = ("folder", "claim", "how", "files", "manifest")

    def __init__(self, manifest: Dict[str, Any]) -> None:
        #: The folder.
        self.folder: str = manifest["folder"]
        #: What it claims: ``{"answer": "optimal", "value": 20}``, ``{"answer": "count",
        #: "count": 92, ...}``...
        self.claim: Dict[str, Any] = manifest["claim"]
        #: How the claim was established, in words.
        self.how: str = manifest["how"]
        #: The files by role, each with its name, size and SHA-256.
        self.files: Dict[str, Any] = manifest["files"]
        #: The whole manifest.
        self.manifest: Dict[str, Any] = manifest

    def check(self) -> Verdict:
        """Checks the folder (see :func:`check`)."""
        return check(self.folder)

    def __repr__(self) -> str:
        return f"<puzzlec.Certificate {self.claim} in {self.folder}>"


class Model:
    """A puzzle instance: a queens board, a packing or a dissection.

    Made by :func:`load`, :func:`loads`, :func:`queens`, :func:`packing` or
    :func:`dissection`. ``backend`` arguments name ``"sat"`` (varisat), ``"milp"`` (microlp)
    or ``"native"`` (the family's own search); ``None`` picks the fastest measured, as the
    command line does. ``time_limit`` is in seconds, ``max_memory`` in bytes (4 GiB by
    default). In Jupyter a model draws its board.
    """

    __slots__ = ("_native",)

    def __init__(self, native: "_native.Model") -> None:
        self._native = native

    @property
    def kind(self) -> str:
        """The family: ``queens``, ``packing`` or ``dissection``."""
        return self._native.kind

    @property
    def has_objective(self) -> bool:
        """Whether the puzzle has a value to maximise (a dissection or a tiling has none)."""
        return self._native.has_objective

    @property
    def text(self) -> str:
        """The model file's text (TOML)."""
        return self._native.text

    @property
    def origin(self) -> str:
        """The file the model came from, or the name given to its text."""
        return self._native.origin

    def solve(
        self,
        backend: Optional[str] = None,
        time_limit: Optional[float] = None,
        max_memory: Optional[int] = None,
        *,
        at_least: Optional[int] = None,
        solver: Optional[str] = None,
    ) -> Answer:
        """Answers the puzzle: the best value proved best, or (``at_least=k``) whether a
        solution of value at least k exists. ``solver`` names an external program
        (``"cadical"``, ``"cbc"``...) whose answer is read back and checked.
        """
        return Answer(
            self._native.solve(backend, solver, time_limit, max_memory, at_least)
        )

    def count(
        self,
        unique: bool = False,
        *,
        backend: Optional[str] = None,
        time_limit: Optional[float] = None,
        max_memory: Optional[int] = None,
        at_least: Optional[int] = None,
    ) -> Count:
        """Counts the optimal solutions (every solution, without an objective; with
        ``at_least=k`` those of value at least k); with ``unique`` the symmetry classes too.
        ``backend`` is ``"native"`` (the default) or ``"sat"``.
        """
        return Count(
            self._native.count(unique, backend, time_limit, max_memory, at_least)
        )

    def solutions(
        self,
        unique: bool = False,
        *,
        backend: Optional[str] = None,
        time_limit: Optional[float] = None,
        max_memory: Optional[int] = None,
        at_least: Optional[int] = None,
    ) -> Solutions:
        """The optimal solutions one by one (one per symmetry class with ``unique``), found
        on a thread while you iterate; breaking out of the loop stops the search.
        """
        return Solutions(
            self._native.solutions(unique, backend, time_limit, max_memory, at_least)
        )

    def emit(
        self,
        format: str,
        path: Optional[PathLike] = None,
        *,
        at_least: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> Optional[str]:
        """The model as a file for an external solver: ``"dimacs"``, ``"lp"``, ``"wcnf"``,
        ``"opb"``, ``"mzn"`` or ``"fzn"``. Returns the text, or writes ``path`` and returns
        ``None``. With ``at_least=k`` the file asks "objective at least k?".
        """
        target = None if path is None else os.fspath(path)
        return self._native.emit(format, target, at_least, time_limit)

    def decode(
        self,
        answer: Union[str, "os.PathLike[str]"],
        emitted: Union[None, str, "os.PathLike[str]"] = None,
    ) -> Answer:
        """Reads an external solver's answer to a file :meth:`emit` wrote, checks it against
        that file and the puzzle's rules, and returns it as an :class:`Answer` (status
        ``feasible``: an answer read back is never proved best). ``answer`` and ``emitted``
        are text, or paths (``pathlib.Path``) to read; without ``emitted`` the file
        :meth:`emit` writes now gives the variables' names.
        """
        answer_name, answer_text = _text_of(answer, "<answer>")
        pair = None if emitted is None else _text_of(emitted, "<emitted>")
        return Answer(self._native.decode(answer_text, answer_name, pair))

    def prove(
        self,
        folder: PathLike,
        *,
        count: bool = False,
        unique: bool = False,
        max_solutions: Optional[int] = None,
        time_limit: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> Certificate:
        """Writes a certificate of the answer into ``folder`` (with ``count``, of the number
        of solutions; with ``unique``, of the classes too), which :func:`check` verifies
        without trusting puzzlec's search.
        """
        manifest = self._native.prove(
            os.fspath(folder), count, unique, max_solutions, time_limit, max_memory
        )
        return Certificate(manifest)

    def svg(self) -> str:
        """The board drawn with nothing placed, as SVG text."""
        return self._native.board().svg()

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"<puzzlec.Model {self.kind} from {self.origin}>"


def _text_of(source: Union[str, "os.PathLike[str]"], name: str) -> "tuple[str, str]":
    """A (name, text) pair: a path is read, a string is the text itself."""
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        try:
            with open(path, encoding="utf-8") as file:
                return path, file.read()
        except OSError as error:
            raise UsageError(f"{path}: cannot read: {error.strerror}") from None
    return name, source


def load(path: PathLike) -> Model:
    """Reads and validates the model file at ``path`` (raises :class:`ModelError`)."""
    return Model(_native.load(os.fspath(path)))


def loads(text: str, name: str = "<string>") -> Model:
    """Parses model-file ``text`` (TOML); errors name it ``name``."""
    return Model(_native.loads(text, name))


def check(folder: Union[PathLike, Certificate]) -> Verdict:
    """Re-verifies the certificate in ``folder`` (or a :class:`Certificate`'s folder)
    without trusting any of its files; raises :class:`CertificateError` naming the step
    that failed.
    """
    path = folder.folder if isinstance(folder, Certificate) else os.fspath(folder)
    return Verdict(path, _native.check(path))


def compare(
    model: Model,
    backends: Optional[Sequence[str]] = None,
    *,
    time_limit: Optional[float] = None,
    max_memory: Optional[int] = None,
    at_least: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """Runs every backend (by default ``sat``, ``milp``, ``native`` and each external solver
    installed; or those named) on the model and returns one row dict each (``backend``,
    ``status``, ``value``, ``seconds``, ``evidence``...). ``time_limit`` is shared among
    the rows. Raises :class:`SolveError` (with the rows as ``rows``) when two proven answers
    disagree.
    """
    names = None if backends is None else list(backends)
    result = model._native.compare(names, time_limit, max_memory, at_least)
    if "disagreement" in result:
        error = SolveError(result["disagreement"])
        error.rows = result["rows"]  # type: ignore[attr-defined]
        raise error
    rows: List[Dict[str, Any]] = result["rows"]
    return rows


def _grid(grid: Grid) -> str:
    """Grid rows as the body of a TOML multi-line string."""
    rows = grid.strip("\n").split("\n") if isinstance(grid, str) else list(grid)
    for row in rows:
        if '"' in row or "\\" in row:
            raise UsageError(f"grid row {row!r}: a grid holds no quotes or backslashes")
    return '"""\n' + "\n".join(rows) + '\n"""'


def _string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value)


def queens(
    board: Optional[Grid] = None, *, size: Optional[int] = None, name: str = "<queens>"
) -> Model:
    """Queens on ``board`` (rows of ``-`` free and ``*`` obstacle), or on an empty
    ``size`` x ``size`` board: as many queens as possible, none attacking another before an
    obstacle.
    """
    lines = ['kind = "queens"']
    if board is not None:
        lines.append(f"board = {_grid(board)}")
    if size is not None:
        lines.append(f"size = {int(size)}")
    return loads("\n".join(lines) + "\n", name)


def packing(
    width: Optional[int] = None,
    height: Optional[int] = None,
    pieces: Sequence[Union[Grid, Dict[str, Any]]] = (),
    *,
    region: Optional[Grid] = None,
    goal: str = "maximise",
    name: str = "<packing>",
) -> Model:
    """Pieces packed into a ``width`` x ``height`` box (or a ``region`` of ``.`` free and
    ``#`` blocked): as many as possible (``goal="maximise"``) or a tiling (``goal="tile"``).
    Each piece is a shape (rows of ``#`` and ``.``) or a dict with ``shape`` and optionally
    ``name``, ``rotate``, ``reflect``, ``exactly``, ``at_most``.
    """
    lines = ['kind = "packing"', f"goal = {_string(goal)}"]
    if width is not None:
        lines.append(f"width = {int(width)}")
    if height is not None:
        lines.append(f"height = {int(height)}")
    if region is not None:
        lines.append(f"region = {_grid(region)}")
    for number, piece in enumerate(pieces, start=1):
        spec: Dict[str, Any] = dict(piece) if isinstance(piece, dict) else {"shape": piece}
        lines.append("")
        lines.append("[[piece]]")
        lines.append(f"name = {_string(str(spec.pop('name', f'piece{number}')))}")
        lines.append(f"shape = {_grid(spec.pop('shape'))}")
        for key, value in spec.items():
            if isinstance(value, bool):
                lines.append(f"{key} = {'true' if value else 'false'}")
            else:
                lines.append(f"{key} = {int(value)}")
    return loads("\n".join(lines) + "\n", name)


def dissection(
    shape: Grid, parts: int = 2, *, reflect: bool = True, name: str = "<dissection>"
) -> Model:
    """``shape`` (rows of ``#`` cells and ``.`` outside) to cut into ``parts`` congruent
    edge-connected parts, mirror images allowed unless ``reflect=False``.
    """
    lines = [
        'kind = "dissection"',
        f"parts = {int(parts)}",
        f"reflect = {'true' if reflect else 'false'}",
        f"shape = {_grid(shape)}",
    ]
    return loads("\n".join(lines) + "\n", name)


def chess(
    piece: str,
    goal: str,
    board: Optional[Grid] = None,
    *,
    size: Optional[int] = None,
    width: Optional[int] = None,
    height: Optional[int] = None,
    name: str = "<chess>",
) -> Model:
    """Chess pieces (``piece``: queen, rook, bishop, knight or king) on ``board`` (rows of
    ``-`` free and ``*`` obstacle), on an empty ``size`` x ``size`` board, or on an empty
    ``width`` x ``height`` rectangle; ``goal`` is ``"independent"`` (the most pieces, none
    attacking another), ``"dominate"`` (the fewest that guard every free square) or
    ``"independent-dominate"`` (the fewest, none attacking another, that guard it).
    """
    lines = ['kind = "chess"', f"piece = {_string(piece)}", f"goal = {_string(goal)}"]
    if board is not None:
        lines.append(f"board = {_grid(board)}")
    if size is not None:
        lines.append(f"size = {int(size)}")
    if width is not None:
        lines.append(f"width = {int(width)}")
    if height is not None:
        lines.append(f"height = {int(height)}")
    return loads("\n".join(lines) + "\n", name)
