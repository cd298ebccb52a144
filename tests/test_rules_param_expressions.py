"""A ``{...}`` in a rule file may be an expression of the file's parameters (docs/rules-files.md,
"Conditions"), computed exactly; anything else between braces is a one-line FILE:LINE error."""
from __future__ import annotations

from fractions import Fraction

import pytest

from cardsim.rules import RuleFileError, load
from cardsim.rules.compile import evaluate

FILE = '''game = "vint"

[params]
aggression = 0.25
partner_points = 8
points_per_trick = 3

[[rule]]
auction = "opening"
call = "1NT"
when = "balanced, hcp>={when}"
'''


def test_an_expression_is_computed_exactly():
    v = {"aggression": 0.25, "partner_points": 8, "points_per_trick": 3, "low": 0.1}
    # in floating point 3 * (7 - 0.25 + 19/12) is 25.000000000000004, whose ceil is 26
    assert evaluate("ceil(points_per_trick * (7 - aggression + 19/12)) - partner_points", v) == 17
    assert evaluate("low * 3", v) == Fraction(3, 10)
    assert evaluate("min(ceil(12.85), floor(13.9)) - 1", v) == 12
    assert evaluate("-aggression + max(1, 2, 3)", v) == Fraction(11, 4)
    with pytest.raises(KeyError):
        evaluate("nt_low + 1", v)
    for bad in ("2 ** 3", "aggression.real", "round(2.5)", "ceil(1, 2)", "1 / (aggression - 0.25)", "", "'a'"):
        with pytest.raises(ValueError):
            evaluate(bad, v)


def test_a_rules_threshold_follows_the_parameters(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(FILE.replace("{when}", "{ceil(points_per_trick * (36/5 - aggression) - partner_points)}"))
    assert load(path, "vint").whens == ("balanced, hcp>=13",)
    assert load(path, "vint", {"aggression": 1.25}).whens == ("balanced, hcp>=10",)
    assert load(path, "vint", {"partner_points": 6, "points_per_trick": 2.5}).whens == ("balanced, hcp>=12",)


@pytest.mark.parametrize("inside,message", [
    ("nt_low - 1", "{nt_low} is not a parameter of the file (declared in [params]: aggression, partner_points, "
                   "points_per_trick)"),
    ("sqrt(aggression)", "{sqrt(aggression)}: only numbers, parameters, + - * /, parentheses, ceil, floor, min and max"),
    ("1 / (aggression - 0.25)", "{1 / (aggression - 0.25)}: a division by zero"),
    ("aggression * 2", "condition"),  # 0.5: not a whole number where hcp wants one
    ("13 +", "{13 +}: not an expression"),
])
def test_a_bad_expression_is_one_line_naming_the_line(tmp_path, inside, message):
    path = tmp_path / "t.toml"
    path.write_text(FILE.replace("{when}", "{" + inside + "}"))
    with pytest.raises(RuleFileError) as info:
        load(path, "vint")
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"{path}:11:") and message in text, text
