"""Pictures, files for external solvers read back, certificates, comparisons."""

import shutil
import xml.etree.ElementTree as ElementTree

import pytest

import puzzlec


def test_svg_parses_as_xml(models):
    model = puzzlec.load(models / "cross-13x19.toml")
    for picture in (model._repr_svg_(), model.solve()._repr_svg_()):
        root = ElementTree.fromstring(picture)
        assert root.tag.endswith("svg")


def test_emit_and_decode_round_trip(models, tmp_path):
    model = puzzlec.load(models / "queens-8.toml")
    lp = model.emit("lp")
    assert lp.startswith("\\ puzzlec") and "column q_0_0 = q[0,0]" in lp
    solved = model.solve("native")
    # A CBC solution file naming the columns set to 1.
    columns = "".join(
        f"{i:7} q_{x}_{y}   1   0\n" for i, (x, y) in enumerate(solved.coordinates["queens"])
    )
    answer = model.decode("Optimal - objective value 8\n" + columns, emitted=lp)
    assert (answer.status, answer.value, answer.proven) == ("feasible", 8, False)
    assert answer.solution == solved.solution
    # The same from files on disk.
    model.emit("lp", tmp_path / "q8.lp")
    (tmp_path / "q8.cbc").write_text("Optimal - objective value 8\n" + columns)
    again = model.decode(tmp_path / "q8.cbc", emitted=tmp_path / "q8.lp")
    assert again.solution == solved.solution


def test_a_wrong_answer_is_refused(models):
    model = puzzlec.load(models / "queens-8.toml")
    lp = model.emit("lp")
    with pytest.raises(puzzlec.SolveError, match="^<answer>: column z_9 is not in <emitted>$"):
        model.decode("Optimal - objective value 1\n      1 z_9   1   1\n", emitted=lp)


def test_certificate_proved_and_checked(models, tmp_path):
    model = puzzlec.load(models / "obstacle-queens.toml")
    certificate = model.prove(tmp_path / "cert")
    assert certificate.claim == {"answer": "optimal", "value": 20}
    verdict = puzzlec.check(tmp_path / "cert")
    assert verdict and verdict.conclusion == "certified: 20 is the optimum of model.toml"
    assert any(step.startswith("files:") for step in verdict.steps)
    # A proof changed after the fact is refused, naming the step.
    tampered = tmp_path / "tampered"
    shutil.copytree(tmp_path / "cert", tampered)
    with open(tampered / "proof.lrat", "a") as proof:
        proof.write("1 0 0\n")
    with pytest.raises(puzzlec.CertificateError) as raised:
        puzzlec.check(tampered)
    assert str(raised.value).startswith("certificate check failed: proof.lrat: SHA-256 ")
    assert "proof.lrat" in raised.value.reason


def test_count_certificate_of_a_model_built_in_code(tmp_path):
    certificate = puzzlec.queens(size=6).prove(tmp_path / "q6", count=True)
    assert certificate.claim["count"] == 4
    assert "exactly 4 solutions" in certificate.check().conclusion


def test_not_a_certificate(tmp_path):
    with pytest.raises(puzzlec.CertificateError):
        puzzlec.check(tmp_path / "nothing-here")


def test_compare_rows(models):
    model = puzzlec.load(models / "queens-8.toml")
    rows = puzzlec.compare(model, ["sat", "milp", "native"])
    assert [row["backend"] for row in rows] == ["sat", "milp", "native"]
    assert {row["value"] for row in rows} == {8}
    assert all(row["status"] == "optimal" for row in rows)
