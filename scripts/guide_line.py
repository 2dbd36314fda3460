"""Write a guided first game's line: play a game's guide deal with the guide's suggesting agent in the newcomer's
seat against its opponent (as the server would), and print the line and how the game went.

    .venv/bin/python scripts/guide_line.py GAME [--seed N ...] [--options JSON] [--show]

Without a guide.json the game's deal is taken from the arguments; `--write` puts the line (and the seed and
options) into the game's guide.json, keeping its steps. `--show` prints the newcomer's view at each decision,
to write the steps from.
"""

from __future__ import annotations

import argparse
import json
import sys

from tablepress.core.guide import GUIDE_FILE, GUIDE_FORMAT, Guide, Step, load_guide
from tablepress.core.registry import get_package
from tablepress.web.guide_play import run_guide, suggestion


def blank_guide(game: str, seed: int, options: dict, opponent: str, suggested_by: str) -> Guide:
    """A guide with no line and no steps: the deal alone."""
    return Guide(game=get_package(game).name, title="-", summary="-", players=2, seat=0, opponent=opponent, seed=seed,
                 options=options, suggested_by=suggested_by, line=(), steps=(Step(0, "-", "-", "-"),))


def main() -> None:
    """Play each seed asked for and report it (or write the line of the one seed)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seed", type=int, nargs="*")
    parser.add_argument("--options", default="{}")
    parser.add_argument("--opponent", default="level:beginner")
    parser.add_argument("--suggested-by", default="greedy")
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    package = get_package(args.game)
    existing = load_guide(package)
    seeds = args.seed or ([existing.seed] if existing else [0])
    for seed in seeds:
        guide = blank_guide(args.game, seed, json.loads(args.options), args.opponent, args.suggested_by)
        run = run_guide(guide, extend=lambda match, seat, g=guide: suggestion(match, seat, g))
        line = [move.action for move in run.match.moves if move.seat == guide.seat]
        scores = run.match.game.scores(run.match.state)
        print(f"seed {seed}: won={run.won} scores={scores} moves={len(run.match.moves)} line={len(line)}")
        if args.show:
            for seen in run.seen:
                view = seen.view
                print(f"--- move {seen.point.move} {view['status']} legal={view['legal_actions'][:8]}")
                print("public:", json.dumps(view["public"], ensure_ascii=False)[:1500])
                print("private:", json.dumps(view["private"], ensure_ascii=False)[:600])
                print("log:", [entry["lines"][0]["text"] if entry["lines"] else entry["text"] for entry in view["log"][-3:]])
                if seen.point.move < len(line) and view["status"] != "over":
                    print("SUGGEST", line[seen.point.move], "hint", view["hints"].get(line[seen.point.move]))
        if args.write and len(seeds) == 1:
            path = package.folder / GUIDE_FILE
            data = json.loads(path.read_text()) if path.is_file() else {"format": GUIDE_FORMAT, "steps": []}
            data.update(seed=seed, options=json.loads(args.options), opponent=args.opponent,
                        suggested_by=args.suggested_by, players=2, seat=0, line=line)
            path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
            print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
