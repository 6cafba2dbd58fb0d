"""The ramya claims on synthetic cells: they hold on the paper's shape and fail otherwise."""

from __future__ import annotations

import pandas as pd
from ramya_tiny import READING, THRESHOLDS

from bufrepro.kit.claims import verdict as judge
from bufrepro.studies.ramya.claims import CLAIMS


def table(rows: list[tuple[float, float, float, float]], scope: str = "Table 5") -> pd.DataFrame:
    """Claim cells from (buffer, throughput, rtt, drop share) rows of one reading."""
    return pd.DataFrame(
        [
            {"scope": scope, **READING, "buffer": b, "tput": t, "rtt": r, "drop_share": d}
            for b, t, r, d in rows
        ]
    )


def verdict(claim_id: str, cells: pd.DataFrame) -> str:
    claim = next(c for c in CLAIMS if c.claim_id == claim_id)
    return judge(claim.check(cells, THRESHOLDS), THRESHOLDS["holds_frac"])


def test_claims_hold_on_the_paper_shape_and_fail_otherwise() -> None:
    paper = table(
        [
            (1, 796, 0.030, 0.025),
            (2, 880, 0.033, 0.02),
            (3, 900, 0.035, 0.016),
            (6, 977, 0.045, 0.013),
            (12, 984, 0.067, 0.007),
            (100, 984, 0.381, 0.001),
        ]
    )
    flat = table([(1, 500, 0.05, 0.2), (2, 990, 0.05, 0.01), (100, 1000, 0.06, 0.0)])
    assert verdict("optimum_3_to_6", paper) == "holds"
    assert verdict("optimum_3_to_6", flat) == "fails"  # knee at 2
    assert verdict("optimum_3_to_6_power", paper) == "fails"  # largest power at 2 frames
    assert verdict("tolerates_2pct_drops", paper) == "holds"
    assert verdict("tolerates_2pct_drops", flat) == "fails"  # 20% drops, half the throughput
    assert verdict("rtt_grows_sharply", paper) == "holds"
    assert verdict("rtt_grows_sharply", flat) == "fails"
    falls = table([(10, 54722, 0.09, 0), (50, 53375, 0.2, 0), (500, 53181, 2, 0)], "Table 1")
    rises = table([(10, 50000, 0.09, 0), (50, 58000, 0.2, 0), (500, 58100, 2, 0)], "Table 1")
    assert verdict("goodput_falls_slightly", falls) == "holds"
    assert verdict("goodput_falls_slightly", rises) == "fails"


def test_remedy_claim() -> None:
    def cells(rtts: list[float]) -> pd.DataFrame:
        windows = [2048, 8192, 102400]
        tputs = [30000, 58000, 58100]
        return pd.DataFrame(
            [
                {**READING, "buffer": 500, "rwnd_bytes": w, "tput": t, "rtt": r}
                for w, t, r in zip(windows, tputs, rtts, strict=True)
            ]
        )

    assert verdict("rwnd_remedy", cells([0.05, 0.1, 1.7])) == "holds"
    assert verdict("rwnd_remedy", cells([0.05, 1.2, 1.7])) == "fails"


def test_rtt_steps_are_tests_on_the_cells_spread() -> None:
    """step_frac 0.05: with the cells' sd and n, each RTT step is Welch's 90 % interval of the
    rise against 5 % of the two cells' mean RTT. Tight cells rising 10x hold; a step of 1 %
    with tight cells is no meaningful difference; a rise of 20 % with sd 0.1 s at 2 seeds
    spans the tolerance: undecided."""
    th = {**THRESHOLDS, "step_frac": 0.05}
    claim = next(c for c in CLAIMS if c.claim_id == "rtt_grows_sharply")

    def steps(rtts: list[float], sd: float, n: int = 3) -> list[str]:
        cells = table([(b, 900, r, 0.01) for b, r in zip((1, 10), rtts, strict=True)])
        cells = cells.assign(rtt_sd=sd, rtt_n=n)
        return [c.result for c in claim.check(cells, th)][:-1]  # the overall x5 check last

    assert steps([0.03, 0.3], 0.001) == ["holds"]
    assert steps([0.300, 0.303], 0.001) == ["no meaningful difference"]
    assert steps([0.30, 0.36], 0.1, 2) == ["undecided"]
    # without sd (the paper's own table) a step is the means' comparison, as before
    plain = claim.check(table([(1, 9, 0.3, 0), (10, 9, 0.303, 0)]), th)
    assert plain[0].result == "holds"
