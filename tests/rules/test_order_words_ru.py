"""Every order word of every rule set has a Russian form: a Russian line is read as its English one,
documented in the rule set's RULES.md, and recognised as an order by mail."""

import importlib
from pathlib import Path

import pytest

from campaigns.mailin import commands
from rules import catalog
from rules.civilwar import orders as cw
from rules.core.orderwords import canonical, normal
from rules.kingsofwar import orders as kow
from rules.kriegspiel import orders as ks
from rules.littlewars import orders as lw
from rules.napoleon import orders as nw
from rules.warworlds import orders as wotw

ROOT = Path(__file__).resolve().parents[2]
# Every rule set in the catalogue (issue 33: no hand-kept list): its order language lives in
# rules/<name>/orders.py and is documented in rules/<name>/RULES.md. (The worked examples below
# are each rule set's own.)
RULE_SETS = {
    name: (importlib.import_module(f"rules.{name}.orders"), f"rules/{name}/RULES.md") for name in catalog.names()
}


def english_heads(module) -> set[str]:
    """The English words an order line begins with, English synonyms ("storm") as their order ("assault")."""
    synonyms = getattr(module, "_SYNONYMS", {})
    first = [w.removeprefix("* ").split()[0] for w in module.ORDER_WORDS if w.isascii()]
    return {synonyms.get(w, w) for w in first} - {
        "at",
        "counter",
    }  # "* at the double", "* counter": double, counter-charge


def russian_targets(table) -> set[str]:
    out = set()
    for en in table.values():
        out |= set(en.values()) if isinstance(en, dict) else {en}
    return out


@pytest.mark.parametrize("name", RULE_SETS)
def test_every_order_word_has_a_russian_form_documented_in_rules_md(name):
    module, rules_md = RULE_SETS[name]
    heads = english_heads(module) - {"if"} | ({"if", "attacked"} if name == "civilwar" else set())
    assert heads <= russian_targets(module.RU_WORDS), heads - russian_targets(module.RU_WORDS)
    doc = (ROOT / rules_md).read_text()
    assert "## Order words in Russian" in doc
    assert [ru for ru in module.RU_WORDS if ru not in doc and name != "kriegspiel"] == []
    assert [ru for ru in module.RU_WORDS if not ru.isalpha()] == []
    assert [ru for ru in set(ks.RU_WORDS) - set(lw.RU_WORDS) if ru not in doc and name == "kriegspiel"] == []


CIVIL_WAR = [
    ("сформировать C5", "form C5"),
    ("перейти R12 на C2", "move R12 to C2"),
    ("штурм C1 из R12", "assault C1 from R12"),
    ("прорыв C3 из R2_3", "breakthrough C3 from R2_3"),
    ("прорыв C3 вдоль L1", "breakthrough C3 along L1"),
    ("террор C5", "terror C5"),
    ("эвакуация C5 в C6", "evacuate C5 to C6"),
    ("Пас", "pass"),
    ("если атакован в C5 отступить на R12", "if attacked at C5 retreat to R12"),
    ("Если атакованы бой", "if attacked fight"),
    ("если атакован в С5 спросить", "if attacked at C5 ask"),
]


@pytest.mark.parametrize("russian, english", CIVIL_WAR)
def test_civil_war_reads_russian_orders_as_english_ones(russian, english):
    got, want = cw.parse_text(russian), cw.parse_text(english)
    assert got.ok and want.ok, (got.errors, want.errors)
    assert [o.to_text() for o in got.orders] == [o.to_text() for o in want.orders] == [english]


def test_civil_war_decision_turns_in_russian():
    assert [o.to_text() for o in cw.parse_text("отступить на R12", kind="decision").orders] == ["retreat to R12"]
    assert [o.to_text() for o in cw.parse_text("бой", kind="decision").orders] == ["fight"]


