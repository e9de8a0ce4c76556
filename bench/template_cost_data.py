#!/usr/bin/env python3
"""Writes bench/template_cost.sh's data file: a CSV with a header row `id,name` and N rows.

Deterministic (no randomness): row i has id `u<i+1>` zero-padded to 6 digits and a name drawn from
a fixed list by a multiplicative hash of i, so every run sends the same values.

    python3 bench/template_cost_data.py OUT.csv [ROWS]   # ROWS defaults to 100000
"""
import sys

NAMES = ["ada", "alan", "barbara", "claude", "donald", "edsger", "frances", "grace",
         "john", "ken", "leslie", "margaret", "niklaus", "radia", "tony", "whitfield"]


def main() -> None:
    out = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    with open(out, "w", newline="") as f:
        f.write("id,name\n")
        for i in range(rows):
            name = NAMES[(i * 2654435761 >> 7) % len(NAMES)]
            f.write(f"u{i + 1:06d},{name}-{i % 997}\n")


if __name__ == "__main__":
    main()
