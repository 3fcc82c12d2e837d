"""The four seed questions, answered through the package."""

import puzzlec


def test_obstacle_queens_optimum_is_20(models):
    answer = puzzlec.load(models / "obstacle-queens.toml").solve()
    assert (answer.status, answer.value, answer.proven) == ("optimal", 20, True)
    assert len(answer.solution) == 16
    assert sum(row.count("Q") for row in answer.solution) == 20
    assert len(answer.coordinates["queens"]) == 20
    assert answer.evidence_text.startswith('varisat refuted "at least 21"')
    assert answer.backend == "sat"


def test_eight_queens_count_92_in_12_classes(models):
    model = puzzlec.load(models / "queens-8.toml")
    count = model.count()
    assert count == 92 and count.classes is None and count.complete
    unique = model.count(unique=True)
    assert (int(unique), unique.classes, unique.class_sizes) == (92, 12, {8: 11, 4: 1})
    assert unique.value == 8


def test_crosses_in_13_by_19_is_19(models):
    answer = puzzlec.load(models / "cross-13x19.toml").solve()
    assert (answer.status, answer.value) == ("optimal", 19)
    assert answer.evidence["how"] == "portfolio"
    assert 'refuted "at least 20"' in answer.evidence_text
    assert len(answer.coordinates["pieces"]) == 19


def test_asahi_halves_exactly_one(models):
    model = puzzlec.load(models / "halves-asahi-2005.toml")
    assert model.count() == 1
    answer = model.solve()
    assert answer.status == "optimal" and answer.library_status == "satisfiable"
    assert answer.value is None
    assert {c for row in answer.solution for c in row} == {".", "A", "B"}
