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

import os
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


# WMT23 and WMT24 as sacrebleu stores them: one release archive whose XML per pair holds the
# source, the references (translator "refA") and the system outputs of every document. Its
# segments are paragraphs: one holds two sentences, one a line break (sacrebleu writes each
# segment as one line). The archive's name and the XML's path come from sacrebleu's own registry
# entry, as sacrebleu would look for them.
PARAGRAPHS = {
    "en": ["The city council approved the new budget on Tuesday. It includes funds for two schools.",
           "Residents who attended the meeting asked about the bus lines.",
           "The mayor said she would answer them\nnext week."],
    "cs": ["Městská rada v úterý schválila nový rozpočet. Zahrnuje peníze na dvě školy.",
           "Obyvatelé, kteří se schůze zúčastnili, se ptali na autobusové linky.",
           "Starostka řekla, že jim odpoví příští týden."],
    "de": ["Der Stadtrat hat am Dienstag den neuen Haushalt verabschiedet. Er enthält Mittel für zwei Schulen.",
           "Anwohner, die an der Sitzung teilnahmen, fragten nach den Buslinien.",
           "Die Bürgermeisterin sagte, sie werde sie nächste Woche beantworten."],
    "es": ["El ayuntamiento aprobó el martes el nuevo presupuesto. Incluye fondos para dos escuelas.",
           "Los vecinos que asistieron a la reunión preguntaron por las líneas de autobús.",
           "La alcaldesa dijo que les respondería la próxima semana."],
    "is": ["Borgarstjórn samþykkti nýju fjárhagsáætlunina á þriðjudag. Hún felur í sér fé til tveggja skóla.",
           "Íbúar sem sóttu fundinn spurðu um strætisvagnaleiðirnar.",
           "Borgarstjórinn sagðist myndu svara þeim í næstu viku."],
    "ru": ["Городской совет во вторник утвердил новый бюджет. Он включает средства на две школы.",
           "Жители, пришедшие на собрание, спрашивали об автобусных маршрутах.",
           "Мэр сказала, что ответит на них на следующей неделе."],
    "uk": ["Міська рада у вівторок затвердила новий бюджет. Він передбачає кошти на дві школи.",
           "Мешканці, які прийшли на засідання, запитували про автобусні маршрути.",
           "Міська голова сказала, що відповість на них наступного тижня."],
    "hi": ["नगर परिषद ने मंगलवार को नया बजट मंज़ूर किया। इसमें दो स्कूलों के लिए धन शामिल है।",
           "बैठक में आए निवासियों ने बस लाइनों के बारे में पूछा।",
           "महापौर ने कहा कि वह अगले सप्ताह उनका जवाब देंगी।"],
    "zh": ["市议会周二批准了新预算。其中包括两所学校的资金。", "参加会议的居民询问了公交线路的情况。",
           "市长说她将在下周答复他们。"],
    "ja": ["市議会は火曜日、新しい予算を承認した。二つの学校のための資金が含まれている。",
           "会議に出席した住民はバス路線について質問した。", "市長は来週回答すると述べた。"],
}
XML_SYSTEMS = ("ONLINE-B", "IOL-Research")


def system_output(system: str, reference: str) -> str:
    """A system's line: ONLINE-B outputs the reference, IOL-Research drops its last character."""
    return reference if system == "ONLINE-B" else reference[:-1]


def wmt_xml(name: str, pair: str) -> str:
    src, tgt = pair.split("-")
    reference = PARAGRAPHS[tgt]
    parts = [f'<src lang="{src}"><p>\n{_segments(PARAGRAPHS[src])}</p></src>\n',
             f'<ref lang="{tgt}" translator="refA"><p>\n{_segments(reference)}</p></ref>\n']
    for system in XML_SYSTEMS:
        hyp = [system_output(system, line) for line in reference]
        parts.append(f'<hyp system="{system}" language="{tgt}"><p>\n{_segments(hyp)}</p></hyp>\n')
    # a test suite's document, which sacrebleu leaves out
    suite = f'<src lang="{src}"><p>\n{_segments(["A test suite line."])}</p></src>\n'
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<dataset id="{name}">\n<collection id="general">\n'
            f'<doc id="news_{pair}_1" origlang="{src}" domain="news">\n{"".join(parts)}</doc>\n'
            f'<doc id="suite_{pair}" origlang="{src}" domain="news" testsuite="x">\n{suite}</doc>\n'
            f'</collection>\n</dataset>\n')


def fill_wmt_xml(cache: Path, name: str) -> Path:
    """``name`` (wmt23, wmt24) in ``cache`` for every pair of its registry entry between languages
    of :data:`PARAGRAPHS`."""
    from sacrebleu.dataset import DATASETS

    dataset = DATASETS[name]
    raw = cache / name / "raw"
    written = []
    for pair in dataset.langpairs:
        if set(pair.split("-")) <= set(PARAGRAPHS):
            relative = os.path.relpath(dataset._get_langpair_path(pair), dataset._rawdir)
            (raw / relative).parent.mkdir(parents=True, exist_ok=True)
            (raw / relative).write_text(wmt_xml(name, pair), encoding="utf-8")
            written.append(relative.split("/")[0])
    with tarfile.open(raw / dataset._get_tarball_filename(dataset.data[0]), "w:gz") as archive:
        for top in sorted(set(written)):
            archive.add(raw / top, arcname=top)
    return cache
