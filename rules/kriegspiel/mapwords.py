"""The Kriegspiel map's own words in Russian (over the Little Wars map's, rules/littlewars/mapwords.py)."""

from __future__ import annotations

from rules.core.mapwords import Table

WORDS: Table = {
    # legend
    "railway": "железная дорога",
    "work (entrenchment, gun pit, mine, bridge)": "работы (окоп, орудийный окоп, мина, мост)",
    "wreck of a gun": "обломки орудия",
    "train or vehicle": "поезд или повозка",
    "enemy box (its size known only within 10 ft)": "коробка противника (её число известно лишь в пределах 10 футов)",
    "enemy last seen": "противник, где его видели последним",
    # hover titles
    "railway {id}": "железная дорога {id}",
    "rails of {rail} broken": "рельсы {rail} разобраны",
    "{kind} {name}: {n} aboard": "{kind} {name}: на борту {n}",
    "{kind} {id} ({side}, {status})": "{kind} {id} ({side}, {status})",
    "wreck of {gun}": "обломки {gun}",
    "{id}: {count} figures": "{id}: фигур {count}",
    "enemy {kind}": "противник: {kind}",
    "last seen in turn {turn}": "виден последним в ход {turn}",
    # vehicles, depots and works (kinds; a work's state, with a context: "building" is also terrain)
    "train": "поезд",
    "boat": "лодка",
    "depot": "склад",
    "mine": "мина",
    "entrenchment": "окоп",
    "gunpit": "орудийный окоп",
    "bridge_destroy": "разрушение моста",
    "bridge_restore": "восстановление моста",
    "rail_destroy": "разборка пути",
    "rail_restore": "восстановление пути",
    "depot_burn": "поджог склада",
    "wagons_destroy": "уничтожение повозок",
    "work|building": "строится",
    "work|armed": "заряжена",
    "work|complete": "готово",
    "work|exploded": "взорвана",
    "work|abandoned": "брошено",
}
