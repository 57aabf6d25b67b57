"""A sacrebleu cache filled from ../shared/data/wmt21, in sacrebleu's real on-disk layout, so that
`--testset wmt21` runs offline. For each test set, the archive sacrebleu would download (present,
so it downloads nothing) and the WMT XML it would have extracted from it:

- ``wmt21``: ``$SACREBLEU/wmt21/raw/wmt21.test.tgz`` and ``raw/test/newstest2021.{pair}.xml``
  (source and references, as WMT's test.tgz);
- ``wmt21/systems``: ``$SACREBLEU/wmt21/systems/raw/wmt21_systems.v1.3.tar.gz`` and
  ``raw/wmt21-news-systems-1.3/xml/newstest2021.{pair}.all.xml`` (the same with system outputs).

sacrebleu itself writes the plain text files from the XML on first use. The XML is made from the
shared text files: one document per pair (they carry no document ids), the source, every reference
with its translator letter, and the named system outputs.
"""

from __future__ import annotations

import tarfile
from pathlib import Path
from xml.sax.saxutils import escape

PAIRS = ("de-en", "en-de")


def _segments(lines: list[str]) -> str:
    return "".join(f'<seg id="{n}">{escape(line)}</seg>\n' for n, line in enumerate(lines, start=1))


def _read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


def wmt21_xml(data: Path, pair: str, systems: tuple[str, ...]) -> str:
    src, tgt = pair.split("-")
    source = _read(data / "sources" / f"newstest2021.{pair}.src.{src}")
    parts = [f'<src lang="{src}"><p>\n{_segments(source)}</p></src>\n']
    for path in sorted((data / "references").glob(f"newstest2021.{pair}.ref.*.{tgt}")):
        translator = path.name.split(".")[-2]
        parts.append(f'<ref lang="{tgt}" translator="{translator}"><p>\n{_segments(_read(path))}</p></ref>\n')
    for system in systems:
        path = data / "system-outputs" / f"newstest2021.{pair}.hyp.{system}.{tgt}"
        parts.append(f'<hyp language="{tgt}" system="{system}"><p>\n{_segments(_read(path))}</p></hyp>\n')
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<dataset id="newstest2021">\n<collection id="general">\n'
            f'<doc id="shared-{pair}" origlang="{src}">\n{"".join(parts)}</doc>\n</collection>\n</dataset>\n')


def _fill(raw: Path, archive_name: str, folder: str, xml_name: str, data: Path, systems: tuple[str, ...]) -> None:
    (raw / folder).mkdir(parents=True, exist_ok=True)
    for pair in PAIRS:
        (raw / folder / xml_name.format(pair=pair)).write_text(wmt21_xml(data, pair, systems), encoding="utf-8")
    with tarfile.open(raw / archive_name, "w:gz") as archive:
        archive.add(raw / folder.split("/")[0], arcname=folder.split("/")[0])


def fill_wmt21(cache: Path, data: Path, systems: tuple[str, ...] = ()) -> Path:
    _fill(cache / "wmt21" / "raw", "wmt21.test.tgz", "test", "newstest2021.{pair}.xml", data, ())
    _fill(cache / "wmt21" / "systems" / "raw", "wmt21_systems.v1.3.tar.gz", "wmt21-news-systems-1.3/xml",
          "newstest2021.{pair}.all.xml", data, systems)
    return cache
