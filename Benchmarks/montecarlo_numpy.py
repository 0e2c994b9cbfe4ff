#!/usr/bin/env python3
"""The Monte Carlo of `migrate simulate`, vectorised with NumPy: the twin `migrate-bench montecarlo`
checks migrate against and times it with.

The same model as Sources/MigrateSimulation/Model/RevenueModel.swift, draw for draw: each draw maps one
uniform number per assumption through the assumption's inverse distribution function (Acklam's inverse
normal for log-normals, as migrate), then computes staying paid's and freemium's monthly proceeds
(downloads that decay from the launch multiple to the lasting one, both paths weighed by the season's
factor of each month, conversion split over each cohort's offers with the price response against the
reference price, legacy buyers in month 1, subscriptions renewing with churn, the tax in the price, the
commission and refunds). The summary is the one migrate reports: P10/P50/P90 of each month's cumulative
and monthly proceeds (nearest rank, exact here where migrate uses a 0.5% sketch), the share of draws
where freemium ends ahead or level, the break-even months and the horizon difference.

migrate-bench writes the compiled model as JSON (cohorts, offers, distributions) and runs:

    montecarlo_numpy.py check MODEL.json UNIFORMS.f64 EXPECTED.f64
        the same uniforms migrate drew, through this model; prints the largest relative difference
        from migrate's monthly proceeds, draw by draw, as JSON.
    montecarlo_numpy.py time MODEL.json DRAWS SEED REPEATS
        DRAWS draws from NumPy's own generator, REPEATS times; prints the best time in seconds and
        the summary as JSON.

NumPy is not a dependency of migrate: only this benchmark uses it. Run single-threaded (elementwise
NumPy is; migrate-bench also sets the BLAS thread counts to 1).
"""

import json
import sys
import time

import numpy as np


def inverse_normal(p):
    """Acklam's rational approximation, as migrate's NormalDistribution.inverse."""
    p = np.clip(p, 1e-300, 1 - 1e-16)
    out = np.empty_like(p)
    low = 0.02425
    lower = p < low
    upper = p > 1 - low
    middle = ~(lower | upper)

    def tail(q):
        numerator = (((((-7.784894002430293e-03 * q + -3.223964580411365e-01) * q + -2.400758277161838e+00) * q
                       + -2.549732539343734e+00) * q + 4.374664141464968e+00) * q + 2.938163982698783e+00)
        denominator = (((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q
                       + 3.754408661907416e+00) * q + 1
        return numerator / denominator

    if lower.any():
        out[lower] = tail(np.sqrt(-2 * np.log(p[lower])))
    if upper.any():
        out[upper] = -tail(np.sqrt(-2 * np.log(1 - p[upper])))
    q = p[middle] - 0.5
    r = q * q
    numerator = (((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r + -2.759285104469687e+02) * r
                   + 1.383577518672690e+02) * r + -3.066479806614716e+01) * r + 2.506628277459239e+00) * q
    denominator = ((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r + -1.556989798598866e+02) * r
                    + 6.680131188771972e+01) * r + -1.328068155288572e+01) * r + 1
    out[middle] = numerator / denominator
    return out


def quantile(distribution, p):
    """The value at probability p of one assumption, for a column of draws."""
    kind = distribution["kind"]
    if kind == "point":
        return np.full_like(p, distribution["value"])
    if kind == "uniform":
        low, high = distribution["low"], distribution["high"]
        return low + p * (high - low)
    if kind == "triangular":
        low, mode, high = distribution["low"], distribution["mode"], distribution["high"]
        width = high - low
        if width <= 0:
            return np.full_like(p, low)
        split = (mode - low) / width
        below = low + np.sqrt(np.maximum(p * width * (mode - low), 0))
        above = high - np.sqrt(np.maximum((1 - p) * width * (high - mode), 0))
        return np.where(p < split, below, above)
    if kind == "logNormal":
        low, high = distribution["low"], distribution["high"]
        mu = (np.log(low) + np.log(high)) / 2
        sigma = (np.log(high) - np.log(low)) / (2 * 1.2815515655446004)
        return np.exp(mu + sigma * inverse_normal(p))
    raise ValueError(f"unknown distribution {kind}")