LITTLE_WARS = [
    ("развернуть foot1 в 20,4", "deploy foot1 at 20,4"),
    ("развернуть foot1 линией 10,3 30,3", "deploy foot1 line 10,3 30,3"),
    ("двигать horse к 10,20 затем 30,30", "move horse to 10,20 then 30,30"),
    ("двигать i12 в 5,6", "move i12 to 5,6"),
    ("огонь gun1 по 30,40 31,40", "fire gun1 at 30,40 31,40"),
    ("разделить foot1 8 как scouts ближайшие 20,10", "split foot1 8 as scouts nearest 20,10"),
    ("слить scouts в foot1", "merge scouts into foot1"),
    ("сформировать column из foot1, horse, i3", "form column from foot1, horse, i3"),
    ("конвоировать pow1 к 24,2", "escort pow1 to 24,2"),
    ("сдаться foot2", "surrender foot2"),
    ("рукопашная убивать ближайших терять дальних", "melee kill nearest lose farthest"),
    ("край север", "edge north"),
    ("стоять", "hold"),
    ("марш foot1 к 3,4", "march foot1 to 3,4"),
]


@pytest.mark.parametrize("russian, english", LITTLE_WARS)
def test_little_wars_reads_russian_orders_as_english_ones(russian, english):
    got, want = lw.parse_text(russian), lw.parse_text(english)
    assert got.ok and want.ok, (got.errors, want.errors)
    assert [o.__class__ for o in got.orders] == [o.__class__ for o in want.orders]
    assert [{**o.__dict__, "text": ""} for o in got.orders] == [{**o.__dict__, "text": ""} for o in want.orders]


KRIEGSPIEL = [
    ("мина sappers в 30,20", "mine sappers at 30,20"),
    ("окопать foot1 от 10,14 до 15,14", "entrench foot1 from 10,14 to 15,14"),
    ("капонир crew в 24,6", "gunpit crew at 24,6"),
    ("скрыть foot2", "box foot2"),
    ("раскрыть foot2", "unbox foot2"),
    ("залп foot1 в 24,20", "volley foot1 at 24,20"),
    ("атака horse в 30,40", "charge horse at 30,40"),
    ("взорвать sappers bridge1", "demolish sappers bridge1"),
    ("восстановить sappers bridge1", "restore sappers bridge1"),
    ("разрушить sappers rail1 в 40,60", "break sappers rail1 at 40,60"),
    ("починить sappers rail1 в 40,60", "repair sappers rail1 at 40,60"),
    ("сжечь raiders в 48,280", "burn raiders at 48,280"),
    ("опустошить raiders в 48,280", "empty raiders at 48,280"),
    ("везти wagons к 48,20", "drive wagons to 48,20"),
    ("колонна foot1", "column foot1"),
    ("линия foot1", "line foot1"),
    ("спешиться horse", "dismount horse"),
    ("оседлать horse", "mount horse"),
    ("запрячь gun1", "limber gun1"),
    ("распрячь gun1", "unlimber gun1"),
    ("погрузить foot1 на train1", "board foot1 on train1"),
    ("ехать train1 к 40,60", "steam train1 to 40,60"),
    ("высадить train1 в 44,62", "land train1 at 44,62"),
    ("огонь gun1 по 30,40", "fire gun1 at 30,40"),
]


@pytest.mark.parametrize("russian, english", KRIEGSPIEL)
def test_kriegspiel_reads_russian_orders_as_english_ones(russian, english):
    got, want = ks.parse_text(russian), ks.parse_text(english)
    assert got.ok and want.ok, (got.errors, want.errors)
    assert [{**o.__dict__, "text": ""} for o in got.orders] == [{**o.__dict__, "text": ""} for o in want.orders]


