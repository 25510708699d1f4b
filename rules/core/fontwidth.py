"""How wide DejaVu Sans (the maps' font) writes a text: the advance of each character, so that the
label placer and the legends size Latin and Cyrillic labels alike (a Russian word is about a tenth
wider per letter than an English one, and bold another tenth).

Advances in thousandths of the font size, measured once from DejaVuSans.ttf and
DejaVuSans-Bold.ttf (Pillow's ``ImageFont.getlength`` at size 1000) for printable ASCII, Russian
and a few signs the maps use; any other character counts as a full em, more than any of these.
A table rather than the font file: ``rules/`` reads no files at drawing time and must draw the same
everywhere.
"""

from __future__ import annotations

_CHARS = (
    "".join(chr(c) for c in range(32, 127))  # printable ASCII
    + "ЁАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмнопрстуфхцчшщъыьэюяё"
    + "«»—–…▲№°×·"
)
_REGULAR = (
    "318 401 460 838 636 950 780 275 390 390 500 838 318 361 318 337 636 636 636 636 636 636 636 636 636 "
    "636 337 337 838 838 838 531 1000 684 686 698 770 632 575 775 752 295 295 656 557 863 748 787 603 787 "
    "695 635 611 732 684 989 685 611 685 390 337 390 838 500 500 613 635 550 635 615 352 635 634 278 278 "
    "579 278 974 634 612 635 635 411 521 392 634 592 818 592 592 525 636 337 636 838 632 684 686 686 610 "
    "781 632 1077 641 748 748 710 752 863 752 787 752 603 698 611 609 861 685 776 686 1069 1094 833 882 "
    "686 698 1080 695 613 617 589 525 691 615 901 532 650 650 604 639 754 654 612 654 635 550 583 592 855 "
    "592 681 591 915 942 707 790 589 549 842 602 615 612 612 1000 500 1000 769 1040 500 838 318 "
)
_BOLD = (
    "348 456 521 838 696 1002 872 306 457 457 523 838 380 415 380 365 696 696 696 696 696 696 696 696 696 "
    "696 400 400 838 838 838 580 1000 774 762 734 830 683 683 821 837 372 372 775 637 995 837 850 733 850 "
    "770 720 682 812 774 1103 771 724 725 457 365 457 838 500 500 675 716 593 716 678 435 716 712 343 343 "
    "665 343 1042 712 687 716 716 493 595 478 712 652 924 645 652 582 712 365 712 838 683 774 762 762 637 "
    "891 683 1224 710 837 837 817 831 995 837 850 837 733 734 682 771 992 771 928 808 1235 1326 939 1036 "
    "762 734 1174 770 675 698 633 522 808 678 995 581 701 701 679 732 817 691 687 691 716 593 580 652 992 "
    "645 741 687 1062 1105 751 904 632 593 972 642 678 646 646 1000 500 1000 769 1203 500 838 380 "
)
UNKNOWN = 1000


def _advances(widths: str) -> dict[str, int]:
    return dict(zip(_CHARS, map(int, widths.split()), strict=True))


WIDTHS = {"normal": _advances(_REGULAR), "bold": _advances(_BOLD)}


def text_width(text: str, size: float, weight: str = "normal") -> float:
    """The width of ``text`` set in DejaVu Sans at ``size`` (any units), ``weight`` "normal" or "bold"."""
    advances = WIDTHS["bold" if weight == "bold" else "normal"]
    return size * sum(advances.get(c, UNKNOWN) for c in text) / 1000
