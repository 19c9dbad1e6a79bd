"""Separable characters: the ones a text can be normalized across, one character at a time.

A character is **separable** when nothing before it changes how it normalizes and it changes
nothing before it, under both profiles and under accent folding alone: it is assigned, it is
not a mark (general category M, or a nonzero canonical combining class), and none of its
canonical decomposition, its compatibility decomposition and the canonical decomposition of
its case-folded NFKC form starts with a mark or with a character that canonical composition
takes as a second element (the boundary condition of :mod:`textcontract.text._plain`,
without asking that the character normalize to one character). Each step of SPEC §4 then
works across such a boundary as on the two sides apart: NFKD, NFD and case folding per
character; no reordering, since each side starts with a starter; no composition, since a
starter that is no second element blocks every pair across it; and an accent that folding
drops has its base in its own character's decomposition. So a text of separable characters
normalizes to the concatenation of its characters' normalizations, under ``text``, under
``folded``, and under the folding of text already under ``text``.

Most separable characters are **simple**: NFKC leaves them as they are, their case fold is
in NFC, and neither they nor their case fold decompose into anything holding a mark. Both
profiles give their case fold (``A`` → ``a``, ``Σ`` → ``σ``, ``ß`` → ``ss``, ``漢``,
``’``), and folding leaves them as they are. :func:`textcontract.text._normalize.profiles`
finds the other characters of a text with one pattern, takes each one's normalizations
(computed by the plain path for the character alone), case folds the simple stretches
between them, and joins the pieces; a text holding a character that is not separable takes
the plain path.

:data:`SEPARABLE_RANGES` and :data:`SPECIAL_BMP_RANGES` (the characters of the Basic
Multilingual Plane that are not simple; every character beyond it counts as not simple) are
computed by :func:`separable_ranges` and :func:`special_bmp_ranges` from the standard
library's Unicode database and written into this file (``python -m
textcontract.text._separable`` prints them). A test recomputes both against the running
Python and checks that the ``regex`` package, whose categories and scripts accent folding
reads, takes no character of a simple character's decompositions for a mark. The fast path
runs only where ``unicodedata`` has the version the tables were computed with.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterator

__all__ = [
    "SEPARABLE_RANGES",
    "SPECIAL_BMP_RANGES",
    "UNICODE_VERSION",
    "is_separable",
    "is_simple",
    "separable_ranges",
    "special_bmp_ranges",
    "table_source",
]

UNICODE_VERSION = "14.0.0"
"""The ``unicodedata`` version the tables were computed with."""

# fmt: off
SEPARABLE_RANGES = (
    "0000-02ff 0370-0377 037a-037f 0384-038a 038c-038c 038e-03a1 03a3-0482 "
    "048a-052f 0531-0556 0559-058a 058d-058f 05be-05be 05c0-05c0 05c3-05c3 "
    "05c6-05c6 05d0-05ea 05ef-05f4 0600-060f 061b-064a 0660-066f 0671-06d5 "
    "06dd-06de 06e5-06e6 06e9-06e9 06ee-070d 070f-0710 0712-072f 074d-07a5 "
    "07b1-07b1 07c0-07ea 07f4-07fa 07fe-0815 081a-081a 0824-0824 0828-0828 "
    "0830-083e 0840-0858 085e-085e 0860-086a 0870-088e 0890-0891 08a0-08c9 "
    "08e2-08e2 0904-0939 093d-093d 0950-0950 0958-0961 0964-0980 0985-098c "
    "098f-0990 0993-09a8 09aa-09b0 09b2-09b2 09b6-09b9 09bd-09bd 09ce-09ce "
    "09dc-09dd 09df-09e1 09e6-09fd 0a05-0a0a 0a0f-0a10 0a13-0a28 0a2a-0a30 "
    "0a32-0a33 0a35-0a36 0a38-0a39 0a59-0a5c 0a5e-0a5e 0a66-0a6f 0a72-0a74 "
    "0a76-0a76 0a85-0a8d 0a8f-0a91 0a93-0aa8 0aaa-0ab0 0ab2-0ab3 0ab5-0ab9 "
    "0abd-0abd 0ad0-0ad0 0ae0-0ae1 0ae6-0af1 0af9-0af9 0b05-0b0c 0b0f-0b10 "
    "0b13-0b28 0b2a-0b30 0b32-0b33 0b35-0b39 0b3d-0b3d 0b5c-0b5d 0b5f-0b61 "
    "0b66-0b77 0b83-0b83 0b85-0b8a 0b8e-0b90 0b92-0b95 0b99-0b9a 0b9c-0b9c "
    "0b9e-0b9f 0ba3-0ba4 0ba8-0baa 0bae-0bb9 0bd0-0bd0 0be6-0bfa 0c05-0c0c "
    "0c0e-0c10 0c12-0c28 0c2a-0c39 0c3d-0c3d 0c58-0c5a 0c5d-0c5d 0c60-0c61 "
    "0c66-0c6f 0c77-0c80 0c84-0c8c 0c8e-0c90 0c92-0ca8 0caa-0cb3 0cb5-0cb9 "
    "0cbd-0cbd 0cdd-0cde 0ce0-0ce1 0ce6-0cef 0cf1-0cf2 0d04-0d0c 0d0e-0d10 "
    "0d12-0d3a 0d3d-0d3d 0d4e-0d4f 0d54-0d56 0d58-0d61 0d66-0d7f 0d85-0d96 "
    "0d9a-0db1 0db3-0dbb 0dbd-0dbd 0dc0-0dc6 0de6-0def 0df4-0df4 0e01-0e30 "
    "0e32-0e32 0e3f-0e46 0e4f-0e5b 0e81-0e82 0e84-0e84 0e86-0e8a 0e8c-0ea3 "
    "0ea5-0ea5 0ea7-0eb0 0eb2-0eb2 0ebd-0ebd 0ec0-0ec4 0ec6-0ec6 0ed0-0ed9 "
    "0edc-0edf 0f00-0f17 0f1a-0f34 0f36-0f36 0f38-0f38 0f3a-0f3d 0f40-0f47 "
    "0f49-0f6c 0f85-0f85 0f88-0f8c 0fbe-0fc5 0fc7-0fcc 0fce-0fda 1000-102a "
    "103f-1055 105a-105d 1061-1061 1065-1066 106e-1070 1075-1081 108e-108e "
    "1090-1099 109e-10c5 10c7-10c7 10cd-10cd 10d0-1160 1176-11a7 11c3-1248 "
    "124a-124d 1250-1256 1258-1258 125a-125d 1260-1288 128a-128d 1290-12b0 "
    "12b2-12b5 12b8-12be 12c0-12c0 12c2-12c5 12c8-12d6 12d8-1310 1312-1315 "
    "1318-135a 1360-137c 1380-1399 13a0-13f5 13f8-13fd 1400-169c 16a0-16f8 "
    "1700-1711 171f-1731 1735-1736 1740-1751 1760-176c 176e-1770 1780-17b3 "
    "17d4-17dc 17e0-17e9 17f0-17f9 1800-180a 180e-180e 1810-1819 1820-1878 "
    "1880-1884 1887-18a8 18aa-18aa 18b0-18f5 1900-191e 1940-1940 1944-196d "
    "1970-1974 1980-19ab 19b0-19c9 19d0-19da 19de-1a16 1a1e-1a54 1a80-1a89 "
    "1a90-1a99 1aa0-1aad 1b05-1b33 1b45-1b4c 1b50-1b6a 1b74-1b7e 1b83-1ba0 "
    "1bae-1be5 1bfc-1c23 1c3b-1c49 1c4d-1c88 1c90-1cba 1cbd-1cc7 1cd3-1cd3 "
    "1ce9-1cec 1cee-1cf3 1cf5-1cf6 1cfa-1cfa 1d00-1dbf 1e00-1f15 1f18-1f1d "
    "1f20-1f45 1f48-1f4d 1f50-1f57 1f59-1f59 1f5b-1f5b 1f5d-1f5d 1f5f-1f7d "
    "1f80-1fb4 1fb6-1fc4 1fc6-1fd3 1fd6-1fdb 1fdd-1fef 1ff2-1ff4 1ff6-1ffe "
    "2000-2064 2066-2071 2074-208e 2090-209c 20a0-20c0 2100-218b 2190-2426 "
    "2440-244a 2460-2b73 2b76-2b95 2b97-2cee 2cf2-2cf3 2cf9-2d25 2d27-2d27 "
    "2d2d-2d2d 2d30-2d67 2d6f-2d70 2d80-2d96 2da0-2da6 2da8-2dae 2db0-2db6 "
    "2db8-2dbe 2dc0-2dc6 2dc8-2dce 2dd0-2dd6 2dd8-2dde 2e00-2e5d 2e80-2e99 "
    "2e9b-2ef3 2f00-2fd5 2ff0-2ffb 3000-3029 3030-303f 3041-3096 309b-30ff "
    "3105-312f 3131-3132 3134-3134 3137-3139 3140-314e 3164-318e 3190-31e3 "
    "31f0-321e 3220-a48c a490-a4c6 a4d0-a62b a640-a66e a673-a673 a67e-a69d "
    "a6a0-a6ef a6f2-a6f7 a700-a7ca a7d0-a7d1 a7d3-a7d3 a7d5-a7d9 a7f2-a801 "
    "a803-a805 a807-a80a a80c-a822 a828-a82b a830-a839 a840-a877 a882-a8b3 "
    "a8ce-a8d9 a8f2-a8fe a900-a925 a92e-a946 a95f-a97c a984-a9b2 a9c1-a9cd "
    "a9cf-a9d9 a9de-a9e4 a9e6-a9fe aa00-aa28 aa40-aa42 aa44-aa4b aa50-aa59 "
    "aa5c-aa7a aa7e-aaaf aab1-aab1 aab5-aab6 aab9-aabd aac0-aac0 aac2-aac2 "
    "aadb-aaea aaf0-aaf4 ab01-ab06 ab09-ab0e ab11-ab16 ab20-ab26 ab28-ab2e "
    "ab30-ab6b ab70-abe2 abeb-abeb abf0-abf9 ac00-d7a3 d7b0-d7c6 d7cb-d7fb "
    "f900-fa6d fa70-fad9 fb00-fb06 fb13-fb17 fb1d-fb1d fb1f-fb36 fb38-fb3c "
    "fb3e-fb3e fb40-fb41 fb43-fb44 fb46-fbc2 fbd3-fd8f fd92-fdc7 fdcf-fdcf "
    "fdf0-fdff fe10-fe19 fe30-fe52 fe54-fe66 fe68-fe6b fe70-fe74 fe76-fefc "
    "feff-feff ff01-ff9d ffa0-ffa2 ffa4-ffa4 ffa7-ffa9 ffb0-ffbe ffe0-ffe6 "
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
    "1cf50-1cfc3 1d000-1d0f5 1d100-1d126 1d129-1d164 1d16a-1d16c 1d173-1d17a 1d183-1d184 "
    "1d18c-1d1a9 1d1ae-1d1ea 1d200-1d241 1d245-1d245 1d2e0-1d2f3 1d300-1d356 1d360-1d378 "
    "1d400-1d454 1d456-1d49c 1d49e-1d49f 1d4a2-1d4a2 1d4a5-1d4a6 1d4a9-1d4ac 1d4ae-1d4b9 "
    "1d4bb-1d4bb 1d4bd-1d4c3 1d4c5-1d505 1d507-1d50a 1d50d-1d514 1d516-1d51c 1d51e-1d539 "
    "1d53b-1d53e 1d540-1d544 1d546-1d546 1d54a-1d550 1d552-1d6a5 1d6a8-1d7cb 1d7ce-1d9ff "
    "1da37-1da3a 1da6d-1da74 1da76-1da83 1da85-1da8b 1df00-1df1e 1e100-1e12c 1e137-1e13d "
    "1e140-1e149 1e14e-1e14f 1e290-1e2ad 1e2c0-1e2eb 1e2f0-1e2f9 1e2ff-1e2ff 1e7e0-1e7e6 "
    "1e7e8-1e7eb 1e7ed-1e7ee 1e7f0-1e7fe 1e800-1e8c4 1e8c7-1e8cf 1e900-1e943 1e94b-1e94b "
    "1e950-1e959 1e95e-1e95f 1ec71-1ecb4 1ed01-1ed3d 1ee00-1ee03 1ee05-1ee1f 1ee21-1ee22 "
    "1ee24-1ee24 1ee27-1ee27 1ee29-1ee32 1ee34-1ee37 1ee39-1ee39 1ee3b-1ee3b 1ee42-1ee42 "
    "1ee47-1ee47 1ee49-1ee49 1ee4b-1ee4b 1ee4d-1ee4f 1ee51-1ee52 1ee54-1ee54 1ee57-1ee57 "
    "1ee59-1ee59 1ee5b-1ee5b 1ee5d-1ee5d 1ee5f-1ee5f 1ee61-1ee62 1ee64-1ee64 1ee67-1ee6a "
    "1ee6c-1ee72 1ee74-1ee77 1ee79-1ee7c 1ee7e-1ee7e 1ee80-1ee89 1ee8b-1ee9b 1eea1-1eea3 "
    "1eea5-1eea9 1eeab-1eebb 1eef0-1eef1 1f000-1f02b 1f030-1f093 1f0a0-1f0ae 1f0b1-1f0bf "
    "1f0c1-1f0cf 1f0d1-1f0f5 1f100-1f1ad 1f1e6-1f202 1f210-1f23b 1f240-1f248 1f250-1f251 "
    "1f260-1f265 1f300-1f6d7 1f6dd-1f6ec 1f6f0-1f6fc 1f700-1f773 1f780-1f7d8 1f7e0-1f7eb "
    "1f7f0-1f7f0 1f800-1f80b 1f810-1f847 1f850-1f859 1f860-1f887 1f890-1f8ad 1f8b0-1f8b1 "
    "1f900-1fa53 1fa60-1fa6d 1fa70-1fa74 1fa78-1fa7c 1fa80-1fa86 1fa90-1faac 1fab0-1faba "
    "1fac0-1fac5 1fad0-1fad9 1fae0-1fae7 1faf0-1faf6 1fb00-1fb92 1fb94-1fbca 1fbf0-1fbf9 "
    "20000-2a6df 2a700-2b738 2b740-2b81d 2b820-2cea1 2ceb0-2ebe0 2f800-2fa1d 30000-3134a "
    "e0001-e0001 e0020-e007f "
)
"""Inclusive ranges of separable code points, ``first-last`` in hex, separated by spaces."""

SPECIAL_BMP_RANGES = (
    "00a0-00a0 00a8-00a8 00aa-00aa 00af-00af 00b2-00b5 00b8-00ba 00bc-00be "
    "00c0-00c5 00c7-00cf 00d1-00d6 00d9-00dd 00e0-00e5 00e7-00ef 00f1-00f6 "
    "00f9-00fd 00ff-010f 0112-0125 0128-0130 0132-0137 0139-0140 0143-0149 "
    "014c-0151 0154-0165 0168-017f 01a0-01a1 01af-01b0 01c4-01dc 01de-01e3 "
    "01e6-01f5 01f8-021b 021e-021f 0226-0233 02b0-02b8 02d8-02dd 02e0-02e4 "
    "0300-036f 0374-0374 0378-037a 037e-037e 0380-0390 03a2-03a2 03aa-03b0 "
    "03ca-03ce 03d0-03d6 03f0-03f2 03f4-03f5 03f9-03f9 0400-0401 0403-0403 "
    "0407-0407 040c-040e 0419-0419 0439-0439 0450-0451 0453-0453 0457-0457 "
    "045c-045e 0476-0477 0483-0489 04c1-04c2 04d0-04d3 04d6-04d7 04da-04df "
    "04e2-04e7 04ea-04f5 04f8-04f9 0530-0530 0557-0558 0587-0587 058b-058c "
    "0590-05bd 05bf-05bf 05c1-05c2 05c4-05c5 05c7-05cf 05eb-05ee 05f5-05ff "
    "0610-061a 0622-0626 064b-065f 0670-0670 0675-0678 06c0-06c0 06c2-06c2 "
    "06d3-06d3 06d6-06dc 06df-06e4 06e7-06e8 06ea-06ed 070e-070e 0711-0711 "
    "0730-074c 07a6-07b0 07b2-07bf 07eb-07f3 07fb-07fd 0816-0819 081b-0823 "
    "0825-0827 0829-082f 083f-083f 0859-085d 085f-085f 086b-086f 088f-088f "
    "0892-089f 08ca-08e1 08e3-0903 0929-0929 0931-0931 0934-0934 093a-093c "
    "093e-094f 0951-095f 0962-0963 0981-0984 098d-098e 0991-0992 09a9-09a9 "
    "09b1-09b1 09b3-09b5 09ba-09bc 09be-09cd 09cf-09df 09e2-09e5 09fe-0a04 "
    "0a0b-0a0e 0a11-0a12 0a29-0a29 0a31-0a31 0a33-0a34 0a36-0a37 0a3a-0a5b "
    "0a5d-0a65 0a70-0a71 0a75-0a75 0a77-0a84 0a8e-0a8e 0a92-0a92 0aa9-0aa9 "
    "0ab1-0ab1 0ab4-0ab4 0aba-0abc 0abe-0acf 0ad1-0adf 0ae2-0ae5 0af2-0af8 "
    "0afa-0b04 0b0d-0b0e 0b11-0b12 0b29-0b29 0b31-0b31 0b34-0b34 0b3a-0b3c "
    "0b3e-0b5e 0b62-0b65 0b78-0b82 0b84-0b84 0b8b-0b8d 0b91-0b91 0b94-0b94 "
    "0b96-0b98 0b9b-0b9b 0b9d-0b9d 0ba0-0ba2 0ba5-0ba7 0bab-0bad 0bba-0bcf "
    "0bd1-0be5 0bfb-0c04 0c0d-0c0d 0c11-0c11 0c29-0c29 0c3a-0c3c 0c3e-0c57 "
    "0c5b-0c5c 0c5e-0c5f 0c62-0c65 0c70-0c76 0c81-0c83 0c8d-0c8d 0c91-0c91 "
    "0ca9-0ca9 0cb4-0cb4 0cba-0cbc 0cbe-0cdc 0cdf-0cdf 0ce2-0ce5 0cf0-0cf0 "
    "0cf3-0d03 0d0d-0d0d 0d11-0d11 0d3b-0d3c 0d3e-0d4d 0d50-0d53 0d57-0d57 "
    "0d62-0d65 0d80-0d84 0d97-0d99 0db2-0db2 0dbc-0dbc 0dbe-0dbf 0dc7-0de5 "
    "0df0-0df3 0df5-0e00 0e31-0e31 0e33-0e3e 0e47-0e4e 0e5c-0e80 0e83-0e83 "
    "0e85-0e85 0e8b-0e8b 0ea4-0ea4 0ea6-0ea6 0eb1-0eb1 0eb3-0ebc 0ebe-0ebf "
    "0ec5-0ec5 0ec7-0ecf 0eda-0edd 0ee0-0eff 0f0c-0f0c 0f18-0f19 0f35-0f35 "
    "0f37-0f37 0f39-0f39 0f3e-0f3f 0f43-0f43 0f48-0f48 0f4d-0f4d 0f52-0f52 "
    "0f57-0f57 0f5c-0f5c 0f69-0f69 0f6d-0f84 0f86-0f87 0f8d-0fbd 0fc6-0fc6 "
    "0fcd-0fcd 0fdb-0fff 1026-1026 102b-103e 1056-1059 105e-1060 1062-1064 "
    "1067-106d 1071-1074 1082-108d 108f-108f 109a-109d 10c6-10c6 10c8-10cc "
    "10ce-10cf 10fc-10fc 1161-1175 11a8-11c2 1249-1249 124e-124f 1257-1257 "
    "1259-1259 125e-125f 1289-1289 128e-128f 12b1-12b1 12b6-12b7 12bf-12bf "
    "12c1-12c1 12c6-12c7 12d7-12d7 1311-1311 1316-1317 135b-135f 137d-137f "
    "139a-139f 13f6-13f7 13fe-13ff 169d-169f 16f9-16ff 1712-171e 1732-1734 "
    "1737-173f 1752-175f 176d-176d 1771-177f 17b4-17d3 17dd-17df 17ea-17ef "
    "17fa-17ff 180b-180d 180f-180f 181a-181f 1879-187f 1885-1886 18a9-18a9 "
    "18ab-18af 18f6-18ff 191f-193f 1941-1943 196e-196f 1975-197f 19ac-19af "
    "19ca-19cf 19db-19dd 1a17-1a1d 1a55-1a7f 1a8a-1a8f 1a9a-1a9f 1aae-1b04 "
    "1b06-1b06 1b08-1b08 1b0a-1b0a 1b0c-1b0c 1b0e-1b0e 1b12-1b12 1b34-1b44 "
    "1b4d-1b4f 1b6b-1b73 1b7f-1b82 1ba1-1bad 1be6-1bfb 1c24-1c3a 1c4a-1c4c "
    "1c89-1c8f 1cbb-1cbc 1cc8-1cd2 1cd4-1ce8 1ced-1ced 1cf4-1cf4 1cf7-1cf9 "
    "1cfb-1cff 1d2c-1d2e 1d30-1d3a 1d3c-1d4d 1d4f-1d6a 1d78-1d78 1d9b-1e9b "
    "1ea0-1ef9 1f00-200a 2011-2011 2017-2017 2024-2026 202f-202f 2033-2034 "
    "2036-2037 203c-203c 203e-203e 2047-2049 2057-2057 205f-205f 2065-2065 "
    "2070-209f 20a8-20a8 20c1-2103 2105-2107 2109-2113 2115-2116 2119-211d "
    "2120-2122 2124-2124 2126-2126 2128-2128 212a-212d 212f-2131 2133-2139 "
    "213b-2140 2145-2149 2150-217f 2189-2189 218c-218f 219a-219b 21ae-21ae "
    "21cd-21cf 2204-2204 2209-2209 220c-220c 2224-2224 2226-2226 222c-222d "
    "222f-2230 2241-2241 2244-2244 2247-2247 2249-2249 2260-2260 2262-2262 "
    "226d-2271 2274-2275 2278-2279 2280-2281 2284-2285 2288-2289 22ac-22af "
    "22e0-22e3 22ea-22ed 2329-232a 2427-243f 244b-24ea 2a0c-2a0c 2a74-2a76 "
    "2adc-2adc 2b74-2b75 2b96-2b96 2c7c-2c7d 2cef-2cf1 2cf4-2cf8 2d26-2d26 "
    "2d28-2d2c 2d2e-2d2f 2d68-2d6f 2d71-2d7f 2d97-2d9f 2da7-2da7 2daf-2daf "
    "2db7-2db7 2dbf-2dbf 2dc7-2dc7 2dcf-2dcf 2dd7-2dd7 2ddf-2dff 2e5e-2e7f "
    "2e9a-2e9a 2e9f-2e9f 2ef3-2fef 2ffc-3000 302a-302f 3036-3036 3038-303a "
    "3040-3040 304c-304c 304e-304e 3050-3050 3052-3052 3054-3054 3056-3056 "
    "3058-3058 305a-305a 305c-305c 305e-305e 3060-3060 3062-3062 3065-3065 "
    "3067-3067 3069-3069 3070-3071 3073-3074 3076-3077 3079-307a 307c-307d "
    "3094-3094 3097-309c 309e-309f 30ac-30ac 30ae-30ae 30b0-30b0 30b2-30b2 "
    "30b4-30b4 30b6-30b6 30b8-30b8 30ba-30ba 30bc-30bc 30be-30be 30c0-30c0 "
    "30c2-30c2 30c5-30c5 30c7-30c7 30c9-30c9 30d0-30d1 30d3-30d4 30d6-30d7 "
    "30d9-30da 30dc-30dd 30f4-30f4 30f7-30fa 30fe-3104 3130-318f 3192-319f "
    "31e4-31ef 3200-3247 3250-327e 3280-33ff a48d-a48f a4c7-a4cf a62c-a63f "
    "a66f-a672 a674-a67d a69c-a69f a6f0-a6f1 a6f8-a6ff a770-a770 a7cb-a7cf "
    "a7d2-a7d2 a7d4-a7d4 a7da-a7f4 a7f8-a7f9 a802-a802 a806-a806 a80b-a80b "
    "a823-a827 a82c-a82f a83a-a83f a878-a881 a8b4-a8cd a8da-a8f1 a8ff-a8ff "
    "a926-a92d a947-a95e a97d-a983 a9b3-a9c0 a9ce-a9ce a9da-a9dd a9e5-a9e5 "
    "a9ff-a9ff aa29-aa3f aa43-aa43 aa4c-aa4f aa5a-aa5b aa7b-aa7d aab0-aab0 "
    "aab2-aab4 aab7-aab8 aabe-aabf aac1-aac1 aac3-aada aaeb-aaef aaf5-ab00 "
    "ab07-ab08 ab0f-ab10 ab17-ab1f ab27-ab27 ab2f-ab2f ab5c-ab5f ab69-ab69 "
    "ab6c-ab6f abe3-abea abec-abef abfa-abff d7a4-d7af d7c7-d7ca d7fc-fa0d "
    "fa10-fa10 fa12-fa12 fa15-fa1e fa20-fa20 fa22-fa22 fa25-fa26 fa2a-fbb1 "
    "fbc3-fd3d fd50-fdce fdd0-fdfc fe00-fe44 fe47-fe72 fe74-fefe ff00-fff8 "
    "fffe-ffff "
)
"""Inclusive ranges of the code points below U+10000 that are not simple."""
# fmt: on

_BMP = 0x10000


def _has_mark(text: str) -> bool:
    return any(unicodedata.category(char).startswith("M") for char in text)


def is_separable(char: str, second: frozenset[str]) -> bool:
    """The definition above, for one character (``second``: the characters canonical
    composition joins to the one before them)."""
    from textcontract.text._plain import _starts_safely

    category = unicodedata.category(char)
    # Every character with a nonzero combining class is a mark (M).
    if category in ("Cn", "Cs", "Co") or category.startswith("M"):
        return False
    cased = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", char).casefold())
    forms = (unicodedata.normalize("NFKD", char), unicodedata.normalize("NFD", char), cased)
    return all(_starts_safely(form, second) for form in forms)


def is_simple(char: str, second: frozenset[str]) -> bool:
    """Separable, and both profiles give its case fold, which folding leaves as it is."""
    if not is_separable(char, second) or unicodedata.normalize("NFKC", char) != char:
        return False
    cased = char.casefold()
    return (
        unicodedata.is_normalized("NFC", cased)
        and not _has_mark(unicodedata.normalize("NFD", char))
        and not _has_mark(unicodedata.normalize("NFD", cased))
    )


def _ranges(codes: Iterator[int]) -> Iterator[tuple[int, int]]:
    start = last = -2
    for code in codes:
        if code != last + 1:
            if start >= 0:
                yield start, last
            start = code
        last = code
    if start >= 0:
        yield start, last


def separable_ranges() -> Iterator[tuple[int, int]]:
    """Inclusive ranges of separable code points (a few seconds)."""
    from textcontract.text._plain import _second_elements

    second = _second_elements()
    yield from _ranges(
        code for code in range(sys.maxunicode + 1) if is_separable(chr(code), second)
    )


def special_bmp_ranges() -> Iterator[tuple[int, int]]:
    """Inclusive ranges of the code points below U+10000 that are not simple."""
    from textcontract.text._plain import _second_elements

    second = _second_elements()
    yield from _ranges(code for code in range(_BMP) if not is_simple(chr(code), second))


def _source(name: str, ranges: Iterator[tuple[int, int]]) -> str:
    items = [f"{first:04x}-{last:04x}" for first, last in ranges]
    lines = [" ".join(items[index : index + 7]) for index in range(0, len(items), 7)]
    body = "\n".join(f'    "{line} "' for line in lines)
    return f"{name} = (\n{body}\n)"


def table_source() -> str:
    """Both tables as this file writes them, computed afresh."""
    return "\n".join(
        [
            _source("SEPARABLE_RANGES", separable_ranges()),
            '"""Inclusive ranges of separable code points, ``first-last`` in hex, separated by '
            'spaces."""',
            "",
            _source("SPECIAL_BMP_RANGES", special_bmp_ranges()),
            '"""Inclusive ranges of the code points below U+10000 that are not simple."""',
        ]
    )


if __name__ == "__main__":
    print(f"# unicodedata {unicodedata.unidata_version}")
    print(table_source())
