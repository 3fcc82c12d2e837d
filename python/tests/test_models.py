"""Models built in code, and bad models: the command line's messages, word for word."""

import pytest

import puzzlec


def test_builders_match_the_families():
    assert puzzlec.queens(size=8).count() == 92
    board = puzzlec.queens(["--*", "---", "*--"])
    assert board.kind == "queens" and board.solve().status == "optimal"
    dominoes = puzzlec.packing(2, 2, ["##"], goal="tile")
    assert not dominoes.has_objective and dominoes.count() == 2
    crosses = puzzlec.packing(
        5, 5, [{"name": "plus", "shape": [".#.", "###", ".#."], "at_most": 1}]
    )
    assert crosses.solve().value == 1
    square = puzzlec.dissection(["##", "##"], parts=2)
    assert square.count() == 2
    queens = puzzlec.chess("queen", "dominate", size=8)
    answer = queens.solve()
    assert (answer.status, answer.value) == ("optimal", 5)
    assert queens.count(unique=True).classes == 638
    knights = puzzlec.chess("knight", "independent", ["---", "-*-", "---"])
    assert knights.solve().value == 4


def test_loads_names_the_text():
    model = puzzlec.loads('kind = "queens"\nsize = 4\n', name="four.toml")
    assert model.origin == "four.toml" and model.solve().value == 4


@pytest.mark.parametrize(
    "text, message",
    [
        (
            'kind = "queens"\nboard = """\n--x\n---\n"""\n',
            "{path}:3: `board` has unknown character 'x' (expected '-', '*')",
        ),
        ('kind = "queens"\nsize = 0\n', "{path}:2: `size` is 0; it must be between 1 and 64"),
        ('kind = "queens"\nsize = [\n', "{path}:3: invalid array: expected `]`"),
    ],
)
def test_bad_model_files(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(puzzlec.ModelError) as raised:
        puzzlec.load(path)
    assert str(raised.value) == message.format(path=path)
    assert raised.value.path == str(path)
    assert raised.value.line == int(message.split(":")[1])


def test_missing_file():
    with pytest.raises(puzzlec.ModelError) as raised:
        puzzlec.load("no-such.toml")
    assert str(raised.value) == "no-such.toml: cannot read: no such file"
    assert raised.value.line is None


def test_bad_arguments(models):
    model = puzzlec.load(models / "halves-asahi-2005.toml")
    with pytest.raises(puzzlec.UsageError, match="at_least does not apply: a dissection"):
        model.solve(at_least=3)
    with pytest.raises(puzzlec.UsageError, match='unknown backend "gurobi"'):
        model.solve("gurobi")
    with pytest.raises(puzzlec.UsageError, match="time_limit must be a positive number"):
        model.solve(time_limit=-1)
    assert issubclass(puzzlec.UsageError, puzzlec.PuzzlecError)
