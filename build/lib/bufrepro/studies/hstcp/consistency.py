"""What Barman's printed parameters and claims imply on their own (response function, BDPs)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pandas as pd

from bufrepro.kit import consistency as kc
from bufrepro.kit.study import Block, Tables

# HighSpeed TCP's response function (RFC 3649): w = 0.12 / p^0.835 segments.
HS_A = 0.12
HS_EXPONENT = 0.835
# A printed value agrees with what it implies when within this fraction (one or two digits).
AGREE_FRAC = 0.05
# The loss rate a model gives agrees in order of magnitude within this factor.
ORDER_FACTOR = 2.0
PARAMS = "hstcp_params"


def hs_loss(window: float) -> float:
    """The loss rate at which HighSpeed TCP's response function gives `window` segments."""
    return float((HS_A / window) ** (1 / HS_EXPONENT))


def _one(value: float, expected: float, frac: float = AGREE_FRAC) -> kc.Measured:
    return kc.Measured(value, expected, abs(value / expected - 1) <= frac)


def _param_check(
    name: str, compute: Callable[[dict[str, float]], tuple[float, float]], ok: str, bad: str
) -> kc.Check:
    def measure(df: pd.DataFrame) -> kc.Measured | None:
        values = dict(zip(df["name"], df["value"].astype(float), strict=True))
        try:
            value, expected = compute(values)
        except KeyError:
            return None
        return _one(value, expected)

    return kc.Check(name, measure, ok, bad)


def bdp_pkts(v: dict[str, float], scenario: str, rtt_ms: float) -> float:
    """The BDP in (1 KB) packets of a scenario's bottleneck at an RTT."""
    return v[f"{scenario}.link_capacity"] * 1e9 * rtt_ms / 1e3 / (8 * 1000)


def _response(v: dict[str, float], end: str) -> tuple[float, float]:
    return v[f"hstcp.p_{end}"], hs_loss(v[f"hstcp.w_{end}"])


def _link_bdp(v: dict[str, float], s: str) -> tuple[float, float]:
    return v[f"{s}.bdp_r1r2"], bdp_pkts(v, s, 2 * v[f"{s}.link_delay"])


def _buffer_over_bdp(v: dict[str, float], s: str) -> tuple[float, float]:
    printed = v[f"{s}.buffer_max_over_bdp_largest_rtt"]
    return printed, v[f"{s}.buffer_max"] / bdp_pkts(v, s, v[f"{s}.rtt_max"])


def param_checks() -> list[kc.Check]:
    """The printed parameters against each other."""
    checks = [
        _param_check(
            f"response_function_{end}",
            partial(_response, end=end),
            f"p_{end} is the loss rate at which RFC 3649's w = 0.12 p^-0.835 gives w_{end} "
            "({expected:.3g}).",
            f"p_{end} = {{value:.3g}} differs from the loss rate RFC 3649's response function "
            f"gives at w_{end} ({{expected:.3g}}): the model uses another response function.",
        )
        for end in ("low", "high")
    ]
    for s in ("dt_1g", "dt_2g5"):
        checks.append(
            _param_check(
                f"{s}_bdp_is_capacity_x_2_link_delay",
                partial(_link_bdp, s=s),
                "The printed BDP is the R1-R2 link's alone: capacity x twice its delay in 1 KB "
                "packets ({expected:.0f}), not the flows' BDP at their RTTs.",
                "The printed BDP {value:.0f} is not capacity x twice the link delay "
                "({expected:.0f} packets).",
            )
        )
        checks.append(
            _param_check(
                f"{s}_buffer_over_bdp_at_largest_rtt",
                partial(_buffer_over_bdp, s=s),
                "The printed buffer / BDP at the largest RTT follows from the buffer and the "
                "largest RTT ({expected:.2f}).",
                "The printed buffer / BDP at the largest RTT ({value:.2f}) does not follow from "
                "the printed buffer and largest RTT ({expected:.2f}): another RTT or BDP was "
                "used, so 'fraction of the BDP' is ambiguous on this scenario's axis.",
            )
        )
    return checks


def loss_check(params: pd.DataFrame) -> kc.Check:
    """The claimed loss rate at 10% of the BDP against the response function."""
    v = dict(zip(params["name"], params["value"].astype(float), strict=True))

    def loss_at_bdp(df: pd.DataFrame) -> kc.Measured | None:
        rows = df[(df["quantity"] == "loss_rate") & df["buffer_fraction"].notna()]
        if rows.empty:
            return None
        per_flow = bdp_pkts(v, "dt_1g", v["dt_1g.rtt_avg"]) / v["dt_1g.n_flows"]
        value, expected = float(rows["value"].iloc[0]), hs_loss(per_flow)
        ratio = max(value / expected, expected / value)
        return kc.Measured(value, expected, ratio <= ORDER_FACTOR, {"window": per_flow})

    return kc.Check(
        "loss_rate_at_per_flow_bdp",
        loss_at_bdp,
        "The claimed loss rate ({value:.2g}) is the response function's at each flow's "
        "share of the BDP at the mean RTT ({window:.0f} packets: {expected:.2g}): the "
        "flows fill the pipe about equally.",
        "The claimed loss rate ({value:.2g}) is not the response function's at each flow's "
        "share of the BDP at the mean RTT ({window:.0f} packets: {expected:.2g}).",
    )


def utilization_checks() -> list[kc.Check]:
    """The claimed utilizations: fractions of the capacity, growing with the buffer."""
    return [
        kc.Check(
            "utilization_le_1",
            kc.at_most(
                lambda df: df["value"].where(df["quantity"] == "utilization"),
                lambda df: pd.Series(1.0, index=df.index),
            ),
            "Every claimed utilization is a fraction of the capacity (at most {value:.2f}).",
            "A claimed utilization of {value:.2f} exceeds the capacity.",
        ),
        kc.Check(
            "utilization_grows_with_buffer",
            kc.monotone("buffer_fraction", "value"),
            "Claimed utilization grows with the buffer fraction.",
            "Claimed utilization falls as the buffer grows at {steps}.",
        ),
    ]


def consistency(block: Block, tables: Tables) -> pd.DataFrame:
    """results/hstcp/tables/consistency.csv: the parameters' and the claims' checks (the
    claims' alone when the tables hold no hstcp_params)."""
    claims = tables["published"]
    utilization = claims[claims["quantity"] == "utilization"].dropna(subset=["value"])
    parts = [
        kc.run_checks(
            "hstcp", utilization.assign(table="hstcp_claims"), utilization_checks(), ("table",)
        )
    ]
    if PARAMS in tables:
        params = tables[PARAMS]
        parts += [
            kc.run_checks("hstcp", params.assign(table=PARAMS), param_checks(), ("table",)),
            kc.run_checks(
                "hstcp", claims.assign(table="hstcp_claims"), [loss_check(params)], ("table",)
            ),
        ]
    return pd.concat(parts, ignore_index=True)
