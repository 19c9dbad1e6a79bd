"""Plain characters: the ones normalization maps one to one, whatever surrounds them.

A character is **plain** when, under both profiles, it normalizes alone to exactly one
character, and nothing before it can combine with it: it is not a mark (general category M,
or a nonzero canonical combining class), and neither its compatibility decomposition nor its
case-folded form starts with a mark or with a character that canonical composition takes as
a second element (Hangul vowel and trailing jamo are the only such letters). Such a character
starts a safe boundary — the text before it normalizes as if it were alone — so a run of plain
characters maps one to one onto the normalized text. What can follow a plain character and
combine with it (an accent, a voicing mark, a trailing jamo) is never plain: the offset map
(:mod:`textcontract.text._offsets`) normalizes such runs, with the plain character before
them, chunk by chunk.

:data:`PLAIN_RANGES` is that set, computed by :func:`plain_ranges` from the standard library's
Unicode database and written into this file (``python -m textcontract.text._plain`` prints
it). A test recomputes it against the running Python. Unicode keeps the normalization and
case folding of assigned characters stable, and a character assigned in a later version is
not in the table, so the table stays right for later versions; the offset map checks its
positions against the normalized text all the same, and normalizes every chunk when they
disagree.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterator

from textcontract.text._normalize import Profile, normalize

__all__ = ["PLAIN_RANGES", "UNICODE_VERSION", "is_plain", "plain_ranges", "table_source"]

UNICODE_VERSION = "14.0.0"
"""The ``unicodedata`` version :data:`PLAIN_RANGES` was computed with."""

# fmt: off
PLAIN_RANGES = (
    "0000-00a7 00a9-00ae 00b0-00b3 00b5-00b7 00b9-00bb 00bf-00de 00e0-012f "
    "0131-0131 0134-013e 0141-0148 014a-01c3 01cd-01f0 01f4-02d7 02de-02ff "
    "0370-0377 037b-037f 0386-038a 038c-038c 038e-03a1 03a3-0482 048a-052f "
    "0531-0556 0559-0586 0588-058a 058d-058f 05be-05be 05c0-05c0 05c3-05c3 "
    "05c6-05c6 05d0-05ea 05ef-05f4 0600-060f 061b-064a 0660-066f 0671-0674 "
    "0679-06d5 06dd-06de 06e5-06e6 06e9-06e9 06ee-070d 070f-0710 0712-072f "
    "074d-07a5 07b1-07b1 07c0-07ea 07f4-07fa 07fe-0815 081a-081a 0824-0824 "
    "0828-0828 0830-083e 0840-0858 085e-085e 0860-086a 0870-088e 0890-0891 "
    "08a0-08c9 08e2-08e2 0904-0939 093d-093d 0950-0950 0960-0961 0964-0980 "
    "0985-098c 098f-0990 0993-09a8 09aa-09b0 09b2-09b2 09b6-09b9 09bd-09bd "
    "09ce-09ce 09e0-09e1 09e6-09fd 0a05-0a0a 0a0f-0a10 0a13-0a28 0a2a-0a30 "
    "0a32-0a32 0a35-0a35 0a38-0a39 0a5c-0a5c 0a66-0a6f 0a72-0a74 0a76-0a76 "
    "0a85-0a8d 0a8f-0a91 0a93-0aa8 0aaa-0ab0 0ab2-0ab3 0ab5-0ab9 0abd-0abd "
    "0ad0-0ad0 0ae0-0ae1 0ae6-0af1 0af9-0af9 0b05-0b0c 0b0f-0b10 0b13-0b28 "
    "0b2a-0b30 0b32-0b33 0b35-0b39 0b3d-0b3d 0b5f-0b61 0b66-0b77 0b83-0b83 "
    "0b85-0b8a 0b8e-0b90 0b92-0b95 0b99-0b9a 0b9c-0b9c 0b9e-0b9f 0ba3-0ba4 "
    "0ba8-0baa 0bae-0bb9 0bd0-0bd0 0be6-0bfa 0c05-0c0c 0c0e-0c10 0c12-0c28 "
    "0c2a-0c39 0c3d-0c3d 0c58-0c5a 0c5d-0c5d 0c60-0c61 0c66-0c6f 0c77-0c80 "
    "0c84-0c8c 0c8e-0c90 0c92-0ca8 0caa-0cb3 0cb5-0cb9 0cbd-0cbd 0cdd-0cde "
    "0ce0-0ce1 0ce6-0cef 0cf1-0cf2 0d04-0d0c 0d0e-0d10 0d12-0d3a 0d3d-0d3d "
    "0d4e-0d4f 0d54-0d56 0d58-0d61 0d66-0d7f 0d85-0d96 0d9a-0db1 0db3-0dbb "
    "0dbd-0dbd 0dc0-0dc6 0de6-0def 0df4-0df4 0e01-0e30 0e32-0e32 0e3f-0e46 "
    "0e4f-0e5b 0e81-0e82 0e84-0e84 0e86-0e8a 0e8c-0ea3 0ea5-0ea5 0ea7-0eb0 "
    "0eb2-0eb2 0ebd-0ebd 0ec0-0ec4 0ec6-0ec6 0ed0-0ed9 0ede-0edf 0f00-0f17 "
    "0f1a-0f34 0f36-0f36 0f38-0f38 0f3a-0f3d 0f40-0f42 0f44-0f47 0f49-0f4c "
    "0f4e-0f51 0f53-0f56 0f58-0f5b 0f5d-0f68 0f6a-0f6c 0f85-0f85 0f88-0f8c "
    "0fbe-0fc5 0fc7-0fcc 0fce-0fda 1000-102a 103f-1055 105a-105d 1061-1061 "
    "1065-1066 106e-1070 1075-1081 108e-108e 1090-1099 109e-10c5 10c7-10c7 "
    "10cd-10cd 10d0-1160 1176-11a7 11c3-1248 124a-124d 1250-1256 1258-1258 "
    "125a-125d 1260-1288 128a-128d 1290-12b0 12b2-12b5 12b8-12be 12c0-12c0 "
    "12c2-12c5 12c8-12d6 12d8-1310 1312-1315 1318-135a 1360-137c 1380-1399 "
    "13a0-13f5 13f8-13fd 1400-169c 16a0-16f8 1700-1711 171f-1731 1735-1736 "
    "1740-1751 1760-176c 176e-1770 1780-17b3 17d4-17dc 17e0-17e9 17f0-17f9 "
    "1800-180a 180e-180e 1810-1819 1820-1878 1880-1884 1887-18a8 18aa-18aa "
    "18b0-18f5 1900-191e 1940-1940 1944-196d 1970-1974 1980-19ab 19b0-19c9 "
    "19d0-19da 19de-1a16 1a1e-1a54 1a80-1a89 1a90-1a99 1aa0-1aad 1b05-1b33 "
    "1b45-1b4c 1b50-1b6a 1b74-1b7e 1b83-1ba0 1bae-1be5 1bfc-1c23 1c3b-1c49 "
    "1c4d-1c88 1c90-1cba 1cbd-1cc7 1cd3-1cd3 1ce9-1cec 1cee-1cf3 1cf5-1cf6 "
    "1cfa-1cfa 1d00-1dbf 1e00-1e99 1e9b-1e9d 1e9f-1f15 1f18-1f1d 1f20-1f45 "
    "1f48-1f4d 1f50-1f57 1f59-1f59 1f5b-1f5b 1f5d-1f5d 1f5f-1f7d 1fb0-1fb1 "
    "1fb6-1fb6 1fb8-1fbb 1fbe-1fbe 1fc6-1fc6 1fc8-1fcb 1fd0-1fd3 1fd6-1fdb "
    "1fe0-1fec 1fef-1fef 1ff6-1ff6 1ff8-1ffb 2000-2016 2018-2024 2027-2032 "
    "2035-2035 2038-203b 203d-203d 203f-2046 204a-2056 2058-2064 2066-2071 "
    "2074-208e 2090-209c 20a0-20a7 20a9-20c0 2102-2102 2104-2104 2107-2108 "
    "210a-2115 2117-211f 2123-213a 213c-214f 2160-2160 2164-2164 2169-2169 "
    "216c-2170 2174-2174 2179-2179 217c-2188 218a-218b 2190-222b 222e-222e "
    "2231-2426 2440-244a 2460-2468 24b6-2a0b 2a0d-2a73 2a77-2adb 2add-2b73 "
    "2b76-2b95 2b97-2cee 2cf2-2cf3 2cf9-2d25 2d27-2d27 2d2d-2d2d 2d30-2d67 "
    "2d6f-2d70 2d80-2d96 2da0-2da6 2da8-2dae 2db0-2db6 2db8-2dbe 2dc0-2dc6 "
    "2dc8-2dce 2dd0-2dd6 2dd8-2dde 2e00-2e5d 2e80-2e99 2e9b-2ef3 2f00-2fd5 "
    "2ff0-2ffb 3000-3029 3030-303f 3041-3096 309d-309e 30a0-30fe 3105-312f "
    "3131-3132 3134-3134 3137-3139 3140-314e 3164-318e 3190-31e3 31f0-31ff "
    "3244-324f 3260-327b 327e-32b0 32d0-32fe 3400-a48c a490-a4c6 a4d0-a62b "
    "a640-a66e a673-a673 a67e-a69d a6a0-a6ef a6f2-a6f7 a700-a7ca a7d0-a7d1 "
    "a7d3-a7d3 a7d5-a7d9 a7f2-a801 a803-a805 a807-a80a a80c-a822 a828-a82b "
    "a830-a839 a840-a877 a882-a8b3 a8ce-a8d9 a8f2-a8fe a900-a925 a92e-a946 "
    "a95f-a97c a984-a9b2 a9c1-a9cd a9cf-a9d9 a9de-a9e4 a9e6-a9fe aa00-aa28 "
    "aa40-aa42 aa44-aa4b aa50-aa59 aa5c-aa7a aa7e-aaaf aab1-aab1 aab5-aab6 "
    "aab9-aabd aac0-aac0 aac2-aac2 aadb-aaea aaf0-aaf4 ab01-ab06 ab09-ab0e "
    "ab11-ab16 ab20-ab26 ab28-ab2e ab30-ab6b ab70-abe2 abeb-abeb abf0-abf9 "
    "ac00-d7a3 d7b0-d7c6 d7cb-d7fb f900-fa6d fa70-fad9 fb20-fb29 fb50-fbc2 "
    "fbd3-fbdc fbde-fbe9 fbfc-fbff fd3e-fd4f fdcf-fdcf fdfd-fdff fe10-fe18 "
    "fe31-fe48 fe4d-fe52 fe54-fe66 fe68-fe6b fe73-fe73 fe80-fef4 feff-feff "
    "ff01-ff9d ffa0-ffa2 ffa4-ffa4 ffa7-ffa9 ffb0-ffbe ffe0-ffe2 ffe4-ffe6 "
    "ffe8-ffee fff9-fffd 10000-1000b 1000d-10026 10028-1003a 1003c-1003d 1003f-1004d "
    "10050-1005d 10080-100fa 10100-10102 10107-10133 10137-1018e 10190-1019c 101a0-101a0 "
    "101d0-101fc 10280-1029c 102a0-102d0 102e1-102fb 10300-10323 1032d-1034a 10350-10375 "
    "10380-1039d 1039f-103c3 103c8-103d5 10400-1049d 104a0-104a9 104b0-104d3 104d8-104fb "
    "10500-10527 10530-10563 1056f-1057a 1057c-1058a 1058c-10592 10594-10595 10597-105a1 "
    "105a3-105b1 105b3-105b9 105bb-105bc 10600-10736 10740-10755 10760-10767 10780-10785 "
    "10787-107b0 107b2-107ba 10800-10805 10808-10808 1080a-10835 10837-10838 1083c-1083c "
    "1083f-10855 10857-1089e 108a7-108af 108e0-108f2 108f4-108f5 108fb-1091b 1091f-10939 "
    "1093f-1093f 10980-109b7 109bc-109cf 109d2-10a00 10a10-10a13 10a15-10a17 10a19-10a35 "
    "10a40-10a48 10a50-10a58 10a60-10a9f 10ac0-10ae4 10aeb-10af6 10b00-10b35 10b39-10b55 "
    "10b58-10b72 10b78-10b91 10b99-10b9c 10ba9-10baf 10c00-10c48 10c80-10cb2 10cc0-10cf2 "
    "10cfa-10d23 10d30-10d39 10e60-10e7e 10e80-10ea9 10ead-10ead 10eb0-10eb1 10f00-10f27 "
    "10f30-10f45 10f51-10f59 10f70-10f81 10f86-10f89 10fb0-10fcb 10fe0-10ff6 11003-11037 "
    "11047-1104d 11052-1106f 11071-11072 11075-11075 11083-110af 110bb-110c1 110cd-110cd "
    "110d0-110e8 110f0-110f9 11103-11126 11136-11144 11147-11147 11150-11172 11174-11176 "
    "11183-111b2 111c1-111c8 111cd-111cd 111d0-111df 111e1-111f4 11200-11211 11213-1122b "
    "11238-1123d 11280-11286 11288-11288 1128a-1128d 1128f-1129d 1129f-112a9 112b0-112de "
    "112f0-112f9 11305-1130c 1130f-11310 11313-11328 1132a-11330 11332-11333 11335-11339 "
    "1133d-1133d 11350-11350 1135d-11361 11400-11434 11447-1145b 1145d-1145d 1145f-11461 "
    "11480-114af 114c4-114c7 114d0-114d9 11580-115ae 115c1-115db 11600-1162f 11641-11644 "
    "11650-11659 11660-1166c 11680-116aa 116b8-116b9 116c0-116c9 11700-1171a 11730-11746 "
    "11800-1182b 1183b-1183b 118a0-118f2 118ff-11906 11909-11909 1190c-11913 11915-11916 "
    "11918-1192f 1193f-1193f 11941-11941 11944-11946 11950-11959 119a0-119a7 119aa-119d0 "
    "119e1-119e3 11a00-11a00 11a0b-11a32 11a3a-11a3a 11a3f-11a46 11a50-11a50 11a5c-11a89 "
    "11a9a-11aa2 11ab0-11af8 11c00-11c08 11c0a-11c2e 11c40-11c45 11c50-11c6c 11c70-11c8f "
    "11d00-11d06 11d08-11d09 11d0b-11d30 11d46-11d46 11d50-11d59 11d60-11d65 11d67-11d68 "
    "11d6a-11d89 11d98-11d98 11da0-11da9 11ee0-11ef2 11ef7-11ef8 11fb0-11fb0 11fc0-11ff1 "
    "11fff-12399 12400-1246e 12470-12474 12480-12543 12f90-12ff2 13000-1342e 13430-13438 "
    "14400-14646 16800-16a38 16a40-16a5e 16a60-16a69 16a6e-16abe 16ac0-16ac9 16ad0-16aed "
    "16af5-16af5 16b00-16b2f 16b37-16b45 16b50-16b59 16b5b-16b61 16b63-16b77 16b7d-16b8f "
    "16e40-16e9a 16f00-16f4a 16f50-16f50 16f93-16f9f 16fe0-16fe3 17000-187f7 18800-18cd5 "
    "18d00-18d08 1aff0-1aff3 1aff5-1affb 1affd-1affe 1b000-1b122 1b150-1b152 1b164-1b167 "
    "1b170-1b2fb 1bc00-1bc6a 1bc70-1bc7c 1bc80-1bc88 1bc90-1bc99 1bc9c-1bc9c 1bc9f-1bca3 "
    "1cf50-1cfc3 1d000-1d0f5 1d100-1d126 1d129-1d15d 1d16a-1d16c 1d173-1d17a 1d183-1d184 "
    "1d18c-1d1a9 1d1ae-1d1ba 1d1c1-1d1ea 1d200-1d241 1d245-1d245 1d2e0-1d2f3 1d300-1d356 "
    "1d360-1d378 1d400-1d454 1d456-1d49c 1d49e-1d49f 1d4a2-1d4a2 1d4a5-1d4a6 1d4a9-1d4ac "
    "1d4ae-1d4b9 1d4bb-1d4bb 1d4bd-1d4c3 1d4c5-1d505 1d507-1d50a 1d50d-1d514 1d516-1d51c "
    "1d51e-1d539 1d53b-1d53e 1d540-1d544 1d546-1d546 1d54a-1d550 1d552-1d6a5 1d6a8-1d7cb "
    "1d7ce-1d9ff 1da37-1da3a 1da6d-1da74 1da76-1da83 1da85-1da8b 1df00-1df1e 1e100-1e12c "
    "1e137-1e13d 1e140-1e149 1e14e-1e14f 1e290-1e2ad 1e2c0-1e2eb 1e2f0-1e2f9 1e2ff-1e2ff "
    "1e7e0-1e7e6 1e7e8-1e7eb 1e7ed-1e7ee 1e7f0-1e7fe 1e800-1e8c4 1e8c7-1e8cf 1e900-1e943 "
    "1e94b-1e94b 1e950-1e959 1e95e-1e95f 1ec71-1ecb4 1ed01-1ed3d 1ee00-1ee03 1ee05-1ee1f "
    "1ee21-1ee22 1ee24-1ee24 1ee27-1ee27 1ee29-1ee32 1ee34-1ee37 1ee39-1ee39 1ee3b-1ee3b "
    "1ee42-1ee42 1ee47-1ee47 1ee49-1ee49 1ee4b-1ee4b 1ee4d-1ee4f 1ee51-1ee52 1ee54-1ee54 "
    "1ee57-1ee57 1ee59-1ee59 1ee5b-1ee5b 1ee5d-1ee5d 1ee5f-1ee5f 1ee61-1ee62 1ee64-1ee64 "
    "1ee67-1ee6a 1ee6c-1ee72 1ee74-1ee77 1ee79-1ee7c 1ee7e-1ee7e 1ee80-1ee89 1ee8b-1ee9b "
    "1eea1-1eea3 1eea5-1eea9 1eeab-1eebb 1eef0-1eef1 1f000-1f02b 1f030-1f093 1f0a0-1f0ae "
    "1f0b1-1f0bf 1f0c1-1f0cf 1f0d1-1f0f5 1f10b-1f10f 1f12b-1f12c 1f12f-1f149 1f150-1f169 "
    "1f16d-1f18f 1f191-1f1ad 1f1e6-1f1ff 1f202-1f202 1f210-1f23b 1f250-1f251 1f260-1f265 "
    "1f300-1f6d7 1f6dd-1f6ec 1f6f0-1f6fc 1f700-1f773 1f780-1f7d8 1f7e0-1f7eb 1f7f0-1f7f0 "
    "1f800-1f80b 1f810-1f847 1f850-1f859 1f860-1f887 1f890-1f8ad 1f8b0-1f8b1 1f900-1fa53 "
    "1fa60-1fa6d 1fa70-1fa74 1fa78-1fa7c 1fa80-1fa86 1fa90-1faac 1fab0-1faba 1fac0-1fac5 "
    "1fad0-1fad9 1fae0-1fae7 1faf0-1faf6 1fb00-1fb92 1fb94-1fbca 1fbf0-1fbf9 20000-2a6df "
    "2a700-2b738 2b740-2b81d 2b820-2cea1 2ceb0-2ebe0 2f800-2fa1d 30000-3134a e0001-e0001 "
    "e0020-e007f "
)
# fmt: on
"""Inclusive ranges of plain code points, ``first-last`` in hex, separated by spaces."""


def _second_elements() -> frozenset[str]:
    """Characters canonical composition can join to the character before them."""
    found: set[str] = set()
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        decomposition = unicodedata.decomposition(char)
        if not decomposition or decomposition.startswith("<"):
            continue
        parts = decomposition.split()
        # A pair that NFC recomposes (not a composition exclusion) joins its second part.
        if len(parts) == 2 and unicodedata.normalize("NFC", char) == char:
            found.add(chr(int(parts[1], 16)))
    # Hangul syllables compose algorithmically: L + V, and LV + T.
    found.update(map(chr, range(0x1161, 0x1176)))
    found.update(map(chr, range(0x11A8, 0x11C3)))
    return frozenset(found)


def _starts_safely(text: str, second: frozenset[str]) -> bool:
    first = text[0]
    return (
        unicodedata.combining(first) == 0
        and not unicodedata.category(first).startswith("M")
        and first not in second
    )


def is_plain(char: str, second: frozenset[str]) -> bool:
    """The definition above, for one character (``second``: see :func:`plain_ranges`)."""
    category = unicodedata.category(char)
    # Every character with a nonzero combining class is a mark (M).
    if category in ("Cn", "Cs", "Co") or category.startswith("M"):
        return False
    if any(len(normalize(char, profile)) != 1 for profile in Profile):
        return False
    folded = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", char).casefold())
    return _starts_safely(unicodedata.normalize("NFKD", char), second) and _starts_safely(
        folded, second
    )


def plain_ranges() -> Iterator[tuple[int, int]]:
    """Inclusive ranges of plain code points, computed from ``unicodedata`` (about a second)."""
    second = _second_elements()
    start: int | None = None
    # The last code point, U+10FFFF, is a noncharacter: every range ends before it.
    for code in range(sys.maxunicode + 1):
        if is_plain(chr(code), second):
            if start is None:
                start = code
        elif start is not None:
            yield start, code - 1
            start = None


def table_source() -> str:
    """:data:`PLAIN_RANGES` as this file writes it, computed afresh."""
    items = [f"{first:04x}-{last:04x}" for first, last in plain_ranges()]
    lines = [" ".join(items[index : index + 7]) for index in range(0, len(items), 7)]
    return "\n".join(f'    "{line} "' for line in lines)


if __name__ == "__main__":
    print(f"# unicodedata {unicodedata.unidata_version}")
    print(table_source())
