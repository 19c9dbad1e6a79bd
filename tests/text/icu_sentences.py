"""Sentences in the scripts written without spaces, and how ICU 78.3 cuts them (SPEC §19).

The sentences were written for these tests as everyday phrases (what a reply to a customer
might say); each segmentation was recorded from ICU 78.3 as icu4py 1.2.0 bundles it, on the
``text`` profile, keeping the segments that hold a letter. ICU's dictionaries change between
releases: when icu4py brings another ICU, the tests holding these say so, and the
differences are reviewed and pinned again (docs/contracts.md, "Segmenters").
"""

from __future__ import annotations

from typing import NamedTuple

ICU_PINNED = "78.3"
"""The ICU version whose segmentations are pinned below."""


class Sentence(NamedTuple):
    language: str
    text: str
    meaning: str
    icu: tuple[str, ...]
    """ICU's tokens (locale root)."""
    words: tuple[str, ...]
    """§4's word tokens of the same text: whole runs between spaces and punctuation."""


SENTENCES = (
    Sentence(
        "ja",
        "これは日本語のテキストです。明日の朝、東京駅で会いましょう。",
        "This is Japanese text. Let's meet at Tokyo Station tomorrow morning.",
        (
            "これ",
            "は",
            "日本語",
            "の",
            "テキスト",
            "です",
            "明日",
            "の",
            "朝",
            "東京",
            "駅",
            "で",
            "会",
            "いま",
            "しょう",
        ),
        ("これは日本語のテキストです", "明日の朝", "東京駅で会いましょう"),
    ),
    Sentence(
        "zh",
        "我们明天早上八点在北京火车站见面。",
        "We meet at Beijing railway station at eight tomorrow morning.",
        ("我们", "明天", "早上", "八", "点", "在", "北京", "火车", "站", "见面"),
        ("我们明天早上八点在北京火车站见面",),
    ),
    Sentence(
        "th",
        "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรค",
        "Thai is a language written without spaces.",
        ("ภาษา", "ไทย", "เป็น", "ภาษา", "ที่", "ไม่มี", "การ", "เว้น", "วรรค"),
        ("ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรค",),
    ),
    Sentence(
        "km",
        "ខ្ញុំចូលចិត្តរៀនភាសាខ្មែរ។",
        "I like learning Khmer.",
        ("ខ្ញុំ", "ចូលចិត្ត", "រៀន", "ភាសាខ្មែរ"),
        ("ខ្ញុំចូលចិត្តរៀនភាសាខ្មែរ",),
    ),
    Sentence(
        "my",
        "ကျွန်တော် မြန်မာစာ လေ့လာနေပါတယ်။",
        "I am studying Burmese.",
        ("ကျွန်တော်", "မြန်မာ", "စာ", "လေ့လာ", "နေ", "ပါ", "တယ်"),
        ("ကျွန်တော်", "မြန်မာစာ", "လေ့လာနေပါတယ်"),
    ),
    Sentence(
        "lo",
        "ພາສາລາວເປັນພາສາທີ່ສວຍງາມ",
        "Lao is a beautiful language.",
        ("ພາສາ", "ລາວ", "ເປັນ", "ພາສາ", "ທີ່", "ສວຍງາມ"),
        ("ພາສາລາວເປັນພາສາທີ່ສວຍງາມ",),
    ),
)