def evaluate(model, uniforms):
    """Monthly proceeds of staying paid and of freemium: one row per month, one column per draw (each month's
    draws contiguous, for the percentiles)."""
    months = model["months"]
    cut, later_cut = model["cut"], model["laterCut"]
    # One column of draws per assumption, by name, in the order migrate draws them.
    values = {name: quantile(d, uniforms[:, i]) for i, (name, d) in enumerate(zip(model["assumptions"], model["distributions"]))}
    rate, price = values["paidDownloadsPerMonth"], values["paidPrice"]
    legacy = rate * model["paidMonthsOnSale"] if model["derivedLegacy"] else values["legacyBuyers"]
    launch, half_life, lasting = values["launchMultiple"], values["burstHalfLifeMonths"], values["lastingMultiple"]
    conversion, upgrade = values["conversion"], values["legacyUpgradeRate"]
    churn, refund = values["monthlyChurn"], values["refundRate"]
    trend, elasticity = 1 + values["paidTrendPerMonth"], values["priceElasticity"]
    net = 1 - values["taxInPrice"]
    season = np.asarray(model["season"], dtype=float).reshape(months, 1)
    keep = 1 - refund
    decay = 0.5 ** (1 / half_life)
    slots = len(model["subscriptions"])
    draws = len(rate)

    # One-time proceeds per new and per legacy buyer, and subscribers per buyer in each slot.
    new_per_buyer = np.zeros(draws)
    legacy_per_buyer = np.zeros(draws)
    new_slots = np.zeros((slots, draws))
    legacy_slots = np.zeros((slots, draws))
    for cohort in model["cohorts"]:
        is_new = cohort["kind"] == "new"
        for offer in cohort["offers"]:
            reference = offer["reference"]
            if reference > 0 and offer["price"] != reference:
                response = np.exp(-elasticity * (offer["price"] / reference - 1))
            else:
                response = 1.0
            share = cohort["share"] * offer["weight"] * response
            if offer["slot"] is not None:
                (new_slots if is_new else legacy_slots)[offer["slot"]] += share
            elif is_new:
                new_per_buyer += share * offer["price"]
            else:
                legacy_per_buyer += share * offer["price"]

    def powers(base):
        """base ** month for every month, by repeated multiplication as migrate does."""
        out = np.empty((months, draws))
        out[0] = 1
        if months > 1:
            np.cumprod(np.broadcast_to(base, (months - 1, draws)), axis=0, out=out[1:])
        return out

    # In place where it can be: at a million draws every temporary is 192 MB.
    paid = powers(trend)
    paid *= rate
    paid *= season
    paid *= price * net * keep * (1 - cut)
    new_buyers = powers(decay)
    new_buyers *= launch - lasting
    new_buyers += lasting
    new_buyers *= rate * conversion
    new_buyers *= season
    upgrading = legacy * upgrade  # month 1 only
    freemium = new_buyers * new_per_buyer
    freemium[0] += upgrading * legacy_per_buyer
    freemium *= 1 - cut

    if slots:
        staying = powers(1 - churn)
        for subscription in model["subscriptions"]:
            slot, period = subscription["slot"], subscription["periodMonths"]
            subscribers = new_buyers * new_slots[slot]
            subscribers[0] += upgrading * legacy_slots[slot]
            for age in range(0, months, period):
                rate_cut = later_cut if age >= 12 else cut
                charge = subscription["price"] * subscription["chargesPerPeriod"] * (1 - rate_cut)
                freemium[age:] += subscribers[: months - age] * staying[age] * charge
    freemium *= keep * net
    return paid, freemium


def summarise(model, paid, freemium):
    """What migrate reports of the draws (rows are months, columns draws)."""
    months = model["months"]
    cumulative_paid = np.cumsum(paid, axis=0)
    cumulative_freemium = np.cumsum(freemium, axis=0)
    draws = paid.shape[1]
    # The nearest rank, ceil(p × n), as migrate reads its sketches (NumPy's "inverted_cdf").
    ranks = [max(1, int(np.ceil(p * draws))) - 1 for p in (0.1, 0.5, 0.9)]

    def percentiles(values):
        return np.partition(values, ranks, axis=1)[:, ranks].tolist()

    difference = cumulative_freemium[-1] - cumulative_paid[-1]
    tie = np.abs(difference) <= model["tieTolerance"]
    behind = cumulative_freemium < cumulative_paid
    last_behind = np.where(behind.any(axis=0), months - 1 - np.argmax(behind[::-1], axis=0), -1)
    break_even = np.where(tie, months, last_behind + 1)
    return {
        "draws": int(draws),
        "cumulativePaid": percentiles(cumulative_paid),
        "cumulativeFreemium": percentiles(cumulative_freemium),
        "monthlyFreemium": percentiles(freemium),
        "monthlyPaid": percentiles(paid),
        "freemiumWins": int(np.count_nonzero((difference > 0) & ~tie)),
        "ties": int(np.count_nonzero(tie)),
        "breakEven": np.bincount(break_even, minlength=months + 1).tolist(),
        "advantage": np.partition(difference, ranks)[ranks].tolist(),
    }


def main(arguments):
    if len(arguments) >= 4 and arguments[0] == "check":
        model = json.load(open(arguments[1]))
        months = model["months"]
        uniforms = np.fromfile(arguments[2], dtype="<f8").reshape(-1, len(model["distributions"]))
        expected = np.fromfile(arguments[3], dtype="<f8").reshape(-1, 2, months)
        paid, freemium = evaluate(model, uniforms)

        def worst(ours, theirs):
            scale = np.maximum(np.abs(theirs), 1e-9)
            return float(np.max(np.abs(ours - theirs) / scale))

        result = {"draws": int(len(uniforms)), "paid": worst(paid.T, expected[:, 0]), "freemium": worst(freemium.T, expected[:, 1])}
        print(json.dumps(result))
        return 0
    if len(arguments) >= 5 and arguments[0] == "time":
        model = json.load(open(arguments[1]))
        draws, seed, repeats = int(arguments[2]), int(arguments[3]), int(arguments[4])
        best = float("inf")
        summary = None
        for repeat in range(repeats):
            start = time.perf_counter()
            generator = np.random.default_rng(seed + repeat)
            uniforms = np.maximum(generator.random((draws, len(model["distributions"]))), 2.0 ** -60)
            paid, freemium = evaluate(model, uniforms)
            summary = summarise(model, paid, freemium)
            best = min(best, time.perf_counter() - start)
            del uniforms, paid, freemium
        print(json.dumps({"seconds": best, "numpy": np.__version__, "summary": summary}))
        return 0
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
