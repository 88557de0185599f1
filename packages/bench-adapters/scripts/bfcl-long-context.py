"""Writes src/bfcl/long-context.json: the data constants of BFCL's long_context.py.

BFCL's multi-turn classes read these module-level constants when `long_context=True` (extra
files, watch-list symbols, transaction history, credit cards, bookings, weather, ...). They are
benchmark data (Apache-2.0, ShishirPatil/gorilla, berkeley-function-call-leaderboard/bfcl_eval/
eval_checker/multi_turn_eval/func_source_code/long_context.py at commit 6ea57973). This script
reads that file with `ast.literal_eval` (no code from it runs) and writes the constants as JSON,
keeping what JSON would lose:
  - a float with an integral value (7287.0) becomes {"$float": 7287};
  - Ellipsis (`...`) becomes {"$ellipsis": true}.

Usage: python3 scripts/bfcl-long-context.py <path/to/long_context.py> > src/bfcl/long-context.json
"""
import ast
import json
import math
import sys


def encode(value, where):
    if value is Ellipsis:
        return {"$ellipsis": True}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        if abs(value) > 2**53:
            raise SystemExit(f"{where}: int {value} is not exact as a double")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SystemExit(f"{where}: non-finite float")
        return {"$float": int(value)} if value.is_integer() else value
    if isinstance(value, (list, tuple)):
        return [encode(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise SystemExit(f"{where}: non-string key {k!r}")
            out[k] = encode(v, f"{where}.{k}")
        return out
    raise SystemExit(f"{where}: unsupported {type(value).__name__}")


def main(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    constants = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            raise SystemExit(f"{path}:{node.lineno}: not a plain constant assignment")
        name = node.targets[0].id
        constants[name] = encode(ast.literal_eval(node.value), name)
    json.dump(constants, sys.stdout, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
