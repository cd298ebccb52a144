"""The documents travel with the code: docs/RULES.md and docs/RECORDS.md are the repository's
copies of the shared documents, and everything that cites them points there."""
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CARDSIM_SHARED_DOCS", ROOT.parent / "shared"))


@pytest.mark.parametrize("name", ["RULES.md", "RECORDS.md"])
def test_docs_are_in_the_repository(name):
    text = (ROOT / "docs" / name).read_text()
    assert text.startswith("# ") and len(text) > 2000


@pytest.mark.skipif(not (SHARED / "RULES.md").is_file(), reason="no shared documents beside the repository")
@pytest.mark.parametrize("name", ["RULES.md", "RECORDS.md"])
def test_docs_match_the_shared_copies(name):
    assert (ROOT / "docs" / name).read_bytes() == (SHARED / name).read_bytes(), (
        f"docs/{name} differs from {SHARED / name}: copy the shared document into docs/")


def test_citations_point_to_docs():
    bare = re.compile(r"(?<![/\w-])(RULES|RECORDS)\.md|\.\./shared/(RULES|RECORDS)")
    offenders = []
    paths = [ROOT / "README.md", *ROOT.glob("cardsim/**/*.py"), *ROOT.glob("analyses/*.py"), *ROOT.glob("tests/*.py"),
             *(p for p in ROOT.glob("docs/*.md") if p.name not in ("RULES.md", "RECORDS.md"))]
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if bare.search(line) and path.name != "test_docs.py":
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert not offenders, "cite docs/RULES.md / docs/RECORDS.md: " + ", ".join(offenders)
