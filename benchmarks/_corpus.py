"""The documents W1 runs on: the real corpus, a slice of it, or synthetic documents.

The real corpus (about 2,100 documents, 17 MB, seven languages) is built by
``../shared/bench/make_corpus.sh DIR``. Without it, :func:`synthetic_corpus` writes
multilingual documents assembled from the repository's fixtures and from a few sentences
per language below, deterministically, so CI can run the benchmark code on any machine.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

from benchmarks._common import ROOT

# Sentences in the languages of the real corpus (plus Russian), written for this file.
_SENTENCES = {
    "en": [
        "The parcel left the warehouse this morning and should arrive on Friday.",
        "Configuration files live in the conf directory and are read at start-up.",
        "Run the command with the verbose flag to see every step it takes.",
        "Several packages provide the same virtual package; pick the one you need.",
        "The manual page describes each option, its default and an example.",
        "Back up your data before you upgrade the system to the next release.",
    ],
    "de": [
        "Das Paket hat das Lager heute Morgen verlassen und kommt am Freitag an.",
        "Die Konfigurationsdateien liegen im Verzeichnis conf und werden beim Start gelesen.",
        "Führen Sie den Befehl mit der Option für ausführliche Ausgabe aus.",
        "Größere Änderungen an der Systemkonfiguration erfordern einen Neustart.",
    ],
    "fr": [
        "Le colis a quitté l'entrepôt ce matin et devrait arriver vendredi.",
        "Les fichiers de configuration se trouvent dans le répertoire conf.",
        "Lancez la commande avec l'option détaillée pour voir chaque étape.",
        "Sauvegardez vos données avant de mettre le système à jour.",
    ],
    "tr": [
        "Paket bu sabah depodan çıktı ve cuma günü ulaşması bekleniyor.",
        "Yapılandırma dosyaları conf dizininde bulunur ve başlangıçta okunur.",
        "Sistemi güncellemeden önce verilerinizi yedekleyin.",
    ],
    "el": [
        "Το δέμα έφυγε από την αποθήκη σήμερα το πρωί και θα φτάσει την Παρασκευή.",
        "Τα αρχεία ρυθμίσεων βρίσκονται στον κατάλογο conf.",
        "Κρατήστε αντίγραφο ασφαλείας πριν από την αναβάθμιση του συστήματος.",
    ],
    "ru": [
        "Посылка покинула склад сегодня утром и прибудет в пятницу.",
        "Файлы настройки находятся в каталоге conf и читаются при запуске.",
    ],
    "ja": [
        "荷物は今朝倉庫を出発し、金曜日に到着する予定です。",
        "設定ファイルは conf ディレクトリにあり、起動時に読み込まれます。",
        "システムを更新する前にデータをバックアップしてください。",
    ],
    "zh": [
        "包裹今天早上离开仓库，预计星期五到达。",
        "配置文件位于 conf 目录中，并在启动时读取。",
        "升级系统之前请备份您的数据。",
    ],
}


def corpus_files(corpus: Path) -> list[Path]:
    """Every ``*.txt`` under ``corpus``, sorted (the definition the shared scripts use)."""
    return sorted(corpus.glob("**/*.txt"))


def spread_slice(files: list[Path], count: int) -> list[Path]:
    """``count`` files spread evenly over the sorted list (so every language is in it)."""
    if count >= len(files):
        return list(files)
    step = len(files) / count
    return [files[int(i * step)] for i in range(count)]


def _fixture_paragraphs() -> list[str]:
    paragraphs: list[str] = []
    for path in sorted((ROOT / "fixtures").glob("**/*.md")):
        text = path.read_text(encoding="utf-8")
        if text.startswith("---\n"):
            end = text.find("\n---\n", 4)
            text = text[end + 5 :] if end >= 0 else text
        paragraphs.extend(p.strip() for p in text.split("\n\n") if p.strip())
    return paragraphs


def synthetic_corpus(folder: Path, count: int = 120, seed: int = 6) -> list[Path]:
    """Write ``count`` documents of 0.5-24 KB under ``folder``; return their paths."""
    rng = random.Random(seed)
    paragraphs = _fixture_paragraphs()
    languages = sorted(_SENTENCES)
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for index in range(count):
        language = languages[index % len(languages)]
        target = int(rng.triangular(500, 24_000, 4_000))
        parts: list[str] = []
        size = 0
        while size < target:
            if language == "en" and rng.random() < 0.3:
                piece = rng.choice(paragraphs)
            else:
                piece = " ".join(rng.choice(_SENTENCES[language]) for _ in range(rng.randint(2, 6)))
            parts.append(piece)
            size += len(piece) + 2
        path = folder / language / f"doc-{index:04d}.txt"
        path.parent.mkdir(exist_ok=True)
        text = "\n\n".join(parts) + "\n"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        paths.append(path)
    return sorted(paths)


def find_corpus(given: Path | None) -> Path | None:
    """``--corpus``, else $TEXTCONTRACT_BENCH_CORPUS, else ``../corpus`` beside the checkout."""
    if given is not None:
        return given
    env = os.environ.get("TEXTCONTRACT_BENCH_CORPUS")
    if env:
        return Path(env)
    sibling = ROOT.parent / "corpus"
    return sibling if (sibling / "MANIFEST.tsv").is_file() else None


def copied_folder(folder: Path, files: list[Path]) -> Path:
    """A fresh ``folder`` holding a copy of each of ``files`` (a slice searched as a folder)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for index, path in enumerate(files):
        shutil.copyfile(path, folder / f"{index:05d}.txt")
    return folder
