"""The box's message catalogues: ``extract`` the texts from the source, ``compile`` them to ``.mo``.

    python scripts/i18n.py extract   # add new messages to every locale's .po (English: msgstr =
                                     # msgid; German: empty until translated), drop unused ones
    python scripts/i18n.py compile   # write each .po's .mo next to it (what the box ships)
    python scripts/i18n.py check     # exit 1 if the code uses a text the catalogues lack, a German
                                     # text is missing or a .mo is stale
    python scripts/i18n.py translate FILE.po   # extract, take the German texts FILE gives, compile

Extraction reads the code with ``ast``: every ``_("literal")`` (and ``N_``, marked only) and
``ngettext("one", "many", n)`` under device/, and the refusal templates under games/ (the literal
message of ``require(cond, "...")``, ``IllegalAction("...")``, ``SetupError``, ``GameError``,
``LearningError``; ``"a" if cond else "b"`` gives both), and a calibration's refusals
(``CalibrationError("...")``, ``ChipNotFound("...")``: the drivers' ``Worded`` errors, under
drivers/ and device/), which the box shows translated.
Compiling needs no msgfmt (a fresh machine has none): the ``.mo`` format is written here, with the
messages sorted, so the same ``.po`` always gives the same bytes.
"""

from __future__ import annotations

import argparse
import ast
import fcntl
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "device"
GAMES = ROOT / "games"
DRIVERS = ROOT / "drivers"
# The engines' error types whose first argument is a message template; ``require`` has it second.
REFUSALS = ("GameError", "IllegalAction", "SetupError", "LearningError")
# The weighing's refusal (``drivers.weighing.CalibrationError``), raised under drivers/ and device/,
# and every driver error the box says in its words (``drivers.exc.Worded``).
CALIBRATION_REFUSALS = ("CalibrationError",)
WORDED_ERRORS = (*CALIBRATION_REFUSALS, "ChipNotFound")
LOCALE = SOURCE / "locale"
DOMAIN = "spielleiter"
LANGUAGES = ("de", "en")
HEADER = ("Project-Id-Version: spielleiter\n"
          "MIME-Version: 1.0\n"
          "Content-Type: text/plain; charset=UTF-8\n"
          "Content-Transfer-Encoding: 8bit\n"
          "Language: {lang}\n"
          "Plural-Forms: nplurals=2; plural=(n != 1);\n")


@dataclass
class Message:
    """One text as the code asks for it, and (in a catalogue) its translation."""

    msgid: str
    plural: str | None = None
    strings: list[str] = field(default_factory=list)   # [msgstr] or [msgstr[0], msgstr[1]]
    where: list[str] = field(default_factory=list)


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


# -- extraction ----------------------------------------------------------------------------------
def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _literals(node: ast.expr) -> list[str] | None:
    """The texts a message argument can be: a literal, or ``a if cond else b`` of literals."""
    text = _literal(node)
    if text is not None:
        return [text]
    if isinstance(node, ast.IfExp):
        body, orelse = _literals(node.body), _literals(node.orelse)
        if body is not None and orelse is not None:
            return body + orelse
    return None


