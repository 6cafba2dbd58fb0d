"""The verdicts' vocabulary on hand-made per-seed values: each outcome of the claim test and of
the agreement test."""

from __future__ import annotations

import math

from bufrepro.kit import verdicts as v

SEEDS = (1, 2, 3, 4, 5, 6)


def per_seed(values: list[float]) -> dict[int, float]:
    return dict(zip(SEEDS, values, strict=True))


# A delay of about 350 ms per seed; the other side 1 % higher with the same seed-to-seed swing.
BASE = per_seed([340.0, 352.0, 347.0, 361.0, 338.0, 355.0])
ONE_PCT = {k: x * 1.01 for k, x in BASE.items()}


def test_paired_by_seed_when_both_sides_ran_the_same_seeds() -> None:
    iv = v.difference(BASE, ONE_PCT)
    assert iv.paired and iv.n == 6
    assert math.isclose(iv.estimate, 0.01 * sum(BASE.values()) / 6)
    unpaired = v.difference(BASE, {k + 10: x for k, x in ONE_PCT.items()})
    assert not unpaired.paired
    assert unpaired.high - unpaired.low > iv.high - iv.low


def test_one_percent_with_tight_intervals_is_no_meaningful_difference() -> None:
    # Claim: b lower than a by more than 5 % of a's delay (direction -1).
    iv = v.difference(BASE, ONE_PCT)
    assert v.claim_outcome(iv, 0.05 * 350, -1) == "no meaningful difference"


def test_holds_when_the_interval_clears_the_tolerance_in_the_claimed_direction() -> None:
    lower = {k: x * 0.8 for k, x in BASE.items()}
    assert v.claim_outcome(v.difference(BASE, lower), 0.05 * 350, -1) == "holds"


def test_fails_when_the_interval_clears_it_in_the_other_direction() -> None:
    higher = {k: x * 1.2 for k, x in BASE.items()}
    assert v.claim_outcome(v.difference(BASE, higher), 0.05 * 350, -1) == "fails"


def test_wide_interval_spanning_the_tolerance_is_undecided() -> None:
    noisy = per_seed([200.0, 500.0, 300.0, 420.0, 250.0, 480.0])
    assert v.claim_outcome(v.difference(BASE, noisy), 0.05 * 350, -1) == "undecided"


def test_one_value_is_not_judged() -> None:
    assert v.claim_outcome(v.difference({1: 3.0}, {1: 2.0}), 0.1, -1) == (
        "not judged: too little data"
    )


def test_agreement_inside_the_band_agrees() -> None:
    iv = v.welch((6, 100.0, 1.0), (6, 101.0, 1.0), v.AGREE_CONFIDENCE)
    assert v.agreement(iv, v.band(100.0, 101.0, 0.10)) == "agree"


def test_overlapping_wide_intervals_are_undecided_not_agree() -> None:
    # 9.7 [-32, 51] against 0 [0, 0] (the case): the intervals overlap, yet the
    # difference's interval spans the band.
    iv = v.welch((3, 9.7, 16.8), (3, 0.0, 0.0), v.AGREE_CONFIDENCE)
    assert iv.low < 0 < iv.high
    assert v.agreement(iv, v.band(9.7, 0.0, 0.10, floor=2.0)) == "undecided"


def test_far_apart_tight_intervals_differ() -> None:
    iv = v.welch((6, 100.0, 1.0), (6, 150.0, 1.0), v.AGREE_CONFIDENCE)
    assert v.agreement(iv, v.band(100.0, 150.0, 0.10)) == "differ"


def test_untestable_names_the_missing_point() -> None:
    assert v.word("claim", "untestable", point="buffer_frac=0.1") == (
        "untestable: no run at buffer_frac=0.1"
    )


def test_several_cells_combine() -> None:
    h, f, n, u = "holds", "fails", "no meaningful difference", "undecided"
    assert v.combined([h] * 9 + [u], 0.9) == h
    assert v.combined([h, h, f, f], 0.9) == "partly"
    assert v.combined([n, n, n], 0.9) == n
    assert v.combined([h, f, f], 0.9) == f  # fewer than half hold: not "partly"
    assert v.combined([f, n], 0.9) == f
    assert v.combined([u, u, n, f], 0.9) == u
    assert v.combined(["not judged: too little data"], 0.9) == "not judged: too little data"
    assert v.combined([], 0.9).startswith("untestable")
    free = "no meaningful difference: the AQM, not the buffer, sets the queue"
    assert v.combined([free, free], 0.9) == free
    assert v.combined([free, n, n], 0.9) == n  # counted as no meaningful difference
    assert v.combined([free, h, h], 0.9) == "partly"


def test_a_missing_claim_point_is_untestable_not_judged_from_neighbours() -> None:
    missing = v.word("claim", "untestable", point="s1 DropTail, buffer 0.1 BDP")
    assert v.combined([missing], 0.9) == missing
    assert v.combined([missing, "holds"], 0.9) == "holds"


def test_the_reports_count_outcomes_in_the_vocabularys_order() -> None:
    from bufrepro.pipeline import queues, summary

    # Every outcome but the placeholder form of "untestable" (counted under its prefix).
    claim = v.words()["claim"]
    assert set(v.outcomes()) == {str(w) for k, w in claim.items() if k != "untestable"}
    assert v.outcomes()[:3] == ("holds", "partly", "fails")
    assert queues.VERDICTS == v.outcomes()
    unbound = v.word("claim", "unbound")
    assert v.judged_outcomes() == v.outcomes()[:-1]
    assert summary.VERDICTS == tuple(w for w in v.judged_outcomes() if w != unbound)
    assert v.outcomes()[-1] == v.word("claim", "not_judged")


