#!/usr/bin/python3
"""The backtest's baselines and summary (bench/capacity_backtest.sh; issue 40, "Measured").

Reads DIR/series.csv, truth.csv and vrecon.csv (bench/capacity_backtest.cc), forecasts each
history 365 days ahead with statsmodels' Holt-Winters (additive trend, damped, additive weekly
season) and with a linear regression on the day, takes each one's first day ahead over usable
(18 cores), and prints, per method and over all cases: time remaining within max(7 days, 15%) of
the truth among the cases that cross, the median absolute error in days (no crossing predicted
counts as crossing on day 366), false crossings among the cases that do not, and vrecon's band
coverage. Debian's python3-statsmodels and python3-numpy; run with /usr/bin/python3.
"""
import csv
import statistics
import sys
import warnings
from collections import defaultdict

import numpy as np
from statsmodels.tsa.holtwinters import ExponentialSmoothing

USABLE, AHEAD = 18.0, 365


def first_over(forecast):
    for h, v in enumerate(forecast, start=1):
        if v > USABLE:
            return h
    return None


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(s):
    return int(s) if s != "" else None


def main(d):
    histories = defaultdict(list)
    for row in read(f"{d}/series.csv"):
        histories[(row["case"], int(row["seed"]))].append(float(row["observed"]))
    truth = {(r["case"], int(r["seed"])): number(r["truth_days"]) for r in read(f"{d}/truth.csv")}
    ours = {(r["case"], int(r["seed"])): r for r in read(f"{d}/vrecon.csv")}
    answers = defaultdict(dict)  # method -> key -> days
    for key, y in histories.items():
        y = np.asarray(y)
        t = np.arange(len(y))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hw = ExponentialSmoothing(y, trend="add", damped_trend=True, seasonal="add", seasonal_periods=7,
                                      initialization_method="estimated").fit()
        answers["Holt-Winters (damped)"][key] = first_over(hw.forecast(AHEAD))
        slope, level = np.polyfit(t, y, 1)
        answers["linear regression"][key] = first_over(level + slope * np.arange(len(y), len(y) + AHEAD))
        answers["vrecon (aggressive)"][key] = number(ours[key]["aggressive_days"])
        answers["vrecon (conservative)"][key] = number(ours[key]["conservative_days"])

    def summary(method, keys):
        crossing = [k for k in keys if truth[k] is not None]
        within, errors = 0, []
        for k in crossing:
            got = answers[method][k]
            # A baseline's first day over is 1 at the soonest; vrecon says 0 when the last week already
            # was (so does the truth): a baseline's 1 is as good as 0 then.
            got = AHEAD + 1 if got is None else got
            if truth[k] == 0 and got == 1:
                got = 0
            err = abs(got - truth[k])
            errors.append(err)
            within += err <= max(7, 0.15 * truth[k])
        false = sum(1 for k in keys if truth[k] is None and answers[method][k] is not None)
        return crossing, within, errors, false

    cases = sorted({k[0] for k in truth})
    print(f"{'case':<14} {'method':<24} {'crossing':>8} {'within':>8} {'median err d':>12} {'false x':>8}")
    totals = {}
    for method in answers:
        for case in cases + ["all"]:
            keys = [k for k in truth if case == "all" or k[0] == case]
            crossing, within, errors, false = summary(method, keys)
            med = statistics.median(errors) if errors else float("nan")
            if case == "all":
                totals[method] = med
            print(f"{case:<14} {method:<24} {len(crossing):>8} {within:>8} {med:>12.1f} {false:>8}")
    cov = [float(r["coverage"]) for r in ours.values()]
    print(f"vrecon 90% band: median coverage of the next 90 regular days {statistics.median(cov):.3f}, "
          f"mean {statistics.mean(cov):.3f}")
    best = min(totals["Holt-Winters (damped)"], totals["linear regression"])
    print(f"median error, vrecon aggressive / better baseline: {totals['vrecon (aggressive)'] / best:.2f}")


if __name__ == "__main__":
    main(sys.argv[1])
