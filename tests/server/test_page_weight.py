"""The table page and the start page stay light: everything each loads — its scripts and style sheets,
the ES modules those import (followed to the end), what the style sheets reference, and for the table the
sounds it preloads — comes to at most 600 KB. And the walk that finds those files follows every form of
static import and re-export, so that a file cannot escape the sum by how it is imported."""

from __future__ import annotations

from pathlib import Path

import pytest

from guandan.server.bench_page import LIMIT_BYTES, STATIC, css_refs, js_imports, page_weight


@pytest.mark.parametrize("page", ["table.html", "index.html"])
def test_the_page_and_all_it_loads_is_at_most_600_kb(page: str) -> None:
    weight = page_weight(page)
    print(weight.describe(10))
    assert weight.total <= LIMIT_BYTES, f"over {LIMIT_BYTES:,} bytes: {weight.describe(10)}"


def test_the_table_page_counts_its_modules_style_and_sounds() -> None:
    files = page_weight("table.html").files
    assert {"table.html", "table.js", "common.js", "vocab.js", "style.css"} <= set(files)
    sounds = {f"sounds/{p.name}" for p in (STATIC / "sounds").glob("*.wav")}
    assert sounds and sounds <= set(files)  # table.js preloads every sound
    assert all(size == (STATIC / rel).stat().st_size for rel, size in files.items())


def test_the_start_page_counts_its_own_files_only() -> None:
    files = page_weight("index.html").files
    assert {"index.html", "lobby.js", "common.js", "vocab.js", "style.css", "lobby.css"} <= set(files)
    assert "table.js" not in files and not any(f.startswith("sounds/") for f in files)


def test_every_form_of_import_is_followed() -> None:
    source = '''
import a from "./a.js";
import { b,
  c as d } from './b.js';
import * as e from "./c.js"; import "./d.js";
export { f } from "./e.js";
export * from "./f.js";
export * as g from "./g.js";
const h = await import("./h.js");
// import "./commented.js";
/* import "./blocked.js"; */
export const i = "from './not-a-module.js'";
export function j() { return "x"; }
'''
    assert js_imports(source) == ["./a.js", "./b.js", "./c.js", "./d.js", "./e.js", "./f.js", "./g.js", "./h.js"]


def test_style_sheet_references_are_followed() -> None:
    css = '@import url("./base.css"); @import "more.css";\n.x { background: url(img/felt.png) }\n' \
          '@font-face { src: url("/static/fonts/a.woff2") format("woff2") } .y { background: url(data:image/png;base64,AA) }'
    assert css_refs(css) == ["./base.css", "more.css", "img/felt.png", "/static/fonts/a.woff2"]


def test_a_walk_over_a_made_up_site(tmp_path: Path) -> None:
    """Recursion, sharing, /static/ URLs, style-sheet assets and sound.js's sounds, on files made here."""
    (tmp_path / "sounds").mkdir()
    (tmp_path / "fonts").mkdir()
    files = {
        "page.html": '<link rel="stylesheet" href="/static/s.css"><script type="module" src="/static/m.js"></script>',
        "m.js": 'import { x } from "./lib/x.js";\nexport { y } from "./y.js";\n',
        "lib/x.js": 'import "../y.js";\nimport { play } from "../sound.js";\n',
        "y.js": "export const y = 1;\n",
        "sound.js": "export function play() {}\n",
        "s.css": '@font-face { src: url("fonts/f.woff2") }\n',
        "fonts/f.woff2": "0" * 1000,
        "sounds/a.wav": "1" * 500,
        "unused.js": "2" * 10_000,
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    weight = page_weight("page.html", root=tmp_path, preloaded=())
    assert set(weight.files) == set(files) - {"unused.js"}
    assert weight.total == sum(len(t) for r, t in files.items() if r != "unused.js")
    assert weight.largest(1) == [("fonts/f.woff2", 1000)]


def test_a_module_that_names_no_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "p.html").write_text('<script type="module" src="/static/a.js"></script>')
    (tmp_path / "a.js").write_text('import { z } from "./missing.js";\n')
    with pytest.raises(ValueError, match=r"missing\.js"):
        page_weight("p.html", root=tmp_path, preloaded=())
    (tmp_path / "a.js").write_text('import { z } from "lodash";\n')  # a bare name: the browser could not load it
    with pytest.raises(ValueError, match="lodash"):
        page_weight("p.html", root=tmp_path, preloaded=())
