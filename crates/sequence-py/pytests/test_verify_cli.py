"""`sequence_game.verify` and `sequence verify` agree on every input of a
corpus: the shared example records (legal and illegal, both games), and
malformed and non-UTF-8 files made from them. Same exit code, same message
(the CLI's stderr is `error: FILE: why` for a malformed file, `why` for an
illegal move or a mismatch), same summary.

The CLI is $SEQUENCE_BIN (scripts/test.sh sets it), else the debug build
in target/; the test fails, never skips, without it."""

import json
import os
import pathlib
import subprocess

import pytest

import sequence_game as sg


def cli(repo: pathlib.Path) -> pathlib.Path:
    exe = pathlib.Path(os.environ.get("SEQUENCE_BIN") or repo / "target" / "debug" / "sequence")
    assert exe.is_file(), f"no sequence binary at {exe} (cargo build, or set SEQUENCE_BIN)"
    return exe


def examples(repo: pathlib.Path) -> pathlib.Path:
    for base in (os.environ.get("SEQUENCE_SHARED"), repo.parent / "shared"):
        if base and (pathlib.Path(base) / "examples").is_dir():
            return pathlib.Path(base) / "examples"
    raise AssertionError("no shared/examples beside the repository (set SEQUENCE_SHARED)")


def corpus(repo: pathlib.Path, out: pathlib.Path) -> list:
    ex = examples(repo)
    files = [
        p
        for d in (ex, ex / "illegal", ex / "stacks", ex / "stacks" / "illegal")
        for p in sorted(d.glob("*.json"))
        if not p.name.endswith("expected.json")
    ]
    classic = (ex / "2p-blue-vs-green.json").read_bytes()
    stacks = (ex / "stacks" / "3p.json").read_bytes()
    made = {
        # not UTF-8
        "latin1.json": '{"format": "sequence-record/1", "name": "Zoë"}'.encode("latin-1"),
        "utf16.json": "\ufeff{}".encode("utf-16-le"),
        "lone-continuation.json": b"\x80",
        "cut-sequence.json": classic[:40] + b"\xe2\x82",
        "bad-byte-in-card.json": stacks.replace(b'"SKIP"', b'"S\xffKIP"', 1)
        if b'"SKIP"' in stacks
        else stacks.replace(b'"deck": ["', b'"deck": ["\xff', 1),
        "bad-byte-in-classic.json": classic.replace(b'"9H"', b'"9\xffH"', 1),
        "overlong.json": b'{"format": "sequence-record/1"\xc0\xaf}',
        "surrogate.json": b'{"format": "\xed\xa0\x80"}',
        # malformed
        "empty.json": b"",
        "blank.json": b" \n\t ",
        "open-brace.json": b"{",
        "list.json": b"[]",
        "number.json": b"17",
        "chess.json": b'{"format": "chess"}',
        "no-format.json": b'{"players": 2}',
        "cut.json": classic[: len(classic) // 2],
        "repeated-key.json": classic.replace(b'"players": 2', b'"players": 2, "players": 3', 1),
        "bom.json": b"\xef\xbb\xbf" + classic,
        "five-players.json": classic.replace(b'"players": 2', b'"players": 5', 1),
        "stacks-cut.json": stacks[: len(stacks) // 3],
        "trailing.json": classic + b"{}",
    }
    rec = json.loads(classic)
    rec["result"] = {"winner": "green" if rec.get("result", {}).get("winner") == "blue" else "blue"}
    made["mismatch.json"] = json.dumps(rec).encode()
    rec = json.loads(classic)
    rec["moves"] = rec["moves"][:5] + [{"seat": 9, "card": "7H", "at": "e5"}]
    made["bad-seat.json"] = json.dumps(rec).encode()
    for name, data in made.items():
        (out / name).write_bytes(data)
        files.append(out / name)
    return files


def test_python_and_the_cli_agree_on_every_record(repo, tmp_path):
    exe = cli(repo)
    files = corpus(repo, tmp_path)
    codes = {0: 0, 1: 0, 2: 0}
    for path in files:
        run = subprocess.run([str(exe), "verify", str(path)], capture_output=True)
        stderr = run.stderr.decode().strip()
        codes[run.returncode] = codes.get(run.returncode, 0) + 1
        for source in (path.read_bytes(), path, str(path)):
            what = f"{path.name} as {type(source).__name__}"
            if run.returncode == 0:
                assert sg.verify(source) == json.loads(run.stdout), what
                continue
            with pytest.raises(sg.RecordError) as e:
                sg.verify(source)
            assert e.value.exit_code == run.returncode, (what, stderr, str(e.value))
            if run.returncode == 2:
                assert stderr == f"error: {path}: {e.value}", what
            else:
                assert stderr == str(e.value), what
    # the corpus reaches every outcome
    assert codes[0] >= 8 and codes[1] >= 10 and codes[2] >= 15, codes