def refusals(games: Path = GAMES, names: tuple[str, ...] = REFUSALS,
             also: tuple[Path, ...] = ()) -> tuple[dict[str, Message], list[str]]:
    """The refusal templates (errors named ``names``) raised under ``games`` and ``also``, and
    where a refusal's message is built some other way (an f-string, a concatenation: the
    catalogue cannot hold it). A bare name passes a template through (``require`` itself) and
    is neither."""
    found: dict[str, Message] = {}
    unfit: list[str] = []
    for path in sorted(p for folder in (games, *also) for p in folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            position = 0 if name in names else \
                1 if name == "require" and "GameError" in names else None  # an engine's check
            if position is None:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if len(node.args) <= position:
                unfit.append(f"{where}: {name} without a message")
                continue
            texts = _literals(node.args[position])
            if texts is None:
                if not isinstance(node.args[position], ast.Name):
                    unfit.append(f"{where}: {name}'s message is not a literal")
                continue
            for text in texts:
                found.setdefault(text, Message(text)).where.append(where)
    return found, unfit


# What an engine declares for people, in English, which the box shows translated: an Option's
# label, choice names and hints (by position or keyword), a GameInfo's title, words and action
# labels.
DECLARED = {"Option": {2: "label", 4: "names", 5: "hints"}, "GameInfo": {1: "title"}}


def _constants(tree: ast.Module) -> dict[str, ast.expr]:
    """The module's top-level ``NAME = value`` assignments, for a declaration that names one."""
    return {target.id: node.value for node in tree.body if isinstance(node, ast.Assign)
            for target in node.targets if isinstance(target, ast.Name)}


def declared(games: Path = GAMES, unfit: list[str] | None = None) -> dict[str, Message]:
    """The words the engines under ``games`` declare in ``Option``s and ``GameInfo``s. A value
    given by a module-level name (``words=CALLS``) is read from its assignment; one that is
    neither literal text nor such a name is added to ``unfit`` (the catalogue cannot hold it)."""
    found: dict[str, Message] = {}
    for path in sorted(games.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        constants = _constants(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or _name(node.func) not in DECLARED:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            fields = DECLARED[_name(node.func)]
            values = [arg for i, arg in enumerate(node.args) if i in fields]
            values += [k.value for k in node.keywords
                       if k.arg in set(fields.values()) | {"words", "labels"}]
            values = [constants.get(v.id, v) if isinstance(v, ast.Name) else v for v in values]
            for value in values:
                if unfit is not None and not _declarable(value):
                    unfit.append(f"{where}: {ast.unparse(value)}")
                items = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
                if isinstance(value, ast.Dict):  # labels: {"move": "Move {steps}"}
                    items = [v for v in value.values if v is not None]
                if isinstance(value, ast.BinOp) and isinstance(value.left, ast.Tuple):
                    items = value.left.elts  # ("cards in the pile",) * 6
                for item in items:
                    text = _literal(item)
                    if text:
                        found.setdefault(text, Message(text)).where.append(where)
    return found


def _declarable(value: ast.expr) -> bool:
    """Whether a declared value is text the catalogue can hold: a literal, or a tuple, list,
    dict or ``(...) * n`` of literals."""
    if isinstance(value, ast.Dict):
        return all(v is not None and _literal(v) is not None for v in value.values)
    if isinstance(value, ast.BinOp) and isinstance(value.left, ast.Tuple):
        return _declarable(value.left)
    if isinstance(value, (ast.Tuple, ast.List)):
        return all(_literal(item) is not None for item in value.elts)
    return _literal(value) is not None


def extract(source: Path = SOURCE, games: Path | None = GAMES) -> dict[str, Message]:
    """Every message the code under ``source`` asks gettext for, in the order first met, then
    the refusal templates of the engines under ``games`` (None: none)."""
    found: dict[str, Message] = {}
    for path in sorted(source.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = _name(node.func)
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if name in ("_", "N_") and len(node.args) == 1:
                text = _literal(node.args[0])
                if text is not None:
                    found.setdefault(text, Message(text)).where.append(where)
            elif name == "ngettext" and len(node.args) == 3:
                one, many = _literal(node.args[0]), _literal(node.args[1])
                if one is not None and many is not None:
                    found.setdefault(one, Message(one, many)).where.append(where)
    if games is not None:
        weighing = refusals(DRIVERS, WORDED_ERRORS, also=(source,))[0]
        for text, message in [*refusals(games)[0].items(), *declared(games).items(),
                              *weighing.items()]:
            if text in found and found[text].plural is None:
                found[text].where.extend(message.where)
            else:
                found.setdefault(text, message)
    return found


# -- .po files -----------------------------------------------------------------------------------
def _unquote(text: str) -> str:
    return ast.literal_eval(text)


def read_po(path: Path) -> dict[str, Message]:
    """A .po file's messages by msgid ("" is the header). Only what this script writes is read."""
    messages: dict[str, Message] = {}
    current: Message | None = None
    key = ""

    def finish() -> None:
        if current is not None:
            messages[current.msgid] = current

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgid "):
            finish()
            current, key = Message(_unquote(line[6:])), "msgid"
        elif line.startswith("msgid_plural "):
            assert current is not None
            current.plural, key = _unquote(line[13:]), "plural"
        elif line.startswith("msgstr"):
            assert current is not None
            head, _, value = line.partition(" ")
            current.strings.append(_unquote(value))
            key = "str"
        elif line.startswith('"'):
            assert current is not None
            more = _unquote(line)
            if key == "msgid":
                current.msgid += more
            elif key == "plural":
                current.plural = (current.plural or "") + more
            else:
                current.strings[-1] += more
    finish()
    return messages


def _quote(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{body}"'


def write_po(path: Path, lang: str, messages: dict[str, Message]) -> None:
    out = ["# Spielleiter's texts. Written by scripts/i18n.py extract; translate the msgstr lines.",
           'msgid ""', 'msgstr ""']
    out += [_quote(line + "\n") for line in HEADER.format(lang=lang).splitlines()]
    # Sorted by msgid, and each place named by its file alone: two branches that add different
    # messages touch different lines of the catalogue, so git merges them without conflicts.
    for message in sorted(messages.values(), key=lambda m: m.msgid):
        if message.msgid == "":
            continue
        out.append("")
        files = dict.fromkeys(where.rpartition(":")[0] or where for where in message.where)
        out += [f"#: {where}" for where in list(files)[:3]]
        out.append(f"msgid {_quote(message.msgid)}")
        if message.plural is not None:
            out.append(f"msgid_plural {_quote(message.plural)}")
            strings = (message.strings + ["", ""])[:2]
            out += [f"msgstr[{i}] {_quote(s)}" for i, s in enumerate(strings)]
        else:
            out.append(f"msgstr {_quote((message.strings or [''])[0])}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def update(lang: str, found: dict[str, Message]) -> list[str]:
    """Bring ``lang``'s catalogue in line with ``found``; the msgids still untranslated."""
    path = po_path(lang)
    old = read_po(path) if path.exists() else {}
    merged: dict[str, Message] = {}
    for msgid, message in found.items():
        kept = old.get(msgid)
        if lang == "en":
            strings = [msgid] if message.plural is None else [msgid, message.plural]
        elif kept is not None and (kept.plural is None) == (message.plural is None):
            strings = kept.strings
        else:
            strings = []
        merged[msgid] = Message(msgid, message.plural, list(strings), message.where)
    write_po(path, lang, merged)
    return missing(merged)


def missing(messages: dict[str, Message]) -> list[str]:
    """The msgids with an empty translation."""
    return [m.msgid for m in messages.values()
            if m.msgid and (not m.strings or not all(m.strings)
                            or (m.plural is not None and len(m.strings) < 2))]


# -- .mo files -----------------------------------------------------------------------------------
def mo_bytes(lang: str) -> bytes:
    """The .mo file for ``lang``'s .po, in GNU gettext's format (what msgfmt writes)."""
    messages = read_po(po_path(lang))
    pairs: dict[bytes, bytes] = {b"": HEADER.format(lang=lang).encode()}
    for message in messages.values():
        if not message.msgid or not message.strings or not all(message.strings):
            continue  # untranslated: gettext falls back to the msgid
        if message.plural is None:
            pairs[message.msgid.encode()] = message.strings[0].encode()
        else:
            key = message.msgid.encode() + b"\0" + message.plural.encode()
            pairs[key] = b"\0".join(s.encode() for s in message.strings)
    keys = sorted(pairs)
    ids = strs = b""
    offsets = []
    for key in keys:
        offsets.append((len(ids), len(key), len(strs), len(pairs[key])))
        ids += key + b"\0"
        strs += pairs[key] + b"\0"
    start = 7 * 4 + 16 * len(keys)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + start]
        voffsets += [l2, o2 + start + len(ids)]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    return (header + struct.pack(f"{len(koffsets)}i", *koffsets)
            + struct.pack(f"{len(voffsets)}i", *voffsets) + ids + strs)


def compile_all() -> None:
    for lang in LANGUAGES:
        mo_path(lang).write_bytes(mo_bytes(lang))


def stale() -> list[str]:
    """The languages whose committed .mo differs from what their .po compiles to."""
    return [lang for lang in LANGUAGES
            if not mo_path(lang).exists() or mo_path(lang).read_bytes() != mo_bytes(lang)]


def translate(fragment: Path) -> tuple[int, list[str]]:
    """Extract, then take the German texts ``fragment`` (a .po with only msgid/msgstr pairs)
    gives for messages the code uses, then compile; under a lock, so people translating different
    parts at once never lose each other's work. Returns how many were taken and what is still
    untranslated."""
    with open(LOCALE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = extract()
        update("en", found)
        update("de", found)
        given = read_po(fragment)
        catalogue = read_po(po_path("de"))
        taken = 0
        for msgid, message in given.items():
            kept = catalogue.get(msgid)
            if msgid and kept is not None and message.strings and all(message.strings) \
                    and (kept.plural is None) == (message.plural is None):
                kept.strings, taken = list(message.strings), taken + 1
        write_po(po_path("de"), "de", catalogue)
        todo = update("de", found)  # again, for the source references
        compile_all()
        return taken, todo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("extract", "compile", "check", "translate"))
    parser.add_argument("file", nargs="?", type=Path, help="translate: the German texts to take")
    args = parser.parse_args(argv)
    if args.command == "translate":
        if args.file is None or not args.file.exists():
            parser.error("translate needs a .po file with the German texts")
        taken, todo = translate(args.file)
        print(f"de: {taken} texts taken, {len(todo)} untranslated")
        for msgid in todo:
            print(f"  untranslated: {msgid!r}")
        return 0
    if args.command == "extract":
        found = extract()
        for lang in LANGUAGES:
            todo = update(lang, found)
            print(f"{lang}: {len(found)} messages, {len(todo)} untranslated")
        return 0
    if args.command == "compile":
        compile_all()
        print("compiled: " + ", ".join(str(mo_path(lang).relative_to(ROOT)) for lang in LANGUAGES))
        return 0
    catalogue = read_po(po_path("de"))
    absent = [msgid for msgid in extract() if msgid not in catalogue]
    unfit: list[str] = []
    declared(GAMES, unfit)
    todo = missing(catalogue)
    old = stale()
    for msgid in absent:
        print(f"not in the catalogues (run: python scripts/i18n.py extract): {msgid!r}")
    for place in unfit:
        print(f"declared as something the catalogue cannot hold (write the texts out): {place}")
    for msgid in todo:
        print(f"de: untranslated: {msgid!r}")
    if old:
        print("stale .mo (run: python scripts/i18n.py compile): " + ", ".join(old))
    return 1 if absent or unfit or todo or old else 0


if __name__ == "__main__":
    sys.exit(main())
