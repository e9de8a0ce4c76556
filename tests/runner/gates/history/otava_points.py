"""Otava's change points of each series in a JSON file, for otava_agreement_test.ts.

Reads {"series": [[v, ...], ...], "windowRuns": W, "maxPValue": P, "minMagnitude": M} from the
file named by the first argument; prints [[{"index": i, "pValue": p}, ...], ...], one list per
series, from apache-otava's compute_change_points.
"""
import json
import sys
import warnings

from otava.analysis import compute_change_points


def main():
    with open(sys.argv[1]) as f:
        request = json.load(f)
    found = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns on a constant side; Otava passes NaN on
        for values in request["series"]:
            points, _ = compute_change_points(
                list(values),
                window_len=request["windowRuns"],
                max_pvalue=request["maxPValue"],
                min_magnitude=request["minMagnitude"],
            )
            found.append([{"index": int(p.index), "pValue": float(p.stats.pvalue)} for p in points])
    json.dump(found, sys.stdout)


if __name__ == "__main__":
    main()