OTHERS = [
    (nw, "двигать F1 к 0507", "move F1 to 0507"),
    (nw, "дорогой F1 на 0404", "road F1 to 0404"),
    (nw, "огонь A1 по B2", "fire A1 at B2"),
    (nw, "рукопашная F1 B2 кубики 2", "melee F1 B2 dice 2"),
    (nw, "атака C1 B2 из 0405", "charge C1 B2 from 0405"),
    (nw, "указание каре нет", "standing square no"),
    (nw, "пас", "pass"),
    (wotw, "двигать R1 к 0507 бегом", "move R1 to 0507 run"),
    (wotw, "стоять R1", "hold R1"),
    (wotw, "огонь R1 по B2, B3", "fire R1 at B2, B3"),
    (wotw, "огонь T1 по B2 из tank_gun", "fire T1 at B2 with tank_gun"),
    (wotw, "огонь S1 по B2 прицел офицер", "fire S1 at B2 aim officer"),
    (wotw, "атаковать R1 B2", "attack R1 B2"),
    (wotw, "таран T1 B2", "ram T1 B2"),
    (wotw, "абордаж R1 T2", "board R1 T2"),
    (wotw, "беречь R1 officer, lmg", "protect R1 officer, lmg"),
    (kow, "r1 стоять", "r1 halt"),
    (kow, "r2 наступать 4 поворот влево 45", "r2 advance 4 pivot left 45"),
    (kow, "r3 бегом 10", "r3 double 10"),
    (kow, "r4 атака b2", "r4 charge b2"),
    (kow, "r5 контратака b3", "r5 counter-charge b3"),
    (kow, "r6 стрелять b1", "r6 shoot b1"),
]


@pytest.mark.parametrize("module, russian, english", OTHERS)
def test_the_hex_and_table_rule_sets_read_russian_orders_as_english_ones(module, russian, english):
    got, want = module.parse_text(russian), module.parse_text(english)
    assert got.ok and want.ok, (got.errors, want.errors)
    assert [{**o.__dict__, "text": ""} for o in got.orders] == [{**o.__dict__, "text": ""} for o in want.orders]


@pytest.mark.parametrize(
    "parse", [cw.parse_text, lw.parse_text, ks.parse_text, nw.parse_text, wotw.parse_text, kow.parse_text]
)
def test_a_word_mixing_latin_and_cyrillic_letters_is_refused_naming_the_letter(parse):
    result = parse("foot1 mоve to 3,4" if parse is kow.parse_text else "mоve foot1 to 3,4")  # a Cyrillic о
    assert not result.orders
    [error] = result.errors
    assert "mоve" in error.text and "mixes Latin and Cyrillic" in error.message and "'о'" in error.message


def test_an_unknown_russian_word_is_an_error_on_that_line_as_written():
    [error] = lw.parse_text("летать foot1 к 3,4").errors
    assert error.text == "летать foot1 к 3,4" and "unknown order 'летать'" in error.message


def test_words_are_compared_without_case_and_with_yo_as_ye():
    assert normal("ЁЛКА") == "елка"
    assert canonical("ДВИГАТЬ foot1 К 3,4", lw.RU_WORDS) == "move foot1 to 3,4"
    assert canonical("Развёртывание foot1 в 3,4", lw.RU_WORDS) == "deploy foot1 at 3,4"


@pytest.mark.parametrize(
    "name, line",
    [
        ("civilwar", "штурм C1 из R12"),
        ("civilwar", "если атакован бой"),
        ("civilwar", "Если атакованы в C5 отступить"),
        ("littlewars", "двигать foot1 к 3,4"),
        ("kriegspiel", "залп foot1 в 24,20"),
        ("napoleon", "огонь A1 по B2"),
        ("warworlds", "таран T1 B2"),
        ("kingsofwar", "r4 атака b2"),
    ],
)
def test_mail_reads_a_line_beginning_with_a_russian_order_word_as_an_order(name, line):
    module = RULE_SETS[name][0]
    assert commands.is_order_line(line, module.ORDER_WORDS)
    assert not commands.is_order_line("Добрый день, посредник!", module.ORDER_WORDS)
    req = commands.parse(f"Привет!\n{line}\nГОТОВ\nС уважением", order_words=module.ORDER_WORDS)
    assert req.orders == line and req.has("READY") and req.prose == ["Привет!", "С уважением"]