def test_a_no_change_claim_holds_inside_the_tolerance() -> None:
    assert v.flat_outcome(v.difference(BASE, ONE_PCT), 10.0) == "holds"  # +3.5 ms, tight
    far = {k: x + 50 for k, x in BASE.items()}
    assert v.flat_outcome(v.difference(BASE, far), 10.0) == "fails"
    wide = per_seed([300.0, 400.0, 320.0, 410.0, 290.0, 395.0])
    assert v.flat_outcome(v.difference(BASE, wide), 10.0) == "undecided"
    assert v.flat_outcome(v.difference({1: 1.0}, {1: 2.0}), 10.0).startswith("not judged")


def test_a_threshold_claim_is_a_non_inferiority_test() -> None:
    """b at least a within the tolerance: holds when the interval clears -tolerance, fails when
    it lies below it, undecided when it spans it; direction -1 mirrors it (b at most a)."""
    assert v.bound_outcome(v.Interval(-2.0, -4.0, 0.5, 5, False), 5.0, 1) == "holds"
    assert v.bound_outcome(v.Interval(-9.0, -12.0, -6.0, 5, False), 5.0, 1) == "fails"
    assert v.bound_outcome(v.Interval(-5.0, -8.0, -2.0, 5, False), 5.0, 1) == "undecided"
    assert v.bound_outcome(v.Interval(2.0, -0.5, 4.0, 5, False), 5.0, -1) == "holds"
    assert v.bound_outcome(v.Interval(9.0, 6.0, 12.0, 5, False), 5.0, -1) == "fails"
    assert v.bound_outcome(v.NO_INTERVAL, 5.0, 1).startswith("not judged")


def test_several_tests_make_one_check() -> None:
    """kit.claims.all_of: one failing test fails the check; all holding hold it; holds beside
    no meaningful difference is no meaningful difference; beside undecided, not supported."""
    from bufrepro.kit.claims import Check, all_of, sample_check
    from bufrepro.kit.samples import Sample

    def cell(mean: float, swing: float, n: int = 5) -> Sample:
        return Sample({k: mean + swing * (k - (n - 1) / 2) for k in range(n)})

    holds = sample_check("c", "x:", cell(100.0, 0.5), cell(80.0, 0.3), 5.0, -1, False)
    same = sample_check("c", "x:", cell(100.0, 0.5), cell(100.5, 0.3), 5.0, -1, False)
    fails = sample_check("c", "x:", cell(100.0, 0.5), cell(120.0, 0.3), 5.0, -1, False)
    vague = sample_check("c", "x:", cell(100.0, 10.0, 2), cell(95.0, -10.0, 2), 5.0, -1, False)
    assert [c.result for c in (holds, same, fails, vague)] == [
        "holds", "no meaningful difference", "fails", "undecided"
    ]  # fmt: skip
    assert all_of("c", [holds, holds]).result == "holds"
    assert all_of("c", [holds, fails, vague]).result == "fails"
    assert all_of("c", [holds, same]).result == "no meaningful difference"
    # the same part rules the claimed effect out: the whole is not supported, not undecided
    assert all_of("c", [same, vague]).result == "not supported"
    assert all_of("c", [holds, vague]).result == "undecided"
    ruled_out = Check("c", False, "", "not supported")
    assert all_of("c", [holds, ruled_out, vague]).result == "not supported"
    assert all_of("c", [ruled_out, fails]).result == "fails"
    assert isinstance(all_of("c", []), Check) and all_of("c", []).result == "holds"


def test_an_interval_that_rules_the_claim_out_short_of_its_opposite_is_not_supported() -> None:
    """The issue's case: [-3, -0.5] x tolerance in the claimed direction rules the claimed effect
    out, yet reaches -tolerance: not supported, not undecided. Direction -1 mirrors it."""
    t = 2.0
    assert v.claim_outcome(v.Interval(-3.5, -6.0, -1.0, 6, True), t, 1) == "not supported"
    assert v.claim_outcome(v.Interval(3.5, 1.0, 6.0, 6, True), t, -1) == "not supported"
    # an interval holding the claimed bound +t stays undecided, even when it reaches -t too
    assert v.claim_outcome(v.Interval(0.0, -6.0, 2.5, 6, True), t, 1) == "undecided"
    assert v.claim_outcome(v.Interval(2.5, 1.0, 4.0, 6, True), t, 1) == "undecided"
    # the neighbours on the number line keep their words
    assert v.claim_outcome(v.Interval(-1.0, -1.9, 1.9, 6, True), t, 1) == "no meaningful difference"
    assert v.claim_outcome(v.Interval(-5.0, -6.0, -2.1, 6, True), t, 1) == "fails"
    assert v.claim_outcome(v.Interval(3.0, 2.1, 4.0, 6, True), t, 1) == "holds"


def test_not_supported_is_counted_and_combined() -> None:
    from bufrepro.pipeline import summary

    ns, u = "not supported", "undecided"
    assert v.combined([ns, ns, "holds"], 0.6) == ns
    assert v.combined([ns, u, u], 0.9) == u
    assert v.combined([ns, ns, u], 0.9) == ns
    assert ns in summary.VERDICTS
    assert summary.counts(__import__("pandas").Series([ns, ns, u]))[ns] == 2
